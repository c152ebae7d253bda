import StoreCommands
import StoreConfiguration
import StoreSigning
import StoreSimulation

/// The served session's notifications: the mapper that turns its events into App Store Server
/// Notifications, the outbox that sends them and keeps what became of each, and the test
/// notifications asked for.
final class ServedNotifications {
  var mapper: NotificationMapper
  let outbox: NotificationOutbox
  /// Test notifications by token: the outbox entry.
  var tests: [String: Int] = [:]

  init(mapper: NotificationMapper, outbox: NotificationOutbox) {
    self.mapper = mapper
    self.outbox = outbox
  }
}

extension ServedSession {
  /// Maps, signs and sends the notifications of `events` (the latest the session emitted, all
  /// of them, in order); the outbox's lines go to the log.
  ///
  /// - Returns: the notifications, with the file each was written to.
  @discardableResult
  func notify(_ events: [StoreEvent]) -> [(ServerNotification, String?)] {
    guard let notifications, !events.isEmpty else { return [] }
    var sent: [(ServerNotification, String?)] = []
    for notification in notifications.mapper.notifications(for: events, in: session) {
      guard let body = try? signer.signedBody(notification) else { continue }
      do throws(SigningError) {
        let index = try notifications.outbox.add(
          notification, body: body, signedPayload: Self.payload(of: body), now: now)
        sent.append((notification, notifications.outbox.entries[index].file))
      } catch {
        log("storekeeper: \(error)")
        sent.append((notification, nil))
      }
    }
    pumpNotifications()
    return sent
  }

  /// Records the answers that came back and makes the attempts now due.
  func pumpNotifications() {
    guard let notifications else { return }
    for line in notifications.outbox.pump(now: now) { log(line) }
  }

  /// The JWS in a notification body (`{"signedPayload":"…"}`).
  static func payload(of body: String) -> String {
    guard case .object(let object)? = try? JSONParser.parse(Array(body.utf8)).root,
      case .string(let jws)? = object["signedPayload"]
    else { return "" }
    return jws
  }

  /// `notify retry` or `set notify-fault …` typed in a lent session (the inspector's), said
  /// for a person.
  public func perform(_ action: NotifyAction, lending journaled: inout JournaledSession) -> String {
    let line = lend(&journaled) { notifyAction(action) }
    guard case .object(let object)? = try? JSONParser.parse(line).root else { return "" }
    switch (object["action"], object["count"], object["fault"], object["message"]) {
    case (_, _, _, .string(let message)?): return message
    case (.string("retry")?, .number(let count)?, _, _):
      return "notify retry: \(count.text) notification\(count.text == "1" ? "" : "s") sent again"
    case (_, _, .string(let fault)?, _): return "notification fault: \(fault)"
    default: return ""
    }
  }

  /// `notify retry` and `set notify-fault …`: the delivery's own commands.
  func notifyAction(_ action: NotifyAction) -> [UInt8] {
    guard let notifications else {
      return Array(
        #"{"event":"notify","message":"no --notify-url or --notifications: nothing is sent"}"#
          .utf8) + [0x0A]
    }
    var object = JSONObject([
      JSONMember("time", .string(now.iso8601)), JSONMember("event", .string("notify")),
    ])
    switch action {
    case .retry:
      let count = notifications.outbox.retryFailed(now: now)
      object["action"] = .string("retry")
      object["count"] = .number(JSONNumber(count))
      pumpNotifications()
    case .fault(let fault):
      notifications.outbox.fault = Self.outboxFault(fault, now: now)
      object["action"] = .string("fault")
      object["fault"] = .string(fault.words.joined(separator: " "))
    }
    return Array(JSONWriter.compact(.object(object)).utf8) + [0x0A]
  }

  private static func outboxFault(
    _ fault: NotificationFault, now: Instant
  ) -> NotificationOutbox.Fault {
    switch fault {
    case .off: .off
    case .drop: .drop
    case .duplicate: .duplicate
    case .delay(let duration): .delay(duration.after(now).milliseconds - now.milliseconds)
    }
  }

