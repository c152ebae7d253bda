/// An App Store storefront: its ISO 3166-1 alpha-3 code, Apple's storefront id and currency.
public struct Storefront: Hashable, Sendable {
  /// `USA`.
  public var countryCode: String
  /// Apple's storefront id, `143441`.
  public var id: String
  /// ISO 4217, `USD`.
  public var currency: String

  /// The storefront for an alpha-3 code, from Apple's storefront list; `nil` when unknown.
  public init?(countryCode: String) {
    guard let entry = Self.table[countryCode.uppercased()] else { return nil }
    self.countryCode = countryCode.uppercased()
    self.id = entry.id
    self.currency = entry.currency
  }

  /// The default storefront of the test environment.
  public static let unitedStates = Storefront(countryCode: "USA")!

  /// Every known storefront code, sorted.
  public static var knownCountryCodes: [String] { table.keys.sorted() }

  private static let table: [String: (id: String, currency: String)] = [
    "ARE": ("143481", "AED"), "ARG": ("143505", "ARS"), "AUS": ("143460", "AUD"),
    "AUT": ("143445", "EUR"), "BEL": ("143446", "EUR"), "BRA": ("143503", "BRL"),
    "CAN": ("143455", "CAD"), "CHE": ("143459", "CHF"), "CHL": ("143483", "CLP"),
    "CHN": ("143465", "CNY"), "COL": ("143501", "COP"), "CZE": ("143489", "CZK"),
    "DEU": ("143443", "EUR"), "DNK": ("143458", "DKK"), "EGY": ("143516", "EGP"),
    "ESP": ("143454", "EUR"), "FIN": ("143447", "EUR"), "FRA": ("143442", "EUR"),
    "GBR": ("143444", "GBP"), "GRC": ("143448", "EUR"), "HKG": ("143463", "HKD"),
    "HUN": ("143482", "HUF"), "IDN": ("143476", "IDR"), "IND": ("143467", "INR"),
    "IRL": ("143449", "EUR"), "ISR": ("143491", "ILS"), "ITA": ("143450", "EUR"),
    "JPN": ("143462", "JPY"), "KOR": ("143466", "KRW"), "LUX": ("143451", "EUR"),
    "MEX": ("143468", "MXN"), "MYS": ("143473", "MYR"), "NLD": ("143452", "EUR"),
    "NOR": ("143457", "NOK"), "NZL": ("143461", "NZD"), "PHL": ("143474", "PHP"),
    "POL": ("143478", "PLN"), "PRT": ("143453", "EUR"), "ROU": ("143487", "RON"),
    "RUS": ("143469", "RUB"), "SAU": ("143479", "SAR"), "SGP": ("143464", "SGD"),
    "SWE": ("143456", "SEK"), "THA": ("143475", "THB"), "TUR": ("143480", "TRY"),
    "TWN": ("143470", "TWD"), "UKR": ("143492", "UAH"), "USA": ("143441", "USD"),
    "VNM": ("143471", "VND"), "ZAF": ("143472", "ZAR"),
  ]
}
