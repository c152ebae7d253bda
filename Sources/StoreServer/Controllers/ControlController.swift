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
      do throws(AppStoreError) {
        served.commands(try ControlRequest(whole), answer: answer, later: later)
      } catch {
        answer.fail(error.response)
      }
    }
  }
}
