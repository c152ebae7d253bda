import Hummingbird
import StoreCommands
import StoreSimulation

/// The Advanced Commerce API's server endpoints: Cancel a Subscription, Revoke Subscription,
/// Change Subscription Price, Change Subscription Metadata, Migrate a Subscription to Advanced
/// Commerce API and Request Transaction Refund, at Apple's paths under `/advancedCommerce/v1`.
struct CommerceController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    for operation in CommerceOperation.allCases {
      api.post("v1/\(operation.path)/:transactionId", use: handler(operation))
    }
  }

  private func handler(
    _ operation: CommerceOperation
  ) -> @Sendable (Request, ServerContext) async throws -> Response {
    { [access] request, context in
      let id = context.parameters.get("transactionId") ?? ""
      return try await access.write(request, context) { served, whole in
        let transaction = try served.reader.transaction(id)
        let command = try CommerceCommand(operation, on: transaction, body: whole.body)
        return served.json(try served.commerce(command, on: transaction))
      }
    }
  }
}
