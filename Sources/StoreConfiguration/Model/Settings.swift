import StoreJSON

/// The `settings` object: the StoreKit test session's switches as Xcode's Editor menu stores
/// them. Every key is optional; absent keys keep StoreKit's defaults.
public struct Settings: Equatable, Sendable {
  /// `_askToBuyEnabled`.
  public var askToBuyEnabled: Bool?
  /// `_billingIssuesEnabled`: interrupted purchases ("Enable Interrupted Purchases"; inferred).
  public var billingIssuesEnabled: Bool?
  /// `_renewalBillingIssuesEnabled`: every renewal enters billing retry (inferred).
  public var renewalBillingIssuesEnabled: Bool?
  /// `_billingGracePeriodEnabled`.
  public var billingGracePeriodEnabled: Bool?
  /// `_disableDialogs`.
  public var disableDialogs: Bool?
  /// `_failTransactionsEnabled` (deprecated by StoreKit in favour of `_storeKitErrors`).
  public var failTransactionsEnabled: Bool?
  /// `_storeKitError`: the legacy failure's `SKError` code (formats 1.1–2.0).
  public var storeKitError: Int?
  /// `_storeKitErrors`: simulated errors per StoreKit API (formats 2.0 and later).
  public var storeKitErrors: [StoreKitErrorSetting]?
  /// `_locale`: `en_US`, `ja`, `zh_Hans` …
  public var locale: String?
  /// `_storefront`: an ISO 3166-1 alpha-3 code such as `USA`.
  public var storefront: String?
  /// `_timeRate`: the raw value of `SKTestSession.TimeRate`.
  public var timeRate: Int?
  /// `_compatibilityTimeRate`: the fallback rate for older readers.
  public var compatibilityTimeRate: CompatibilityTimeRate?
  /// `_applicationInternalID` (synced files).
  public var applicationInternalID: String?
  /// `_developerTeamID` (synced files).
  public var developerTeamID: String?
  /// `_lastSynchronizedDate`: seconds since 2001-01-01 UTC, kept as written.
  public var lastSynchronizedDate: JSONNumber?
  /// `_lastCheckoutTimestamp` (rare).
  public var lastCheckoutTimestamp: Int?
  /// `_shouldSetupSyncOnLoad` (rare).
  public var shouldSetupSyncOnLoad: Bool?
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates empty settings (`{}`, as format 1.0 writes them).
  public init() {}

  /// `_lastSynchronizedDate` as seconds since 1970-01-01 UTC.
  public var lastSynchronizedUnixTime: Double? {
    lastSynchronizedDate?.doubleValue.map { $0 + 978_307_200 }
  }

  init(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    for (setting, key) in SettingDescriptor.fileFlags {
      setting.setFlag(reader.bool(key, .optional, log: &log), in: &self)
    }
    failTransactionsEnabled = reader.bool(
      SettingDescriptor.fileKey(.failTransactions), .optional, log: &log)
    storeKitError = reader.int("_storeKitError", .optional, log: &log)
    storeKitErrors = reader.objects(
      SettingDescriptor.fileKey(.simulatedErrors), .optional, log: &log
    ) { reader, log in
      StoreKitErrorSetting(reading: &reader, log: &log)
    }
    locale = reader.string(SettingDescriptor.fileKey(.locale), .optional, log: &log)
    storefront = reader.string(SettingDescriptor.fileKey(.storefront), .optional, log: &log)
    timeRate = reader.int(SettingDescriptor.fileKey(.timeRate), .optional, log: &log)
    compatibilityTimeRate = reader.read(
      "_compatibilityTimeRate", .optional,
      expecting: "an integer or an object of integers such as {\"3\" : 6}", log: &log,
      CompatibilityTimeRate.init)
    applicationInternalID = reader.string("_applicationInternalID", .optional, log: &log)
    developerTeamID = reader.string("_developerTeamID", .optional, log: &log)
    lastSynchronizedDate = reader.read(
      "_lastSynchronizedDate", .optional, expecting: "a number of seconds", log: &log
    ) { if case .number(let number) = $0 { number } else { nil } }
    lastCheckoutTimestamp = reader.int("_lastCheckoutTimestamp", .optional, log: &log)
    shouldSetupSyncOnLoad = reader.bool("_shouldSetupSyncOnLoad", .optional, log: &log)
    unknown = reader.leftovers
    validate(at: reader.path, log: &log)
  }

  private func validate(at path: JSONPath, log: inout DiagnosticLog) {
    if let storefront, storefront.utf8.count != 3 || !storefront.allSatisfy(\.isUppercase) {
      log.warning(
        path.appending("_storefront"),
        "\"\(storefront)\" is not an ISO 3166-1 alpha-3 code such as \"USA\"")
    } else if let storefront, Storefront(countryCode: storefront) == nil {
      log.warning(
        path.appending("_storefront"),
        "\"\(storefront)\" is not one of the App Store's storefronts; the session uses USA")
    }
    if let timeRate, !Settings.knownTimeRates.contains(timeRate) {
      log.warning(
        path.appending("_timeRate"), "\(timeRate) is not a known SKTestSession.TimeRate raw value")
    }
    for (index, entry) in (storeKitErrors ?? []).enumerated()
    where !StoreKitErrorSetting.categories.contains(entry.name) {
      log.warning(
        path.appending("_storeKitErrors").appending(index: index).appending("name"),
        "\"\(entry.name)\" is not one of the nine StoreKit API categories")
    }
  }

