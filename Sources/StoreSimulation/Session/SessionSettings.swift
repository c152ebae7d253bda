import StoreConfiguration

/// The test session's switches: `SKTestSession`'s properties. They start from the
/// configuration's `settings`; ``Session`` can override each, and `reset` reverts to the file.
public struct SessionSettings: Equatable, Sendable {
  /// All purchases wait for a parent's approval.
  public var askToBuyEnabled = false
  /// All purchases are interrupted until resolved (`_billingIssuesEnabled`; inferred).
  public var interruptedPurchasesEnabled = false
  /// All purchases fail with ``failureError`` (deprecated by StoreKit in iOS 17).
  public var failTransactionsEnabled = false
  /// The error of failing transactions.
  public var failureError: SKErrorCode = .unknown
  /// Simulated errors per StoreKit API (`setSimulatedError(_:forAPI:)`).
  public var simulatedErrors: [StoreKitAPI: SimulatedError] = [:]
  /// Every renewal fails and enters billing retry (`_renewalBillingIssuesEnabled`; inferred).
  public var shouldEnterBillingRetryOnRenewal = false
  /// Failed renewals get a grace period first (only with billing retry).
  public var billingGracePeriodIsEnabled = false
  /// No StoreKit sheets: purchases are taken as confirmed. The simulator has no sheets, so
  /// this is reported, not acted on.
  public var disableDialogs = false
  /// The storefront purchases are made in.
  public var storefront: Storefront = .unitedStates
  /// The locale of product names and descriptions.
  public var locale = "en_US"
  /// How long subscription periods last.
  public var timeRate: TimeRate = .realTime
  /// The app's refund sheet submits a request that waits for the App Store's review, as in
  /// production (`CONSUMPTION_REQUEST`, then `refund` or `refund-decline`), instead of refunding
  /// at once as Xcode's and the sandbox's environments do. Storekeeper's own: not in the file.
  public var refundReviewEnabled = false
  /// The app opts in to finished consumables in its history (the Info.plist key
  /// `SKIncludeConsumableInAppPurchaseHistory`, iOS 18): `Transaction.all`, `latest(for:)` and
  /// `latestTransaction` keep them. Not in the file: it is the app's, not the configuration's.
  public var includeConsumableInAppPurchaseHistory = false

  /// StoreKit's defaults.
  public init() {}

  /// The settings a configuration file describes. Unknown storefronts and rates keep the
  /// defaults (the validator warns about them).
  public init(_ settings: Settings?) {
    guard let settings else { return }
    for (setting, _) in SettingDescriptor.fileFlags {
      self[flag: setting.id] = setting.flag(in: settings) ?? false
    }
    failTransactionsEnabled = settings.failTransactionsEnabled ?? false
    failureError = settings.storeKitError.flatMap(SKErrorCode.init(rawValue:)) ?? .unknown
    storefront = settings.storefront.flatMap(Storefront.init(countryCode:)) ?? .unitedStates
    locale = settings.locale ?? "en_US"
    timeRate = settings.timeRate.flatMap(TimeRate.init(rawValue:)) ?? .realTime
    for entry in settings.storeKitErrors ?? [] where entry.enabled {
      guard let api = StoreKitAPI(configurationName: entry.name) else { continue }
      let chosen = entry.current.wrapped.flatMap {
        SimulatedError(family: $0.type, index: $0.index)
      }
      simulatedErrors[api] = chosen.flatMap { api.accepts($0) ? $0 : nil } ?? api.defaultError
    }
  }

  /// A flag's value as the file holds it (`dialogs` is `disableDialogs`); `false` for a
  /// setting that is not a flag.
  public subscript(flag id: SettingID) -> Bool {
    get {
      switch id {
      case .askToBuy: askToBuyEnabled
      case .interruptedPurchases: interruptedPurchasesEnabled
      case .billingRetry: shouldEnterBillingRetryOnRenewal
      case .gracePeriod: billingGracePeriodIsEnabled
      case .dialogs: disableDialogs
      case .refundReview: refundReviewEnabled
      case .consumableHistory: includeConsumableInAppPurchaseHistory
      default: false
      }
    }
    set {
      switch id {
      case .askToBuy: askToBuyEnabled = newValue
      case .interruptedPurchases: interruptedPurchasesEnabled = newValue
      case .billingRetry: shouldEnterBillingRetryOnRenewal = newValue
      case .gracePeriod: billingGracePeriodIsEnabled = newValue
      case .dialogs: disableDialogs = newValue
      case .refundReview: refundReviewEnabled = newValue
      case .consumableHistory: includeConsumableInAppPurchaseHistory = newValue
      default: break
      }
    }
  }

  /// A flag as a person switches it: `dialogs` on means dialogs shown.
  public func isOn(_ id: SettingID) -> Bool {
    SettingDescriptor[id].inverted ? !self[flag: id] : self[flag: id]
  }

  /// These settings written into a configuration's `settings`, as Xcode's Editor menu does.
  public func applied(to settings: Settings?) -> Settings {
    var result = settings ?? Settings()
    for (setting, _) in SettingDescriptor.fileFlags {
      setting.setFlag(self[flag: setting.id], in: &result)
    }
    result.failTransactionsEnabled = failTransactionsEnabled
    if result.storeKitError != nil || failureError != .unknown {
      result.storeKitError = failureError.rawValue
    }
    result.storefront = storefront.countryCode
    result.locale = locale
    result.timeRate = timeRate.rawValue
    guard result.storeKitErrors != nil || !simulatedErrors.isEmpty else { return result }
    let existing = result.storeKitErrors ?? []
    // Format 5.0 entries carry no `current`; earlier ones always do.
    let writesCurrent = existing.isEmpty || existing.contains { $0.current != .absent }
    result.storeKitErrors = StoreKitAPI.allCases.map { api in
      let old = existing.first { $0.name == api.configurationName }
      var entry = old ?? StoreKitErrorSetting(name: api.configurationName, enabled: false)
      if old == nil { entry.current = writesCurrent ? .null : .absent }
      entry.enabled = simulatedErrors[api] != nil
      if writesCurrent, let error = simulatedErrors[api], let index = error.indexInFamily {
        entry.current = .value(ErrorSelection(index: index, type: error.family))
      }
      return entry
    }
    return result
  }
}

extension StoreKitAPI {
  /// The error an enabled category fails with when the file names none.
  var defaultError: SimulatedError {
    switch self {
    case .verification: .verification(.invalidSignature)
    default: .generic(.unknown)
    }
  }
}

extension SimulatedError {
  /// The error's position in its family's list (what `.storekit` files store as `index`).
  var indexInFamily: Int? {
    switch self {
    case .generic(let code): StoreKitErrorCode.allCases.firstIndex(of: code)
    case .purchase(let code): PurchaseErrorCode.allCases.firstIndex(of: code)
    case .verification(let code): VerificationErrorCode.allCases.firstIndex(of: code)
    case .refundRequest(let code): RefundRequestErrorCode.allCases.firstIndex(of: code)
    }
  }
}
