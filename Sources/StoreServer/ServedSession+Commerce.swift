import StoreCommands
import StoreJSON
import StoreSimulation

/// The Advanced Commerce API's six server endpoints (`/advancedCommerce/v1/…`): each request
/// is a `commerce` command, journaled for the transaction's owner as every API change; a retry
/// of a request (its `requestReferenceId` and body) answers as the first without a line.
extension ServedSession {
  /// `POST /advancedCommerce/v1/{subscription/<operation>|transaction/requestRefund}/{id}`:
  /// the subscription's signed renewal info and latest transaction (Request Transaction
  /// Refund: the transaction).
  func commerce(
    _ command: CommerceCommand, on transaction: Transaction
  ) throws(AppStoreError) -> JSONValue {
    let operation = command.operation
    let owner = transaction.owner.customer
    let retry =
      host.session.acting(as: owner)?.isCommerceRetry(
        CommerceAction(transaction.id, command.request)) ?? false
    if !retry {
      _ = try applyCall(.commerce(command), for: owner, refused: Self.commerceError)
    }
    guard let view = host.session.acting(as: owner),
      let now = view.transaction(transaction.id)
    else { throw AppStoreError(.generalInternal) }
    let reader = self.reader
    if operation == .requestRefund {
      return .object(
        JSONObject([JSONMember("signedTransactionInfo", .string(try reader.sign(now)))]))
    }
    guard let group = now.subscriptionGroupID, let status = view.status(forGroup: group),
      let latest = view.transaction(status.transactionID)
    else { throw AppStoreError(.generalInternal) }
    let renewal: String
    do {
      renewal = try signer.sign(status, signedDate: view.now, for: .server)
    } catch {
      throw AppStoreError(.generalInternal)
    }
    return .object(
      JSONObject([
        JSONMember("signedRenewalInfo", .string(renewal)),
        JSONMember("signedTransactionInfo", .string(try reader.sign(latest))),
      ]))
  }

  /// Apple's error for an Advanced Commerce request the engine refused.
  static func commerceError(_ error: CommandError) -> AppStoreError? {
    guard case .commerce(let refusal)? = error.refusal else {
      return AppStoreError(.generalBadRequest, message: "Bad request. \(error.message)")
    }
    return AppStoreError(
      refusal.rule, message: "\(refusal.rule.appleMessage) \(refusal.message)")
  }
}
