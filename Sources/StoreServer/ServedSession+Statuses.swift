import StoreJSON
import StoreSimulation

extension SessionReader {
  /// Get All Subscription Statuses (`GET /inApps/v1/subscriptions/{transactionId}`): each
  /// subscription group's latest transaction and renewal info, signed, with Apple's status
  /// numbers (1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked), filtered by
  /// `status` when given.
  func statuses(_ query: StatusQuery) throws(AppStoreError) -> JSONValue {
    let wanted = query.wanted
    var groups: [JSONValue] = []
    for status in session.subscriptionStatuses() {
      let number = status.state.statusNumber
      guard wanted.isEmpty || wanted.contains(number),
        let transaction = session.transaction(status.transactionID)
      else { continue }
      let renewal: String
      do {
        renewal = try signer.sign(status, signedDate: now, for: .server)
      } catch {
        throw AppStoreError(.generalInternal)
      }
      let item = JSONValue.object(
        JSONObject([
          JSONMember("status", .number(JSONNumber(number))),
          JSONMember(
            "originalTransactionId", .string(String(status.renewalInfo.originalTransactionID))),
          JSONMember("signedTransactionInfo", .string(try sign(transaction))),
          JSONMember("signedRenewalInfo", .string(renewal)),
        ]))
      groups.append(
        .object(
          JSONObject([
            JSONMember("subscriptionGroupIdentifier", .string(status.groupID)),
            JSONMember("lastTransactions", .array([item])),
          ])))
    }
    return .object(
      JSONObject([
        JSONMember("environment", .string(environment)),
        JSONMember("bundleId", .string(bundleID)),
        JSONMember("data", .array(groups)),
      ]))
  }
}
