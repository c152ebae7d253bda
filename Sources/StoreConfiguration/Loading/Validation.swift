import StoreJSON

extension StoreKitConfiguration {
  /// Checks that need the whole file: unique ids across sections, and whether the declared
  /// version agrees with the keys present.
  func validateAcrossSections(log: inout DiagnosticLog) {
    var firstUse: [String: JSONPath] = [:]
    func claim(_ productID: String, at path: JSONPath) {
      if let earlier = firstUse[productID] {
        log.error(
          path.appending("productID"),
          "the product ID \"\(productID)\" is already used at \(earlier)")
      } else {
        firstUse[productID] = path
      }
    }
    let root = JSONPath.root
    for (index, product) in (products ?? []).enumerated() {
      claim(product.productID, at: root.appending("products").appending(index: index))
    }
    for (index, product) in (nonRenewingSubscriptions ?? []).enumerated() {
      claim(
        product.productID, at: root.appending("nonRenewingSubscriptions").appending(index: index))
    }
    var groupIDs: [String: Int] = [:]
    for (groupIndex, group) in (subscriptionGroups ?? []).enumerated() {
      let groupPath = root.appending("subscriptionGroups").appending(index: groupIndex)
      if let earlier = groupIDs[group.id] {
        log.warning(
          groupPath.appending("id"),
          "the group id \"\(group.id)\" is also used by subscriptionGroups[\(earlier)]; "
            + "StoreKit treats their subscriptions as one group")
      } else {
        groupIDs[group.id] = groupIndex
      }
      for (index, subscription) in group.subscriptions.enumerated() {
        claim(
          subscription.product.productID,
          at: groupPath.appending("subscriptions").appending(index: index))
      }
    }
    checkVersionAgainstKeys(log: &log)
  }

  /// The newest format any key present needs, with where it was found.
  func newestFeature() -> (version: FormatVersion, what: String)? {
    var newest: (version: FormatVersion, what: String)?
    func note(_ major: Int, _ minor: Int, _ what: String) {
      let version = FormatVersion(major, minor)
      if newest.map({ version > $0.version }) ?? true { newest = (version, what) }
    }
    if let settings {
      if settings.storeKitErrors != nil { note(3, 0, "settings._storeKitErrors") }
      if settings.compatibilityTimeRate != nil { note(2, 0, "settings._compatibilityTimeRate") }
      if settings.billingGracePeriodEnabled != nil {
        note(2, 0, "settings._billingGracePeriodEnabled")
      }
      if settings.lastSynchronizedDate != nil { note(2, 0, "settings._lastSynchronizedDate") }
      if settings.disableDialogs != nil { note(4, 0, "settings._disableDialogs") }
    }
    if appPolicies != nil { note(4, 0, "appPolicies") }
    for (groupIndex, group) in (subscriptionGroups ?? []).enumerated() {
      for (index, subscription) in group.subscriptions.enumerated() {
        let place = "subscriptionGroups[\(groupIndex)].subscriptions[\(index)]"
        if subscription.codeOffers != nil { note(1, 2, "\(place).codeOffers") }
        if subscription.winbackOffers != nil { note(4, 0, "\(place).winbackOffers") }
        if subscription.introductoryOffer == .absent {
          note(4, 0, "\(place) without introductoryOffer")
        }
        if subscription.introductoryOffers != nil { note(5, 0, "\(place).introductoryOffers") }
        if subscription.billingPlans != nil { note(5, 0, "\(place).billingPlans") }
      }
    }
    return newest
  }

  private func checkVersionAgainstKeys(log: inout DiagnosticLog) {
    guard let version, let newest = newestFeature(), newest.version > version else { return }
    log.warning(
      JSONPath.root.appending("version"),
      "the file declares format \(version) but \(newest.what) first appears in format "
        + "\(newest.version); keys decide how it is read")
  }
}
