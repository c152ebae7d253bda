import StoreConfiguration
import StoreSimulation

extension ServedSession {
  /// Get Refund History (`GET /inApps/v2/refund/lookup/{transactionId}`): the customer's
  /// refunded transactions, oldest refund first, 20 a page with a `revision` token.
  func refundHistory(_ query: [String: [String]]) throws(AppStoreError) -> JSONValue {
    var offset = 0
    if let revision = query["revision"]?.last {
      guard let value = HistoryQuery.offset(of: revision) else {
        throw AppStoreError(status: 400, code: 4_000_005, message: "Invalid request revision.")
      }
      offset = value
    }
    var refunded: [Transaction] = []
    for row in historyOrder() where row.state == .refunded {
      if let transaction = session.transaction(row.id) { refunded.append(transaction) }
    }
    refunded.sort { ($0.revocationDate!, $0.id) < ($1.revocationDate!, $1.id) }
    let page = refunded.dropFirst(offset).prefix(HistoryQuery.pageSize)
    let next = min(refunded.count, offset + page.count)
    var signed: [JSONValue] = []
    for transaction in page { signed.append(.string(try sign(transaction))) }
    return .object(
      JSONObject([
        JSONMember("signedTransactions", .array(signed)),
        JSONMember("revision", .string(HistoryQuery.revision(at: next))),
        JSONMember("hasMore", .bool(next < refunded.count)),
      ]))
  }

  /// Get App Transaction Info (`GET /inApps/v1/transactions/appTransactions/{transactionId}`):
  /// the app transaction, signed as the session signs.
  func appTransactionInfo() throws(AppStoreError) -> JSONValue {
    do {
      return .object(
        JSONObject([
          JSONMember(
            "signedAppTransactionInfo",
            .string(try signer.signAppTransaction(signedDate: now, for: .server)))
        ]))
    } catch {
      throw AppStoreError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
    }
  }
}
