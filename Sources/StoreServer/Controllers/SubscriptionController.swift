import Hummingbird

/// The App Store Server API's subscription endpoints: Get All Subscription Statuses, Extend a
/// Subscription Renewal Date, Extend Subscription Renewal Dates for All Active Subscribers and
/// Get Status of Subscription Renewal Date Extensions. Each reads its path and body into typed
/// values, in Apple's order (the transaction, then the body), before the session sees them.
struct SubscriptionController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    api.put("v1/subscriptions/extend/:originalTransactionId", use: extend)
      .post("v1/subscriptions/extend/mass", use: extendAll)
      .get("v1/subscriptions/extend/mass/:productId/:requestIdentifier", use: extensionStatus)
    api.group().add(middleware: CustomerLookup(access: access))
      .get("v1/subscriptions/:transactionId", use: statuses)
  }

  @Sendable func statuses(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, whole in
      reader.json(try reader.statuses(StatusQuery(whole.query)))
    }
  }

  @Sendable func extend(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("originalTransactionId") ?? ""
    return try await access.write(request, context) { served, whole in
      let original = try served.reader.originalTransaction(id)
      return served.json(
        try served.extend(original, ExtensionRequest(body: whole.body, mass: false)))
    }
  }

  @Sendable func extendAll(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.write(request, context) { served, whole in
      served.json(try served.extendAll(ExtensionRequest(body: whole.body, mass: true)))
    }
  }

  @Sendable func extensionStatus(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    let product = context.parameters.get("productId") ?? ""
    let identifier = context.parameters.get("requestIdentifier") ?? ""
    return try await access.read(request, context) { reader, _ in
      reader.json(try reader.extensionStatus(product: product, request: identifier))
    }
  }
}
