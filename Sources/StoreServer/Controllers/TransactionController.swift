import Hummingbird

/// The App Store Server API's reads of transactions: Get Transaction Info, Get App Transaction
/// Info, Get Transaction History (v1 and v2), Look Up Order ID and Get Refund History.
struct TransactionController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    api.get("v1/transactions/:transactionId", use: transaction)
      .get("v1/lookup/:orderId", use: lookUp)
    api.group().add(middleware: CustomerLookup(access: access))
      .get("v1/history/:transactionId", use: historyV1)
      .get("v1/transactions/appTransactions/:transactionId", use: appTransaction)
      .get("v2/history/:transactionId", use: history)
      .get("v2/refund/lookup/:transactionId", use: refunds)
  }

  @Sendable func transaction(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.read(request, context) { reader, _ in
      try reader.json(reader.transactionInfo(id))
    }
  }

  @Sendable func appTransaction(
    _ request: Request, context: ServerContext
  ) async throws
    -> Response
  {
    try await access.read(request, context) { reader, _ in
      reader.json(try reader.appTransactionInfo())
    }
  }

  /// The deprecated v1 takes transaction ids only (not an `appTransactionId`), and reads the
  /// history of the customer (or member) whose id it is, as v2 does.
  @Sendable func historyV1(_ request: Request, context: ServerContext) async throws -> Response {
    let id = context.parameters.get("transactionId") ?? ""
    return try await access.read(request, context) { reader, whole in
      _ = try reader.transaction(id)
      return reader.json(try reader.history(HistoryQuery(whole.query, version: "v1")))
    }
  }

  @Sendable func history(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, whole in
      reader.json(try reader.history(HistoryQuery(whole.query, version: "v2")))
    }
  }

  @Sendable func lookUp(_ request: Request, context: ServerContext) async throws -> Response {
    let order = context.parameters.get("orderId") ?? ""
    return try await access.read(request, context) { reader, _ in
      reader.json(try reader.lookUp(order: order))
    }
  }

  @Sendable func refunds(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, whole in
      reader.json(try reader.refundHistory(RefundHistoryQuery(whole.query)))
    }
  }
}
