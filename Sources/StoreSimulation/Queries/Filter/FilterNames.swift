import StoreConfiguration

/// A kind of value a filter names by its case's name or an alias, whole or by prefix, ignoring
/// case and hyphens (`state:billing-retry`, `type:non` …).
protocol FilterNamed: CaseIterable, RawRepresentable, Equatable where RawValue == String {
  /// Other names people use, lowercased without hyphens.
  static var aliases: [(Self, String)] { get }
}

extension FilterNamed {
  /// The value a filter word spells: a case's name or an alias.
  init?(filterName: String) {
    let name = Self.normalized(filterName)
    guard
      let match = Self.allCases.first(where: { $0.rawValue.lowercased() == name })
        ?? Self.aliases.first(where: { $0.1 == name })?.0
    else { return nil }
    self = match
  }

  /// The values a filter word names: the one it spells, else every value whose name or alias
  /// starts with it.
  static func matching(filterName: String) -> [Self] {
    if let exact = Self(filterName: filterName) { return [exact] }
    let prefix = normalized(filterName)
    guard !prefix.isEmpty else { return [] }
    let names = allCases.map { ($0, $0.rawValue.lowercased()) } + aliases
    return allCases.filter { value in names.contains { $0.0 == value && $0.1.hasPrefix(prefix) } }
  }

  private static func normalized(_ text: String) -> String {
    text.lowercased().replacingOccurrences(of: "-", with: "")
  }
}

/// States: `ret` is retry; `re` renewed, refunded and retry; `pending-approval`, `in-grace`.
extension LedgerState: FilterNamed {
  static let aliases: [(LedgerState, String)] = [
    (.pending, "pendingapproval"), (.pending, "deferred"), (.pending, "asktobuy"),
    (.grace, "ingrace"), (.grace, "graceperiod"), (.grace, "ingraceperiod"),
    (.retry, "billingretry"),
    (.retry, "inbillingretry"), (.priceIncrease, "priceincreasepending"), (.refunded, "revoked"),
  ]
}

/// Types: `cons` is consumable; `non` non-consumable and non-renewing; `subscription`.
extension ProductKind: FilterNamed {
  static let aliases: [(ProductKind, String)] = [
    (.autoRenewable, "subscription"), (.autoRenewable, "autorenewablesubscription"),
    (.autoRenewable, "recurringsubscription"), (.autoRenewable, "autorenewing"),
    (.nonRenewable, "nonrenewing"), (.nonRenewable, "nonrenewingsubscription"),
  ]
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
