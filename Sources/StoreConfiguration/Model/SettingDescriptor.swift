/// Which of the test session's settings a ``SettingDescriptor`` describes.
public enum SettingID: String, CaseIterable, Sendable {
  /// The switches (``SettingDescriptor/Kind/flag``).
  case askToBuy, interruptedPurchases, billingRetry, gracePeriod, dialogs
  /// Switches not stored in the file: Storekeeper's own, and the app's Info.plist key.
  case refundReview, consumableHistory
  /// The settings with values.
  case failTransactions, simulatedErrors, storefront, locale, timeRate
}

/// One of the test session's settings, described once: its `.storekit` key, its name in the
/// command language (`set <command> …`), its label in the inspector's settings, its kind, its
/// default and what it does. The configuration's reader and writer, the session, the command
/// parser, the settings dialog and the table in docs/settings.md all come from ``all``.
public struct SettingDescriptor: Sendable {
  /// What values it takes.
  public enum Kind: Sendable, Equatable {
    /// On or off: a boolean in the file.
    case flag
    /// Off, or an `SKError` code every purchase fails with.
    case failure
    /// Off, or an error, per StoreKit API.
    case errors
    /// An App Store storefront (``Storefront``).
    case storefront
    /// A locale identifier.
    case locale
    /// One of Xcode's time rates (`_timeRate`): how fast renewals come.
    case timeRate
  }

  /// Which setting.
  public let id: SettingID
  /// The key in the `.storekit` file's `settings` object; `nil` for a switch of Storekeeper's
  /// own, which the file does not store (a session sets it with `set`).
  public let key: String?
  /// The word after `set`.
  public let command: String
  /// How the inspector's settings dialog names it.
  public let label: String
  /// What values it takes.
  public let kind: Kind
  /// Its value when the file does not say, as the command language writes it.
  public let defaultValue: String
  /// What it does, in a line.
  public let help: String
  /// For a flag: `on` in the command language is the file's `false` (`dialogs on` is
  /// `_disableDialogs: false`).
  public let inverted: Bool

  private init(
    _ id: SettingID, _ key: String?, _ command: String, _ label: String, _ kind: Kind,
    default defaultValue: String, inverted: Bool = false, _ help: String
  ) {
    self.id = id
    self.key = key
    self.command = command
    self.label = label
    self.kind = kind
    self.defaultValue = defaultValue
    self.inverted = inverted
    self.help = help
  }

  /// Every setting, in the order the settings dialog lists them.
  public static let all: [SettingDescriptor] = [
    .init(
      .askToBuy, "_askToBuyEnabled", "ask-to-buy", "Ask to Buy", .flag, default: "off",
      "every purchase waits for a parent's approval"),
    .init(
      .interruptedPurchases, "_billingIssuesEnabled", "interrupted-purchases",
      "Interrupted purchases", .flag, default: "off",
      "every purchase is interrupted until resolved"),
    .init(
      .billingRetry, "_renewalBillingIssuesEnabled", "billing-retry", "Billing retry on renewal",
      .flag, default: "off",
      "every renewal fails and enters billing retry"),
    .init(
      .gracePeriod, "_billingGracePeriodEnabled", "grace-period", "Billing grace period", .flag,
      default: "off",
      "a failed renewal gets a grace period first (with billing retry)"),
    .init(
      .dialogs, "_disableDialogs", "dialogs", "Dialogs", .flag, default: "on", inverted: true,
      "StoreKit's sheets (reported only: purchases are taken as confirmed)"),
    .init(
      .failTransactions, "_failTransactionsEnabled", "fail-transactions", "Fail transactions",
      .failure, default: "off",
      "every purchase fails with an SKError code (with _storeKitError; deprecated by StoreKit)"),
    .init(
      .simulatedErrors, "_storeKitErrors", "error", "Error", .errors, default: "off",
      "a StoreKit API fails with the chosen error (set error <api> <error>)"),
    .init(
      .storefront, "_storefront", "storefront", "Storefront", .storefront, default: "USA",
      "the storefront purchases are made in: its currency and storefront id"),
    .init(
      .locale, "_locale", "locale", "Locale", .locale, default: "en_US",
      "the locale of product names, descriptions and prices"),
    .init(
      .timeRate, "_timeRate", "time-rate", "Time rate", .timeRate, default: "realTime",
      "how long subscription periods last (SKTestSession.TimeRate)"),
    .init(
      .refundReview, nil, "refund-review", "Refund review", .flag, default: "off",
      "the app's refund sheet waits for App Store review, as in production (CONSUMPTION_REQUEST, "
        + "then refund or refund-decline); off, it refunds at once as Xcode and the sandbox do"),
    .init(
      .consumableHistory, nil, "consumable-history", "Consumables in history", .flag,
      default: "off",
      "the app's Info.plist SKIncludeConsumableInAppPurchaseHistory (iOS 18): finished "
        + "consumables stay in Transaction.all, latest(for:) and latestTransaction"),
  ]

  /// A flag's value in the file's settings (`nil` when absent, or when not a flag).
  public func flag(in settings: Settings) -> Bool? {
    switch id {
    case .askToBuy: settings.askToBuyEnabled
    case .interruptedPurchases: settings.billingIssuesEnabled
    case .billingRetry: settings.renewalBillingIssuesEnabled
    case .gracePeriod: settings.billingGracePeriodEnabled
    case .dialogs: settings.disableDialogs
    default: nil
    }
  }

  /// Sets a flag in the file's settings; nothing for a setting that is not a flag.
  public func setFlag(_ value: Bool?, in settings: inout Settings) {
    switch id {
    case .askToBuy: settings.askToBuyEnabled = value
    case .interruptedPurchases: settings.billingIssuesEnabled = value
    case .billingRetry: settings.renewalBillingIssuesEnabled = value
    case .gracePeriod: settings.billingGracePeriodEnabled = value
    case .dialogs: settings.disableDialogs = value
    default: break
    }
  }

  /// The flags the file stores, in order, with their keys.
  public static var fileFlags: [(setting: SettingDescriptor, key: String)] {
    all.compactMap { setting in
      setting.kind == .flag ? setting.key.map { (setting, $0) } : nil
    }
  }

  /// The file's key of a setting it stores.
  static func fileKey(_ id: SettingID) -> String { Self[id].key! }

  /// The setting `set <command>` names.
  public static func named(_ command: String) -> SettingDescriptor? {
    all.first { $0.command == command }
  }

  /// The descriptor of a setting.
  public static subscript(_ id: SettingID) -> SettingDescriptor {
    all.first { $0.id == id }!
  }
}
