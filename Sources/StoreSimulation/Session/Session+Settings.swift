import StoreConfiguration

extension Session {
  /// Overrides settings for this session (`SKTestSession`'s properties). A new time rate applies
  /// to periods that start after the change.
  public mutating func updateSettings(_ change: (inout SessionSettings) -> Void) {
    change(&settings)
  }

  /// Reverts every override to the configuration file's settings (`resetToDefaultState`).
  public mutating func resetSettings() {
    settings = defaultSettings(configuration)
    winBackEligibility = [:]
  }

  /// Xcode's per-offer win-back eligibility toggle, while the session runs.
  ///
  /// - Throws: ``SessionError`` when no subscription has a win-back offer with that id.
  public mutating func setWinBackEligibility(_ offerID: String, eligible: Bool) throws(SessionError)
  {
    try check(.setWinBackEligibility(offerID: offerID, eligible: eligible))
    winBackEligibility[offerID] = eligible
  }

  /// Why `offerID` names no win-back offer, with the closest ones as suggestions.
  func checkWinBackOffer(_ offerID: String) throws(SessionError) {
    let known = catalog.products.flatMap(\.winBackOffers).compactMap(\.id)
    guard known.contains(offerID) else {
      throw SessionError(
        .noSuchWinBackOffer(offerID),
        suggestions: known.sorted { editDistance($0, offerID) < editDistance($1, offerID) }.prefix(
          3
        ).map { $0 })
    }
  }

  /// Replaces the configuration (the file changed on disk, or the TUI wrote it back). Products
  /// keep their identity by product ID; removed ones stay for their transactions but can no
  /// longer be bought. Settings the session did not override follow the new file.
  public mutating func reload(_ newConfiguration: StoreKitConfiguration) {
    let fileSettings = defaultSettings(configuration)
    let overridden = settings != fileSettings
    configuration = newConfiguration
    catalog = Catalog(newConfiguration, keepingIndicesOf: catalog)
    fitCustomersToCatalog()
    if !overridden { settings = defaultSettings(newConfiguration) }
  }

  /// Gives every customer a place for each product and group the catalog gained.
  mutating func fitCustomersToCatalog() {
    makeUnique()
    let (lasting, groupCount) = (catalog.lastingProducts, catalog.groups.count)
    storage.customers.updateEach { state in
      state.ledger.setLastingProducts(lasting)
      if state.groups.count < groupCount {
        state.groups += Array(repeating: GroupState(), count: groupCount - state.groups.count)
      }
    }
  }

  /// The settings a configuration's file gives, with the session's own switches at the
  /// defaults its fidelity choices set.
  func defaultSettings(_ configuration: StoreKitConfiguration) -> SessionSettings {
    var settings = SessionSettings(configuration.settings)
    settings.refundReviewEnabled = options.fidelity.refundSheetOutcome == .request
    return settings
  }
}
