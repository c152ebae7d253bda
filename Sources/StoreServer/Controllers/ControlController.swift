import Hummingbird
import StoreSimulation
import StoreUtilities

/// Storekeeper's own endpoints: the health check, open to anyone, and the control endpoint,
/// which applies command-language lines as `run` does, behind ``ControlAuthentication``.
struct ControlController {
  let access: SessionAccess

  func addRoutes(to router: Router<ServerContext>) {
    let control = router.group("storekeeper/v1")
    control.get("health", use: health)
    control.group().add(middleware: ControlAuthentication(access: access)).post(
      "commands", use: commands)
  }

  @Sendable func health(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, _ in reader.health() }
  }

  /// `?customer=<name>` acts as that customer; `?member=<name>` answers with what that family
  /// member's device sees.
  /// A parameter given more than once is refused (which one would win is nobody's guess).
  @Sendable func commands(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.control(request, context) { served, whole, answer, later in
      for name in ["customer", "member"] {
        guard let values = whole.query[name], values.count > 1 else { continue }
        let listed = values.map { $0.sanitizedForTerminal.prefix(40) }.joined(separator: ", ")
        return answer.fail(
          AppStoreError(
            .generalBadRequest,
            message: "?\(name)= is given \(values.count) times (\(listed)): give it once"
          )
          .response)
      }
      let device = DeviceFilter(
        customer: whole.query["customer"]?.last, member: whole.query["member"]?.last)
      served.commands(whole.body, device: device, answer: answer, later: later)
    }
  }
}
