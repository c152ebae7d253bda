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

extension App {
  /// The session's switches, as the settings panel lists them.
  var settingsItems: [SettingsItem] {
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
        next: .storefront(storefronts[(storefrontIndex + 1) % storefronts.count])))
    var locales = session.catalog.products.flatMap(\.localizations).map(\.locale)
    locales = Array(Set(locales + ["en_US"])).sorted()
    let localeIndex = locales.firstIndex(of: settings.locale) ?? -1
    items.append(
      SettingsItem(
        label: "Locale", value: settings.locale,
        next: .locale(locales[(localeIndex + 1) % locales.count])))
    let rates = Self.rateLadder
    let rateIndex = rates.firstIndex(of: settings.timeRate) ?? -1
    items.append(
      SettingsItem(
        label: "Time rate", value: settings.timeRate.displayName,
        next: .timeRate(rates[(rateIndex + 1) % rates.count])))
    return items
  }

  mutating func handleSettings(_ selected: Int, _ key: Key) {
    let items = settingsItems
    switch key {
    case .escape, .character("s"), .character("q"):
      overlay = nil
    case .up, .character("k"):
      overlay = .settings(max(0, selected - 1))
    case .down, .character("j"):
      overlay = .settings(min(items.count - 1, selected + 1))
    case .enter, .character(" "):
      if let change = items[selected].next, perform(.set(change)) {
        rebuildProducts()
        message = ("\(items[selected].label): \(settingsItems[selected].value)", false)
      }
    case .character("w"):
      writeSettingsToFile()
    default: break
    }
  }

  /// Writes the session's switches into the `.storekit` file in Xcode's formatting, as Xcode's
  /// Editor menu does, and journals the new configuration.
  mutating func writeSettingsToFile() {
    var configuration = session.configuration
    configuration.settings = session.settings.applied(to: configuration.settings)
    let bytes = configuration.xcodeFormattedBytes()
    do {
      try AtomicFile.write(bytes, to: configurationPath)
    } catch {
      message = ("cannot write \(configurationPath): \(error)", true)
      return
    }
    configurationBytes = bytes
    journaled.reload(configuration, bytes: bytes)
    do throws(CommandError) {
      try journaled.commit()
    } catch {
      message = (error.explanation, true)
      return
    }
    message = ("settings written to \(configurationPath)", false)
  }
}
