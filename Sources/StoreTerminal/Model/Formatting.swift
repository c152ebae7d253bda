import StoreCommands
import StoreSimulation

/// How the views write prices, dates and durations.
enum Formatting {
  private static let zeroDecimalCurrencies: Set<String> = [
    "JPY", "KRW", "CLP", "VND", "IDR", "HUF", "COP",
  ]
  private static let symbols = [
    "USD": "$", "GBP": "£", "EUR": "€", "JPY": "¥", "CNY": "CN¥", "CAD": "CA$", "AUD": "A$",
    "KRW": "₩", "INR": "₹", "BRL": "R$", "MXN": "MX$", "COP": "COL$",
  ]

  /// `$9.99`, `¥1,500`, `€0.99`, `COL$13,900`, `CHF 12.00`.
  static func price(_ milliunits: Int64, currency: String) -> String {
    let whole = milliunits / 1000
    let grouped = groupThousands(whole)
    let symbol = symbols[currency]
    let amount: String
    if zeroDecimalCurrencies.contains(currency) {
      amount = grouped
    } else {
      let cents = (milliunits % 1000 + 5) / 10
      amount = grouped + "." + (cents < 10 ? "0\(cents)" : "\(min(cents, 99))")
    }
    return symbol.map { $0 + amount } ?? "\(currency) \(amount)"
  }

  private static func groupThousands(_ value: Int64) -> String {
    let digits = Array(String(value))
    var result = ""
    for (index, digit) in digits.enumerated() {
      if index > 0 && (digits.count - index) % 3 == 0 { result.append(",") }
      result.append(digit)
    }
    return result
  }

  /// `11-22 02:01:30` (UTC).
  static func shortDate(_ instant: Instant) -> String {
    let text = instant.iso8601
    let start = text.index(text.startIndex, offsetBy: 5)
    return String(text[start..<text.index(start, offsetBy: 14)]).replacingOccurrences(
      of: "T", with: " ")
  }

  /// `2026-11-22 02:01:30` (UTC).
  static func clock(_ instant: Instant) -> String {
    String(instant.iso8601.prefix(19)).replacingOccurrences(of: "T", with: " ")
  }

  /// `45 s`, `3 min 20 s`, `2 h 5 min`, `3 d 4 h`.
  static func duration(_ milliseconds: Int64) -> String {
    let seconds = max(0, milliseconds / 1000)
    if seconds < 60 { return "\(seconds) s" }
    if seconds < 3600 {
      return seconds % 60 == 0 ? "\(seconds / 60) min" : "\(seconds / 60) min \(seconds % 60) s"
    }
    if seconds < 86_400 {
      let minutes = seconds / 60 % 60
      return minutes == 0 ? "\(seconds / 3600) h" : "\(seconds / 3600) h \(minutes) min"
    }
    let hours = seconds / 3600 % 24
    return hours == 0 ? "\(seconds / 86_400) d" : "\(seconds / 86_400) d \(hours) h"
  }

  /// `in 12 s`, `12 s ago`.
  static func relative(_ instant: Instant, now: Instant) -> String {
    let delta = instant.milliseconds - now.milliseconds
    return delta >= 0 ? "in \(duration(delta))" : "\(duration(-delta)) ago"
  }

  /// `auto`, `non-consumable` …: short product types for the table.
  static func shortType(_ kind: ProductKind) -> String {
    switch kind {
    case .consumable: "consumable"
    case .nonConsumable: "non-consumable"
    case .nonRenewable: "non-renewing"
    case .autoRenewable: "subscription"
    }
  }

  /// An offer in a few words: `intro (pay as you go, P1M)`, `code "Free Month"`.
  static func offer(_ offer: TransactionOffer) -> String {
    let mode: String =
      switch offer.paymentMode {
      case .freeTrial: "free trial"
      case .payAsYouGo: "pay as you go"
      case .payUpFront: "pay up front"
      }
    let kind: String =
      switch offer.type {
      case .introductory: "intro"
      case .promotional: "promo"
      case .code: "code"
      case .winBack: "win-back"
      }
    let name = offer.id.map { " \"\($0)\"" } ?? ""
    return "\(kind)\(name) (\(mode), \(offer.period.iso8601))"
  }
}
