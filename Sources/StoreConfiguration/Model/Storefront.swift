/// An App Store storefront: its ISO 3166-1 alpha-3 code, Apple's storefront id, its currency
/// and its default locale. This table is the one list of storefronts: the configuration's
/// validator, the session, the command language, the inspector's settings and price formatting
/// all read it.
public struct Storefront: Hashable, Sendable {
  /// `USA`.
  public var countryCode: String
  /// Apple's storefront id, `143441`.
  public var id: String
  /// ISO 4217, `USD`.
  public var currency: String
  /// The storefront's usual locale, `en_US` (its language and region).
  public var defaultLocale: String

  private init(_ countryCode: String, _ id: String, _ currency: String, _ locale: String) {
    self.countryCode = countryCode
    self.id = id
    self.currency = currency
    self.defaultLocale = locale
  }

  /// The storefront for an alpha-3 code (any case), from Apple's storefront list; `nil` when
  /// unknown.
  public init?(countryCode: String) {
    guard let known = Self.all.first(where: { $0.countryCode == countryCode.uppercased() }) else {
      return nil
    }
    self = known
  }

  /// A storefront as Apple's payloads name it: the table's when the code, id and currency are
  /// its, else one with Apple's values (and the code's usual locale, or `en_US`).
  public init(countryCode: String, id: String, currency: String) {
    let known = Storefront(countryCode: countryCode)
    if let known, known.id == id, known.currency == currency {
      self = known
      return
    }
    self.init(countryCode.uppercased(), id, currency, known?.defaultLocale ?? "en_US")
  }

  /// The default storefront of the test environment.
  public static let unitedStates = Storefront("USA", "143441", "USD", "en_US")

  /// Every known storefront code, sorted.
  public static var knownCountryCodes: [String] { all.map(\.countryCode) }

  /// Every known storefront, by code.
  public static let all: [Storefront] = {
    typealias S = Storefront
    return [
      S("ARE", "143481", "AED", "ar_AE"), S("ARG", "143505", "ARS", "es_AR"),
      S("AUS", "143460", "AUD", "en_AU"), S("AUT", "143445", "EUR", "de_AT"),
      S("BEL", "143446", "EUR", "fr_BE"), S("BRA", "143503", "BRL", "pt_BR"),
      S("CAN", "143455", "CAD", "en_CA"), S("CHE", "143459", "CHF", "de_CH"),
      S("CHL", "143483", "CLP", "es_CL"), S("CHN", "143465", "CNY", "zh_CN"),
      S("COL", "143501", "COP", "es_CO"), S("CZE", "143489", "CZK", "cs_CZ"),
      S("DEU", "143443", "EUR", "de_DE"), S("DNK", "143458", "DKK", "da_DK"),
      S("EGY", "143516", "EGP", "ar_EG"), S("ESP", "143454", "EUR", "es_ES"),
      S("FIN", "143447", "EUR", "fi_FI"), S("FRA", "143442", "EUR", "fr_FR"),
      S("GBR", "143444", "GBP", "en_GB"), S("GRC", "143448", "EUR", "el_GR"),
      S("HKG", "143463", "HKD", "zh_HK"), S("HUN", "143482", "HUF", "hu_HU"),
      S("IDN", "143476", "IDR", "id_ID"), S("IND", "143467", "INR", "en_IN"),
      S("IRL", "143449", "EUR", "en_IE"), S("ISR", "143491", "ILS", "he_IL"),
      S("ITA", "143450", "EUR", "it_IT"), S("JPN", "143462", "JPY", "ja_JP"),
      S("KOR", "143466", "KRW", "ko_KR"), S("LUX", "143451", "EUR", "fr_LU"),
      S("MEX", "143468", "MXN", "es_MX"), S("MYS", "143473", "MYR", "ms_MY"),
      S("NLD", "143452", "EUR", "nl_NL"), S("NOR", "143457", "NOK", "nb_NO"),
      S("NZL", "143461", "NZD", "en_NZ"), S("PHL", "143474", "PHP", "en_PH"),
      S("POL", "143478", "PLN", "pl_PL"), S("PRT", "143453", "EUR", "pt_PT"),
      S("ROU", "143487", "RON", "ro_RO"), S("RUS", "143469", "RUB", "ru_RU"),
      S("SAU", "143479", "SAR", "ar_SA"), S("SGP", "143464", "SGD", "en_SG"),
      S("SWE", "143456", "SEK", "sv_SE"), S("THA", "143475", "THB", "th_TH"),
      S("TUR", "143480", "TRY", "tr_TR"), S("TWN", "143470", "TWD", "zh_TW"),
      S("UKR", "143492", "UAH", "uk_UA"), S("USA", "143441", "USD", "en_US"),
      S("VNM", "143471", "VND", "vi_VN"), S("ZAF", "143472", "ZAR", "en_ZA"),
    ]
  }()
}
