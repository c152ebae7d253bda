import Foundation
import StoreCommands
import StoreSimulation

/// How the views write prices, dates and durations.
enum Formatting {
  /// `11-22 02:01:30` (UTC) in the year of `now`; with the year in any other,
  /// `2025-11-22 02:01:30`, or `2025-11-22 02:01` when `fitting` 16 cells (a table column).
  static func shortDate(_ instant: Instant, now: Instant, fitting: Bool = false) -> String {
    let full = clock(instant)
    if full.prefix(4) == clock(now).prefix(4) { return String(full.dropFirst(5)) }
    return fitting ? String(full.prefix(16)) : full
  }

  /// Whether an instant falls in another year than `now` (its dates then show the year).
  static func isOtherYear(_ instant: Instant, now: Instant) -> Bool {
    clock(instant).prefix(4) != clock(now).prefix(4)
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
      case .oneTime: "one time"
      }
    let kind: String =
      switch offer.type {
      case .introductory: "intro"
      case .promotional: "promo"
      case .code: "code"
      case .winBack: "win-back"
      }
    let name = offer.id.map { " \"\($0)\"" } ?? ""
    return "\(kind)\(name) (\(mode)" + (offer.period.map { ", \($0.iso8601))" } ?? ")")
  }
}

/// Prices as a person reads them: the currency's own minor units, rounding and symbol
/// position, in the session's locale (what Xcode's `_locale` setting controls), from
/// Foundation's currency data. One per frame; it keeps a formatter per currency.
final class PriceFormat {
  private let locale: Locale
  private var formatters: [String: NumberFormatter] = [:]

  /// Prices in `locale` (`en_US`, `ja`, `de_DE` …).
  init(locale: String) {
    self.locale = Locale(identifier: locale)
  }

  /// `$9.99`, `¥160`, `0,99 €`, `CHF 12.00` for an amount in thousandths of the currency.
  func callAsFunction(_ milliunits: Int64, currency: String) -> String {
    let formatter =
      formatters[currency]
      ?? {
        let made = NumberFormatter()
        made.numberStyle = .currency
        made.locale = locale
        made.currencyCode = currency
        formatters[currency] = made
        return made
      }()
    let amount = NSDecimalNumber(decimal: Decimal(milliunits) / 1000)
    return formatter.string(from: amount) ?? "\(currency) \(amount)"
  }
}
