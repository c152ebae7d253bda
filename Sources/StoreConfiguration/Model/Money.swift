/// Amounts of money as a person reads them: milliunits of a currency written with the
/// currency's minor units, as Apple's formatting of a storefront's prices writes them
/// (`Decimal.FormatStyle.Currency`, after CLDR): two decimals for most currencies, none for the
/// yen, the won, the Chilean peso and the dong.
public enum Money {
  /// Currencies written without minor units (ISO 4217 exponent 0) among the storefronts'.
  static let wholeCurrencies: Set<String> = ["CLP", "JPY", "KRW", "VND"]

  /// How many decimals `currency` is written with.
  public static func minorUnits(of currency: String) -> Int {
    wholeCurrencies.contains(currency) ? 0 : 2
  }

  /// `milliunits` of `currency` as a decimal amount, rounded half away from zero to the
  /// currency's minor units: `-12.30` in dollars, `18147` in yen.
  public static func text(_ milliunits: Int64, currency: String) -> String {
    let places = minorUnits(of: currency)
    let step: UInt64 = places == 0 ? 1_000 : 10
    let units = (milliunits.magnitude + step / 2) / step
    let sign = milliunits < 0 && units > 0 ? "-" : ""
    guard places > 0 else { return sign + String(units) }
    let cents = units % 100
    return sign + "\(units / 100).\(cents < 10 ? "0" : "")\(cents)"
  }
}
