import Hummingbird
import StoreSimulation

/// For the endpoints that take any of a customer's ids (Apple's `transactionId` "or
/// appTransactionId"): the account the id names goes in the context, so the request reads that
/// account's transactions (a member's id names the member); 4000006 when it is not an id,
/// 4040010 when there is none.
struct CustomerLookup: RouterMiddleware {
  let access: SessionAccess

  func handle(
    _ request: Request, context: ServerContext,
    next: (Request, ServerContext) async throws -> Response
  ) async throws -> Response {
    let reader = try access.reader(for: .purchaser)
    var context = context
    context.account = try reader.customer(context.parameters.get("transactionId") ?? "")
    return try await next(request, context)
  }
}
