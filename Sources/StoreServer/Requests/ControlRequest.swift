import StoreCommands
import StoreSimulation

/// What `POST /storekeeper/v1/commands` asks: its lines of the command language, and whose
/// device answers (`?customer=<name>`, `?member=<name>`). A parameter given more than once is
/// refused (which one would win is nobody's guess).
struct ControlRequest {
  var lines: [String]
  var device: DeviceFilter

  init(_ whole: ServerRequest) throws(AppStoreError) {
    for name in ["customer", "member"] {
      guard let values = whole.query[name], values.count > 1 else { continue }
      let listed = values.map { $0.sanitizedForTerminal.prefix(40) }.joined(separator: ", ")
      throw AppStoreError(
        .generalBadRequest,
        message: "?\(name)= is given \(values.count) times (\(listed)): give it once")
    }
    lines = Command.scriptLines(whole.body)
    device = DeviceFilter(
      customer: whole.query["customer"]?.last, member: whole.query["member"]?.last)
  }
}
