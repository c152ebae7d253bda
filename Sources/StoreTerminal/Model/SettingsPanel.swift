import StoreCommands
import StoreConfiguration
import StoreSimulation

/// One line of the settings panel.
struct SettingsItem {
  var label: String
  var value: String
  /// The command that changes it to its next value.
  var next: SettingChange?
}

/// The settings panel's lines: each of the session's switches, its value, and the change to
/// its next value.
enum SettingsPanel {
  /// The session's switches, as the settings panel lists them.
  static func items(_ session: Session) -> [SettingsItem] {
    let settings = session.settings
    func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
    var items = [
      SettingsItem(
        label: "Ask to Buy", value: onOff(settings.askToBuyEnabled),
        next: .askToBuy(!settings.askToBuyEnabled)),
      SettingsItem(
        label: "Interrupted purchases", value: onOff(settings.interruptedPurchasesEnabled),
        next: .interruptedPurchases(!settings.interruptedPurchasesEnabled)),
      SettingsItem(
        label: "Billing retry on renewal", value: onOff(settings.shouldEnterBillingRetryOnRenewal),
        next: .billingRetry(!settings.shouldEnterBillingRetryOnRenewal)),
      SettingsItem(
        label: "Billing grace period", value: onOff(settings.billingGracePeriodIsEnabled),
        next: .gracePeriod(!settings.billingGracePeriodIsEnabled)),
      SettingsItem(
        label: "Dialogs", value: onOff(!settings.disableDialogs),
        next: .dialogs(settings.disableDialogs)),
    ]
    let failures = [nil] + SKErrorCode.failureErrors
    let failure = settings.failTransactionsEnabled ? settings.failureError : nil
    let failureIndex = failures.firstIndex { $0 == failure } ?? 0
    items.append(
      SettingsItem(
        label: "Fail transactions", value: failure?.name ?? "off",
        next: .failTransactions(failures[(failureIndex + 1) % failures.count])))
    for api in StoreKitAPI.allCases {
      let choices = [nil] + SimulatedError.all.filter(api.accepts)
      let current = settings.simulatedErrors[api]
      let index = choices.firstIndex { $0 == current } ?? 0
      items.append(
        SettingsItem(
          label: "Error: \(api.configurationName)", value: current.map { "\($0)" } ?? "off",
          next: .simulatedError(api, choices[(index + 1) % choices.count])))
    }
    let storefronts = ["USA", "GBR", "JPN", "CHN", "DEU", "FRA", "NLD", "FIN", "PRT", "COL"]
    let storefront = settings.storefront.countryCode
    let storefrontIndex = storefronts.firstIndex(of: storefront) ?? -1
    items.append(
      SettingsItem(
        label: "Storefront", value: "\(storefront) (\(settings.storefront.currency))",
        next: Storefront(countryCode: storefronts[(storefrontIndex + 1) % storefronts.count]).map {
          .storefront($0)
        }))
    var locales = session.catalog.products.flatMap(\.localizations).map(\.locale)
    locales = Array(Set(locales + ["en_US"])).sorted()
    let localeIndex = locales.firstIndex(of: settings.locale) ?? -1
    items.append(
      SettingsItem(
        label: "Locale", value: settings.locale,
        next: .locale(locales[(localeIndex + 1) % locales.count])))
    let rates = TimeRate.ladder
    let rateIndex = rates.firstIndex(of: settings.timeRate) ?? -1
    items.append(
      SettingsItem(
        label: "Time rate", value: settings.timeRate.displayName,
        next: .timeRate(rates[(rateIndex + 1) % rates.count])))
    return items
  }
}

extension TimeRate {
  /// The rates `+` and `-` step through, slowest to fastest.
  static let ladder: [TimeRate] = [
    .realTime, .monthlyRenewalEveryHour, .monthlyRenewalEveryThirtyMinutes,
    .monthlyRenewalEveryFifteenMinutes, .monthlyRenewalEveryFiveMinutes,
    .oneRenewalEveryFifteenMinutes, .oneRenewalEveryFiveMinutes, .oneRenewalEveryMinute,
    .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryThirtySeconds, .oneRenewalEveryTenSeconds,
    .oneRenewalEveryTwoSeconds,
  ]
}
