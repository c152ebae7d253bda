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
  /// The session's settings in ``SettingDescriptor/all``'s order (an error line per API).
  static func items(_ session: SessionView) -> [SettingsItem] {
    SettingDescriptor.all.flatMap { items(for: $0, session) }
  }

  private static func items(
    for setting: SettingDescriptor, _ session: SessionView
  ) -> [SettingsItem] {
    let settings = session.settings
    func next<T: Equatable>(_ choices: [T], after current: T) -> T {
      choices[((choices.firstIndex(of: current) ?? -1) + 1) % choices.count]
    }
    switch setting.kind {
    case .flag:
      let on = settings.isOn(setting.id)
      return [
        SettingsItem(label: setting.label, value: on ? "on" : "off", next: .flag(setting.id, !on))
      ]
    case .failure:
      let failure = settings.failTransactionsEnabled ? settings.failureError : nil
      return [
        SettingsItem(
          label: setting.label, value: failure?.name ?? "off",
          next: .failTransactions(next([nil] + SKErrorCode.failureErrors, after: failure)))
      ]
    case .errors:
      return StoreKitAPI.allCases.map { api in
        let current = settings.simulatedErrors[api]
        return SettingsItem(
          label: "\(setting.label): \(api.configurationName)",
          value: current.map { "\($0)" } ?? "off",
          next: .simulatedError(
            api, next([nil] + SimulatedError.all.filter(api.accepts), after: current)))
      }
    case .storefront:
      let storefront = settings.storefront
      return [
        SettingsItem(
          label: setting.label,
          value: "\(storefront.countryCode) (\(storefront.currency), \(storefront.defaultLocale))",
          next: .storefront(next(Storefront.all, after: storefront)))
      ]
    case .locale:
      let locales = Set(session.catalog.products.flatMap(\.localizations).map(\.locale) + ["en_US"])
      return [
        SettingsItem(
          label: setting.label, value: settings.locale,
          next: .locale(next(locales.sorted(), after: settings.locale)))
      ]
    case .timeRate:
      return [
        SettingsItem(
          label: setting.label, value: settings.timeRate.displayName,
          next: .timeRate(next(TimeRate.ladder, after: settings.timeRate)))
      ]
    }
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
