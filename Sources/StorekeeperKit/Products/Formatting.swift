public import Foundation

extension Product {
  #if canImport(Darwin)
    /// The format style of the product's subscription period (`1 month`), in the storefront's
    /// locale.
    public var subscriptionPeriodFormatStyle: Date.ComponentsFormatStyle {
      var calendar = Calendar(identifier: .gregorian)
      calendar.locale = priceLocale
      return Date.ComponentsFormatStyle(style: .spellOut, locale: priceLocale, calendar: calendar)
    }
  #else
    /// The format style of the product's subscription period (`1 month`): Linux's Foundation
    /// has no public way to make a `Date.ComponentsFormatStyle`, so this one stands in for it
    /// (`period.formatted(product.subscriptionPeriodFormatStyle)` reads the same).
    public var subscriptionPeriodFormatStyle: SubscriptionPeriodFormatStyle {
      SubscriptionPeriodFormatStyle()
    }
  #endif

  /// The format style of a period's unit (`month`), in the storefront's locale.
  public var subscriptionPeriodUnitFormatStyle: SubscriptionPeriod.Unit.FormatStyle {
    SubscriptionPeriod.Unit.FormatStyle().locale(priceLocale)
  }
}

extension Product.SubscriptionPeriod {
  /// The period starting at `referenceDate`, formatted by a style of date ranges.
  public func formatted<S>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput
  where S: FormatStyle, S.FormatInput == Range<Date> {
    format.format(dateRange(referenceDate: referenceDate))
  }

  /// The period's length from `referenceDate`, formatted by a style of durations.
  public func formatted<S>(_ format: S, referenceDate: Date = .now) -> S.FormatOutput
  where S: FormatStyle, S.FormatInput == Duration {
    let range = dateRange(referenceDate: referenceDate)
    return format.format(.seconds(range.upperBound.timeIntervalSince(range.lowerBound)))
  }
}

extension Product.SubscriptionPeriod.Unit {
  /// A unit written for a person (`month`).
  public struct FormatStyle: Foundation.FormatStyle, Codable, Hashable {
    /// A unit.
    public typealias FormatInput = Product.SubscriptionPeriod.Unit
    /// Its name.
    public typealias FormatOutput = String

    private var localeIdentifier: String?

    /// A style in the current locale.
    public init() {}

    /// The unit's name (English names; other languages are not localized here).
    public func format(_ value: Product.SubscriptionPeriod.Unit) -> String {
      switch value {
      case .day: "day"
      case .week: "week"
      case .month: "month"
      case .year: "year"
      }
    }

    /// The style in another locale.
    public func locale(_ locale: Locale) -> FormatStyle {
      var style = self
      style.localeIdentifier = locale.identifier
      return style
    }
  }

  /// The unit formatted by a style of units.
  public func formatted<S>(_ format: S) -> S.FormatOutput
  where S: Foundation.FormatStyle, S.FormatInput == Product.SubscriptionPeriod.Unit {
    format.format(self)
  }
}

extension DateComponents {
  /// The components of a subscription period (`month: 1`).
  public init(subscriptionPeriod period: Product.SubscriptionPeriod) {
    self.init()
    switch period.unit {
    case .day: day = period.value
    case .week: weekOfYear = period.value
    case .month: month = period.value
    case .year: year = period.value
    }
  }
}

/// A date range written as its length in calendar components (`1 month`, `3 days`): what
/// `Product.subscriptionPeriodFormatStyle` is on Linux.
public struct SubscriptionPeriodFormatStyle: FormatStyle, Hashable, Codable {
  /// A style.
  public init() {}

  /// The range's length in its whole components (`1 month`, `1 year, 2 months`).
  public func format(_ value: Range<Date>) -> String {
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(identifier: "UTC")!
    let parts = calendar.dateComponents(
      [.year, .month, .weekOfYear, .day], from: value.lowerBound, to: value.upperBound)
    let named: [(Int?, String)] = [
      (parts.year, "year"), (parts.month, "month"), (parts.weekOfYear, "week"), (parts.day, "day"),
    ]
    let words = named.compactMap { count, name -> String? in
      guard let count, count > 0 else { return nil }
      return "\(count) \(name)\(count == 1 ? "" : "s")"
    }
    return words.isEmpty ? "0 days" : words.joined(separator: ", ")
  }
}