  /// `POST /inApps/v1/notifications/test` (Request a Test Notification): a `TEST` notification
  /// through the real delivery; its token names it for the status call.
  func requestTestNotification() throws(AppStoreError) -> JSONValue {
    guard let notifications, notifications.outbox.hasDestination else {
      throw AppStoreError(
        status: 404, code: 4_040_007,
        message: "No server notification URL: start serve with --notify-url (or --notifications).")
    }
    let count = notifications.tests.count
    let name = signer.notificationNamespace(session: journaled.identity) + "|test|\(count)"
    let notification = ServerNotification.test(at: now, uuid: nameBasedUUID(name))
    guard let body = try? signer.signedBody(notification) else {
      throw AppStoreError(status: 500, code: 5_000_000, message: "An unknown error occurred.")
    }
    let index: Int
    do throws(SigningError) {
      index = try notifications.outbox.add(
        notification, body: body, signedPayload: Self.payload(of: body), now: now)
    } catch {
      throw AppStoreError(status: 500, code: 5_000_000, message: "\(error)")
    }
    let token = "\(notification.uuid)_\(now.milliseconds)"
    notifications.tests[token] = index
    pumpNotifications()
    return .object(JSONObject([JSONMember("testNotificationToken", .string(token))]))
  }

  /// `GET /inApps/v1/notifications/test/{testNotificationToken}` (Get Test Notification
  /// Status).
  func testNotificationStatus(_ token: String) throws(AppStoreError) -> JSONValue {
    let parts = token.split(separator: "_")
    guard parts.count == 2, isUUID(String(parts[0])), Int64(parts[1]) != nil else {
      throw AppStoreError(
        status: 400, code: 4_000_020, message: "Invalid test notification token.")
    }
    guard let notifications, let index = notifications.tests[token] else {
      throw AppStoreError(status: 404, code: 4_040_008, message: "Test notification not found.")
    }
    let entry = notifications.outbox.entries[index]
    return .object(
      JSONObject([
        JSONMember("signedPayload", .string(entry.signedPayload)),
        JSONMember("sendAttempts", Self.attempts(entry)),
      ]))
  }

  /// `POST /inApps/v1/notifications/history` (Get Notification History): what this server
  /// sent, 20 a page, oldest first.
  func notificationHistory(
    _ query: [String: [String]], body: [UInt8]
  ) throws(AppStoreError) -> JSONValue {
    let request = try bodyObject(body)
    func date(_ name: String, _ code: Int) throws(AppStoreError) -> Int64 {
      guard case .number(let number)? = request[name], let value = number.intValue, value >= 0
      else {
        throw AppStoreError(status: 400, code: code, message: "Invalid \(name).")
      }
      return Int64(value)
    }
    let start = try date("startDate", 4_000_015)
    let end = try date("endDate", 4_000_016)
    guard start <= end else {
      throw AppStoreError(
        status: 400, code: 4_000_013, message: "The start date is later than the end date.")
    }
    guard now.milliseconds - start <= 180 * 86_400_000 else {
      throw AppStoreError(
        status: 400, code: 4_000_012,
        message: "The start date is more than 180 days in the past.")
    }
    var type: String?
    if let value = request["notificationType"], value != .null {
      guard case .string(let text) = value, Self.notificationTypes.contains(text) else {
        throw AppStoreError(status: 400, code: 4_000_018, message: "Invalid notification type.")
      }
      type = text
    }
    var subtype: String?
    if case .string(let text)? = request["notificationSubtype"] { subtype = text }
    var customer = false
    if let value = request["transactionId"], value != .null {
      guard type == nil, subtype == nil else {
        throw AppStoreError(
          status: 400, code: 4_000_019,
          message: "Give either a transaction id or a notification type, not both.")
      }
      guard case .string(let text) = value else { throw .invalidTransactionID }
      _ = try transaction(text)
      customer = true
    }
    let onlyFailures = request["onlyFailures"] == .bool(true)
    var offset = 0
    if let token = query["paginationToken"]?.last {
      guard token.hasPrefix("sk1-"), let value = Int(token.dropFirst(4)), value >= 0 else {
        throw AppStoreError(status: 400, code: 4_000_014, message: "Invalid pagination token.")
      }
      offset = value
    }
    let entries = notifications?.outbox.entries ?? []
    var page: [JSONValue] = []
    var next: Int?
    for index in entries.indices.dropFirst(offset) {
      let entry = entries[index]
      let notification = entry.notification
      let time = notification.time.milliseconds
      guard time >= start, time < end,
        type == nil || notification.type == type,
        subtype == nil || notification.subtype == subtype,
        !customer || notification.transaction != nil,
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
