import StoreCommands
import StoreDelivery
import StoreJSON
import StoreSigning
import StoreSimulation

extension ServedSession {
  /// `POST /inApps/v1/notifications/test` (Request a Test Notification): a `TEST` notification
  /// through the real delivery; its token names it for the status call.
  func requestTestNotification() throws(AppStoreError) -> JSONValue {
    guard let sender, sender.outbox.hasDestination else {
      throw AppStoreError(
        .serverNotificationURLNotFound,
        message: "No server notification URL: start serve with --notify-url (or --notifications).")
    }
    let index: Int
    do throws(DeliveryError) {
      index = try sender.sendTest(at: now, number: shared.testCount)
    } catch {
      throw AppStoreError(.generalInternal, message: "\(error)")
    }
    let token = "\(sender.outbox.entry(index).notification.uuid)_\(now.milliseconds)"
    shared.keepTest(token, entry: index)
    return .object(JSONObject([JSONMember("testNotificationToken", .string(token))]))
  }

}

extension SessionReader {
  /// `GET /inApps/v1/notifications/test/{testNotificationToken}` (Get Test Notification
  /// Status).
  func testNotificationStatus(_ token: String) throws(AppStoreError) -> JSONValue {
    let parts = token.split(separator: "_")
    guard parts.count == 2, isUUID(String(parts[0])), Int64(parts[1]) != nil else {
      throw AppStoreError(.invalidTestNotificationToken)
    }
    guard let outbox, let index = shared.test(token) else {
      throw AppStoreError(.testNotificationNotFound)
    }
    let entry = outbox.entry(index)
    return .object(
      JSONObject([
        JSONMember("signedPayload", .string(entry.signedPayload)),
        JSONMember("sendAttempts", Self.attempts(entry)),
      ]))
  }

  /// `POST /inApps/v1/notifications/history` (Get Notification History): what this server
  /// sent, 20 a page, oldest first.
  func notificationHistory(
    _ request: NotificationHistoryRequest
  ) throws(AppStoreError) -> JSONValue {
    let (start, end, type, subtype) = (
      request.startDate, request.endDate, request.notificationType, request.notificationSubtype
    )
    guard now.milliseconds - start <= 180 * 86_400_000 else {
      throw AppStoreError(.startDateTooFarInPast)
    }
    let customer = try request.transactionID.map { (text) throws(AppStoreError) in
      try transaction(text).owner.customer
    }
    let (onlyFailures, offset) = (request.onlyFailures, request.offset)
    let entries = outbox?.history ?? []
    var page: [JSONValue] = []
    var next: Int?
    for index in entries.indices.dropFirst(offset) {
      let entry = entries[index]
      let notification = entry.notification
      let time = notification.time.milliseconds
      guard time >= start, time < end,
        type == nil || notification.type == type,
        subtype == nil || notification.subtype == subtype,
        customer == nil
          || (notification.transactionID != nil && notification.owner.customer == customer),
        !onlyFailures || (!entry.isDelivered && !entry.attempts.isEmpty)
      else { continue }
      guard page.count < HistoryQuery.pageSize else {
        next = index
        break
      }
      page.append(
        .object(
          JSONObject([
            JSONMember("signedPayload", .string(entry.signedPayload)),
            JSONMember("sendAttempts", Self.attempts(entry)),
          ])))
    }
    var members = [
      JSONMember("notificationHistory", .array(page)), JSONMember("hasMore", .bool(next != nil)),
    ]
    if let next { members.append(JSONMember("paginationToken", .string("sk1-\(next)"))) }
    return .object(JSONObject(members))
  }

  private static func attempts(_ entry: NotificationOutbox.Entry) -> JSONValue {
    .array(
      entry.attempts.map { attempt in
        .object(
          JSONObject([
            JSONMember("attemptDate", .number(JSONNumber(Int(attempt.date.milliseconds)))),
            JSONMember("sendAttemptResult", .string(attempt.result.rawValue)),
          ]))
      })
  }

  /// Apple's `notificationType` values (V2).
  static let notificationTypes: Set<String> = [
    "SUBSCRIBED", "DID_CHANGE_RENEWAL_PREF", "DID_CHANGE_RENEWAL_STATUS", "OFFER_REDEEMED",
    "DID_RENEW", "EXPIRED", "DID_FAIL_TO_RENEW", "GRACE_PERIOD_EXPIRED", "PRICE_INCREASE",
    "REFUND", "REFUND_DECLINED", "CONSUMPTION_REQUEST", "RENEWAL_EXTENDED", "REVOKE", "TEST",
    "RENEWAL_EXTENSION", "REFUND_REVERSED", "EXTERNAL_PURCHASE_TOKEN", "ONE_TIME_CHARGE",
    "METADATA_UPDATE", "MIGRATION", "PRICE_CHANGE", "RESCIND_CONSENT",
  ]
}
