import Hummingbird

/// The App Store Server API's changes to a transaction: Send Consumption Information (v1 and
/// v2), Set App Account Token, and Storekeeper's finish. Each reads its transaction and its body
/// (typed, in that order), then comes down to a command, applied where the session lives.
struct TransactionUpdateController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    api.put("v1/transactions/consumption/:transactionId", use: consumptionV1)
      .put("v2/transactions/consumption/:transactionId", use: consumption)
      .put("v1/transactions/:transactionId/appAccountToken", use: appAccountToken)
      .post("v1/transactions/:transactionId/finish", use: finish)
  }

  @Sendable func consumptionV1(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    try await consumption(request, context, version: "v1")
  }

  @Sendable func consumption(_ request: Request, context: ServerContext) async throws -> Response {
    try await consumption(request, context, version: "v2")
  }

  private func consumption(
    _ request: Request, _ context: ServerContext, version: String
  ) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.write(request, context) { served, whole in
      let transaction = try served.reader.transaction(id)
      try served.consumption(
        transaction, ConsumptionRequest(body: whole.body, version: version).fields)
      return ServerResponse(status: 202, body: [])
    }
  }

  @Sendable func appAccountToken(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.write(request, context) { served, whole in
      let transaction = try served.reader.transaction(id)
      try served.setAppAccountToken(transaction, AppAccountTokenRequest(body: whole.body))
      return ServerResponse(status: 200, body: [])
    }
  }

  @Sendable func finish(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.write(request, context) { served, _ in
      try served.finish(id)
      return ServerResponse(status: 200, body: [])
    }
  }
}
