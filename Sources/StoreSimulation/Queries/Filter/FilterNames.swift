import StoreConfiguration

/// The names a filter accepts for states, types and offer kinds: each case's own name, common
/// aliases, and (for states and types) any prefix of them.
extension LedgerState {
  /// The states a filter value names: the one it spells (or an alias of), else every state
  /// whose name or alias starts with it (`ret` is retry; `re` renewed, refunded and retry).
  static func matching(filterName: String) -> [LedgerState] {
    if let exact = LedgerState(filterName: filterName) { return [exact] }
    let prefix = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    guard !prefix.isEmpty else { return [] }
    let names = allCases.map { ($0, $0.rawValue.lowercased()) } + aliases
    return allCases.filter { state in
      names.contains { $0.0 == state && $0.1.hasPrefix(prefix) }
    }
  }

  private static let aliases: [(LedgerState, String)] = [
    (.pending, "pendingapproval"), (.pending, "deferred"), (.pending, "asktobuy"),
    (.grace, "ingrace"), (.grace, "graceperiod"), (.grace, "ingraceperiod"),
    (.retry, "billingretry"),
    (.retry, "inbillingretry"), (.priceIncrease, "priceincreasepending"), (.refunded, "revoked"),
  ]

  /// A state by its name or a common alias (`pending-approval`, `billing-retry`, `in-grace`).
  init?(filterName: String) {
    let name = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    if let match = LedgerState.allCases.first(where: { $0.rawValue.lowercased() == name }) {
      self = match
      return
    }
    guard let alias = Self.aliases.first(where: { $0.1 == name }) else { return nil }
    self = alias.0
  }
}

extension ProductKind {
  /// The types a filter value names: the one it spells (or an alias of), else every type whose
  /// name or alias starts with it (`cons` is consumable; `non` non-consumable and non-renewing).
  static func matching(filterName: String) -> [ProductKind] {
    if let exact = ProductKind(filterName: filterName) { return [exact] }
    let prefix = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    guard !prefix.isEmpty else { return [] }
    let names = allCases.map { ($0, $0.rawValue.lowercased()) } + aliases
    return allCases.filter { kind in names.contains { $0.0 == kind && $0.1.hasPrefix(prefix) } }
  }

  private static let aliases: [(ProductKind, String)] = [
    (.autoRenewable, "subscription"), (.autoRenewable, "autorenewablesubscription"),
    (.autoRenewable, "recurringsubscription"), (.autoRenewable, "autorenewing"),
    (.nonRenewable, "nonrenewing"), (.nonRenewable, "nonrenewingsubscription"),
  ]

  /// A type by its name or a common alias (`subscription`, `non-consumable`, `RecurringSubscription`).
  init?(filterName: String) {
    let name = filterName.lowercased().replacingOccurrences(of: "-", with: "")
    if let match = ProductKind.allCases.first(where: { $0.rawValue.lowercased() == name }) {
      self = match
      return
    }
    guard let alias = Self.aliases.first(where: { $0.1 == name }) else { return nil }
    self = alias.0
  }
}

extension OfferKind {
  /// A kind by its name or alias (`intro`, `promo`, `winback`).
  init?(filterName: String) {
    switch filterName.lowercased().replacingOccurrences(of: "-", with: "") {
    case "introductory", "intro": self = .introductory
    case "promotional", "promo": self = .promotional
    case "code", "offercode": self = .code
    case "winback": self = .winBack
    default: return nil
    }
  }
}
