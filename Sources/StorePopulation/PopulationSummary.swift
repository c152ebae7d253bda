import StoreConfiguration
import StoreJSON
import StoreSimulation

/// What a population did: how many customers, what notifications went out, how many customers
/// were subscribed at each month's end, and the revenue by currency. A shard's summary counts
/// its own customers; the shards' summaries add up to the whole run's.
public struct PopulationSummary: Equatable, Sendable {
  /// The customers simulated (the shard's).
  public var customers = 0
  /// The shard.
  public var shard = Shard.whole
  /// Transactions made (purchases and renewals, refunded ones included).
  public var transactions = 0
  /// Notifications by name (`DID_RENEW`, `SUBSCRIBED-INITIAL_BUY` …).
  public var notifications: [String: Int] = [:]
  /// Customers with access to a subscription at each month's end, with the month's end.
  public var subscribers: [(end: Instant, count: Int)] = []
  /// Charges less refunds, in milliunits, by ISO 4217 currency.
  public var revenue: [String: Int64] = [:]
  /// Actions the model chose that the session refused (a cancellation after an expiry …).
  public var skippedActions = 0

  /// Every notification.
  public var notificationCount: Int { notifications.values.reduce(0, +) }

  /// Whether two summaries say the same (the subscriber counts compared month by month).
  public static func == (lhs: PopulationSummary, rhs: PopulationSummary) -> Bool {
    lhs.customers == rhs.customers && lhs.shard == rhs.shard
      && lhs.transactions == rhs.transactions && lhs.notifications == rhs.notifications
      && lhs.subscribers.map(\.end) == rhs.subscribers.map(\.end)
      && lhs.subscribers.map(\.count) == rhs.subscribers.map(\.count)
      && lhs.revenue == rhs.revenue && lhs.skippedActions == rhs.skippedActions
  }

  /// The summary for a person: aligned columns, money with two decimals.
  public var text: String {
    var lines = [
      "customers       \(customers)" + (shard == .whole ? "" : " (shard \(shard))"),
      "transactions    \(transactions)",
      "notifications   \(notificationCount)",
    ]
    for (name, count) in notifications.sorted(by: { ($1.value, $0.key) < ($0.value, $1.key) }) {
      lines.append("  \(name.padding(toLength: 46, withPad: " ", startingAt: 0)) \(count)")
    }
    lines.append("subscribers at each month's end")
    for (end, count) in subscribers {
      lines.append("  \(String(end.iso8601.prefix(10)))  \(count)")
    }
    lines.append("revenue (charges less refunds)")
    for (currency, amount) in revenue.sorted(by: { $0.key < $1.key }) {
      lines.append("  \(currency)  \(Money.text(amount, currency: currency))")
    }
    if skippedActions > 0 {
      lines.append("actions the session refused (and were skipped)  \(skippedActions)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// The summary as one JSON object.
  public var json: String {
    let object = JSONObject([
      JSONMember("customers", .number(JSONNumber(customers))),
      JSONMember("shard", .string(shard.description)),
      JSONMember("transactions", .number(JSONNumber(transactions))),
      JSONMember(
        "notifications",
        .object(
          JSONObject(
            notifications.sorted { $0.key < $1.key }.map {
              JSONMember($0.key, .number(JSONNumber($0.value)))
            }))),
      JSONMember(
        "subscribers",
        .array(
          subscribers.map {
            .object(
              JSONObject([
                JSONMember("monthEnd", .string($0.end.iso8601)),
                JSONMember("count", .number(JSONNumber($0.count))),
              ]))
          })),
      JSONMember(
        "revenue",
        .object(
          JSONObject(
            revenue.sorted { $0.key < $1.key }.map {
              JSONMember($0.key, .number(JSONNumber(text: Money.text($0.value, currency: $0.key))))
            }))),
      JSONMember("skippedActions", .number(JSONNumber(skippedActions))),
    ])
    return JSONWriter.compact(.object(object)) + "\n"
  }
}
