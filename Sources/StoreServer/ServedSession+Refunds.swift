import StoreJSON
import StoreSimulation

extension SessionReader {
  /// Get Refund History (`GET /inApps/v2/refund/lookup/{transactionId}`): the customer's
  /// refunded transactions, oldest refund first, 20 a page; the `revision` is a cursor on the
  /// last one returned (refund date and id), so refunds made or reversed during a walk neither
  /// hide nor repeat the others.
  func refundHistory(_ query: RefundHistoryQuery) throws(AppStoreError) -> JSONValue {
    let after = query.after
    var refunded: [Transaction] = []
    for row in historyOrder() where row.state == .refunded {
      // A family member's revocation is not a refund.
      if let transaction = session.transaction(row.id), transaction.revocationType != .familyRevoke
      {
        refunded.append(transaction)
      }
    }
    func cursor(_ t: Transaction) -> HistoryCursor {
      HistoryCursor(date: t.revocationDate?.milliseconds ?? 0, id: t.id)
    }
    refunded.sort { cursor($0) < cursor($1) }
    let rest = after.map { after in refunded.drop { cursor($0) <= after } } ?? refunded[...]
    let page = rest.prefix(HistoryQuery.pageSize)
    var signed: [JSONValue] = []
    for transaction in page { signed.append(.string(try sign(transaction))) }
    return .object(
      JSONObject([
        JSONMember("signedTransactions", .array(signed)),
        JSONMember(
          "revision", .string((page.last.map(cursor) ?? after)?.revision ?? HistoryCursor.start)),
        JSONMember("hasMore", .bool(rest.count > page.count)),
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
            .string(
              try signer.signAppTransaction(
                signedDate: now, for: .server, account: account,
                appTransactionID: base.appTransactionID(of: account))))
        ]))
    } catch {
      throw AppStoreError(.generalInternal)
    }
  }
}