  /// The raw values of `SKTestSession.TimeRate`.
  public static let knownTimeRates: Set<Int> = [
    0, 1, 2, 3, 4, 5, 6, 10, 11, 12, 13, 15, 1000, 1001, 1002, 1003, 1004, 1005,
  ]

  var json: JSONValue {
    var object = unknown
    func set(_ key: String, _ value: Bool?) { object[key] = value.map { .bool($0) } }
    func set(_ key: String, _ value: Int?) { object[key] = value.map { .number(JSONNumber($0)) } }
    func set(_ key: String, _ value: String?) { object[key] = value.map { .string($0) } }
    for (setting, key) in SettingDescriptor.fileFlags { set(key, setting.flag(in: self)) }
    set(SettingDescriptor.fileKey(.failTransactions), failTransactionsEnabled)
    set("_storeKitError", storeKitError)
    object[SettingDescriptor.fileKey(.simulatedErrors)] = storeKitErrors.map {
      .array($0.map(\.json))
    }
    set(SettingDescriptor.fileKey(.locale), locale)
    set(SettingDescriptor.fileKey(.storefront), storefront)
    set(SettingDescriptor.fileKey(.timeRate), timeRate)
    object["_compatibilityTimeRate"] = compatibilityTimeRate?.json
    set("_applicationInternalID", applicationInternalID)
    set("_developerTeamID", developerTeamID)
    object["_lastSynchronizedDate"] = lastSynchronizedDate.map { .number($0) }
    set("_lastCheckoutTimestamp", lastCheckoutTimestamp)
    set("_shouldSetupSyncOnLoad", shouldSetupSyncOnLoad)
    return .object(object)
  }
}

/// `_compatibilityTimeRate`: an integer in format 2.0, an object from format major version to
/// rate from 3.0 (`{"3" : 6}`).
public enum CompatibilityTimeRate: Equatable, Sendable {
  /// Format 2.0: one fallback rate.
  case rate(Int)
  /// Format 3.0 and later: a fallback rate per reader's format major version.
  case byFormatMajor([String: Int])

  init?(_ value: JSONValue) {
    switch value {
    case .number(let number):
      guard let rate = number.intValue else { return nil }
      self = .rate(rate)
    case .object(let object):
      var rates: [String: Int] = [:]
      for member in object.members {
        guard case .number(let number) = member.value, let rate = number.intValue else {
          return nil
        }
        rates[member.key] = rate
      }
      self = .byFormatMajor(rates)
    default: return nil
    }
  }

  var json: JSONValue {
    switch self {
    case .rate(let rate): .number(JSONNumber(rate))
    case .byFormatMajor(let rates):
      .object(JSONObject(rates.map { JSONMember($0.key, .number(JSONNumber($0.value))) }))
    }
  }
}

/// One entry of `_storeKitErrors`: whether a StoreKit API fails, and with which error.
public struct StoreKitErrorSetting: Equatable, Sendable {
  /// The nine API categories, in the order Xcode writes them.
  public static let categories = [
    "Load Products", "Purchase", "Verification", "App Store Sync", "Subscription Status",
    "App Transaction", "Manage Subscriptions Sheet", "Refund Request Sheet",
    "Offer Code Redeem Sheet",
  ]

  /// The API category, one of ``categories``.
  public var name: String
  /// Whether the error is simulated.
  public var enabled: Bool
  /// The error chosen in Xcode's editor: present (possibly `null`) up to format 4.0, absent in 5.0.
  public var current: Nullable<ErrorSelection>
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates an entry.
  public init(name: String, enabled: Bool, current: Nullable<ErrorSelection> = .null) {
    self.name = name
    self.enabled = enabled
    self.current = current
  }

  init?(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    let name = reader.string("name", .required, log: &log)
    enabled = reader.bool("enabled", .expected, log: &log) ?? false
    current = reader.nullableObject("current", log: &log) { reader, log in
      ErrorSelection(reading: &reader, log: &log)
    }
    unknown = reader.leftovers
    guard let name else { return nil }
    self.name = name
  }

  var json: JSONValue {
    var object = unknown
    object["name"] = .string(name)
    object["enabled"] = .bool(enabled)
    object["current"] = current.json(\.json)
    return .object(object)
  }
}

/// The error chosen for a category in Xcode's editor: an error family and a position in it.
public struct ErrorSelection: Equatable, Sendable {
  /// The position of the error in its family's list.
  public var index: Int
  /// The family: `generic`, `purchase`, `verification` (by analogy also `refundRequest`).
  public var type: String
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates a selection.
  public init(index: Int, type: String) {
    self.index = index
    self.type = type
  }

  init?(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    let index = reader.int("index", .required, log: &log)
    let type = reader.string("type", .required, log: &log)
    unknown = reader.leftovers
    guard let index, let type else { return nil }
    self.index = index
    self.type = type
  }

  var json: JSONValue {
    var object = unknown
    object["index"] = .number(JSONNumber(index))
    object["type"] = .string(type)
    return .object(object)
  }
}
