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
  /// Those actions by kind (the command's verb: `auto-renew`, `refund`, `resolve` …).
  public var skippedByKind: [String: Int] = [:]
  /// Each chance the model drew: how many times it was drawn and how many times it came up.
  public var draws: [BehaviourModel.Chance: Draws] = [:]
  /// Charges less refunds by month (the month each happened in, from the start), in milliunits,
  /// by currency.
  public var revenueByMonth: [[String: Int64]] = []
  /// Subscriptions that ended because the customer turned auto-renew off (or declined a price
  /// increase).
  public var voluntaryChurn = 0
  /// Subscriptions that ended because billing retry gave up.
  public var billingChurn = 0
  /// Seats bought in group purchases (multiseat), the customers who made them counted by the
  /// `groupPurchase` chance's hits.
  public var groupSeats = 0
  /// Members who joined a group purchaser's seat, and those removed again.
  public var groupMembersJoined = 0
  /// Members the purchaser removed.
  public var groupMembersLeft = 0
  /// Customers holding a seat of another's group purchase at each month's end, from the first
  /// month's end one did (empty before).
  public var seatMembers: [Int] = []
  /// Monthly recurring revenue at the end: each subscriber's product at its list price, a year's
  /// price over 12, in milliunits, by currency.
  public var monthlyRecurringRevenue: [String: Int64] = [:]

  /// How often a chance was drawn and came up.
  public struct Draws: Equatable, Sendable {
    /// Times drawn.
    public var trials = 0
    /// Times it came up.
    public var hits = 0
  }

  /// Introductory offers that became paid subscriptions, of those the model decided on.
  public var introductoryConversion: Draws { draws[.introductoryConversion] ?? Draws() }

  /// Every notification.
  public var notificationCount: Int { notifications.values.reduce(0, +) }

  /// Whether two summaries say the same (the subscriber counts compared month by month).
  public static func == (lhs: PopulationSummary, rhs: PopulationSummary) -> Bool {
    lhs.customers == rhs.customers && lhs.shard == rhs.shard
      && lhs.transactions == rhs.transactions && lhs.notifications == rhs.notifications
      && lhs.subscribers.map(\.end) == rhs.subscribers.map(\.end)
      && lhs.subscribers.map(\.count) == rhs.subscribers.map(\.count)
      && lhs.revenue == rhs.revenue && lhs.skippedActions == rhs.skippedActions
      && lhs.skippedByKind == rhs.skippedByKind && lhs.draws == rhs.draws
      && lhs.revenueByMonth == rhs.revenueByMonth && lhs.voluntaryChurn == rhs.voluntaryChurn
      && lhs.billingChurn == rhs.billingChurn && lhs.groupSeats == rhs.groupSeats
      && lhs.groupMembersJoined == rhs.groupMembersJoined
      && lhs.groupMembersLeft == rhs.groupMembersLeft && lhs.seatMembers == rhs.seatMembers
      && lhs.monthlyRecurringRevenue == rhs.monthlyRecurringRevenue
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
    lines.append("subscribers at each month's end  \(Self.chart(subscribers.map(\.count)))")
    for (index, (end, count)) in subscribers.enumerated() {
      let month = index < revenueByMonth.count ? revenueByMonth[index] : [:]
      lines.append(
        "  \(String(end.iso8601.prefix(10)))  \(String(count).leftPadded(to: 7))  revenue "
          + Self.amounts(month))
    }
    lines.append("revenue (charges less refunds)  " + Self.amounts(revenue))
    if revenue.count > 1 {
      lines.append(
        "  each storefront is charged the configuration's number in its own currency (a .storekit "
          + "file has one price list): amounts of different currencies are not comparable")
    }
    lines.append("MRR now (list prices)  " + Self.amounts(monthlyRecurringRevenue))
    let conversion = introductoryConversion
    if conversion.trials > 0 {
      let percent = Double(conversion.hits) * 100 / Double(conversion.trials)
      lines.append(
        "introductory offers kept paying  \(conversion.hits) of \(conversion.trials) "
          + "(\(String(format: "%.1f", percent))%)")
    }
    lines.append(
      "churn  voluntary \(voluntaryChurn) (auto-renew off, price increase declined) · billing "
        + "\(billingChurn) (retry gave up)")
    if let group = draws[.groupPurchase], group.hits > 0 {
      lines.append(
        "group purchases  \(group.hits) of \(group.trials) customers bought \(groupSeats) seats; "
          + "\(groupMembersJoined) members joined, \(groupMembersLeft) removed")
    }
    if !seatMembers.isEmpty {
      lines.append(
        "members holding seats at each month's end  \(Self.chart(seatMembers))  "
          + seatMembers.map(String.init).joined(separator: " "))
    }
    if skippedActions > 0 {
      let kinds = skippedByKind.sorted { ($1.value, $0.key) < ($0.value, $1.key) }
        .map { "\($0.key) \($0.value)" }.joined(separator: " · ")
      lines.append("actions the session refused (skipped)  \(skippedActions): \(kinds)")
    }
    return lines.joined(separator: "\n") + "\n"
  }

  /// `USD 12.30 · EUR 4.00`, or `-` for none.
  static func amounts(_ byCurrency: [String: Int64]) -> String {
    guard !byCurrency.isEmpty else { return "-" }
    return byCurrency.sorted { $0.key < $1.key }
      .map { "\($0.key) \(Money.text($0.value, currency: $0.key))" }.joined(separator: " · ")
  }

  /// A row of bars, one a value, the highest full.
  static func chart(_ values: [Int]) -> String {
    let levels = Array("▁▂▃▄▅▆▇█")
    let peak = max(1, values.max() ?? 1)
    return String(values.map { levels[min(levels.count - 1, $0 * (levels.count - 1) / peak)] })
  }

  /// The summary as one JSON object.
  public var json: String {
    var object = JSONObject([
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
      JSONMember(
        "skippedByKind",
        .object(
          JSONObject(
            skippedByKind.sorted { $0.key < $1.key }.map {
              JSONMember($0.key, .number(JSONNumber($0.value)))
            }))),
      JSONMember("revenueByMonth", .array(revenueByMonth.map(Self.amountsJSON))),
      JSONMember("monthlyRecurringRevenue", Self.amountsJSON(monthlyRecurringRevenue)),
      JSONMember("voluntaryChurn", .number(JSONNumber(voluntaryChurn))),
      JSONMember("billingChurn", .number(JSONNumber(billingChurn))),
      JSONMember(
        "chances",
        .object(
          JSONObject(
            draws.sorted { $0.key.rawValue < $1.key.rawValue }.map {
              JSONMember(
                $0.key.rawValue,
                .object(
                  JSONObject([
                    JSONMember("trials", .number(JSONNumber($0.value.trials))),
                    JSONMember("hits", .number(JSONNumber($0.value.hits))),
                  ])))
            }))),
    ])
    // Only with group purchases: a population without them says what it always said.
    if groupSeats > 0 {
      object["groupSeats"] = .number(JSONNumber(groupSeats))
      object["groupMembersJoined"] = .number(JSONNumber(groupMembersJoined))
      object["groupMembersLeft"] = .number(JSONNumber(groupMembersLeft))
      object["seatMembers"] = .array(seatMembers.map { .number(JSONNumber($0)) })
    }
    return JSONWriter.compact(.object(object)) + "\n"
  }

  /// Amounts by currency as a JSON object of decimal numbers.
  static func amountsJSON(_ byCurrency: [String: Int64]) -> JSONValue {
    .object(
      JSONObject(
        byCurrency.sorted { $0.key < $1.key }.map {
          JSONMember($0.key, .number(JSONNumber(text: Money.text($0.value, currency: $0.key))))
        }))
  }
}

extension String {
  /// The text with spaces before it, `width` cells at least.
  fileprivate func leftPadded(to width: Int) -> String {
    count >= width ? self : String(repeating: " ", count: width - count) + self
  }
}
