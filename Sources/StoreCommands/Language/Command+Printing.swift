import StoreConfiguration
import StoreSimulation

extension Command: CustomStringConvertible {
  /// The command as a line of the language; parsing it gives this command back.
  public var description: String {
    let words = Verb.all.lazy.compactMap { $0.words(self) }.first ?? [verb]
    return words.map(Tokens.quote).joined(separator: " ")
  }
}

extension PurchaseOptions {
  /// The options of a `buy` line that differ from the defaults.
  var words: [String] {
    var words: [String] = []
    if quantity != 1 { words.append("quantity=\(quantity)") }
    if let seats { words.append("seats=\(seats)") }
    if let offer { words.append("offer=\(offer.commandText)") }
    if let appAccountToken { words.append("token=\(appAccountToken)") }
    if let purchaseDate { words.append("date=\(purchaseDate.iso8601)") }
    if renewal != .automatic { words.append("renew=\(renewal.rawValue)") }
    if origin != .app { words.append("from=\(origin.rawValue)") }
    switch offerSignature {
    case .v1(let key, let nonce, let timestamp, let signature)?:
      if !key.isEmpty { words.append("key=\(key)") }
      if !nonce.isEmpty { words.append("nonce=\(nonce)") }
      if timestamp != OfferSignature.missingTimestamp { words.append("timestamp=\(timestamp)") }
      if !signature.isEmpty { words.append("signature=\(signature)") }
    case .jws(let jws)?: words.append("jws=\(jws)")
    case nil: break
    }
    if let introductoryEligibility { words.append("intro-jws=\(introductoryEligibility)") }
    if let bundleID { words.append("bundle=\(bundleID)") }
    if let billingPlan { words.append("plan=\(billingPlan)") }
    if let advancedCommerce { words.append("advanced-commerce=\(advancedCommerce.jws)") }
    return words
  }
}

/// Thousandths of a percent as the shortest decimal: 50000 → `50`, 33333 → `33.333`.
public func percentageText(_ share: Int) -> String {
  let whole = share / 1000
  var fraction = String(share % 1000)
  guard fraction != "0" else { return String(whole) }
  fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
  while fraction.hasSuffix("0") { fraction.removeLast() }
  return "\(whole).\(fraction)"
}

extension SettingChange {
  /// The words after `set`.
  var words: [String] {
    func onOff(_ flag: Bool) -> String { flag ? "on" : "off" }
    switch self {
    case .flag(let id, let on): return [SettingDescriptor[id].command, onOff(on)]
    case .failTransactions(let code): return ["fail-transactions", code?.name ?? "off"]
    case .simulatedError(let api, let error):
      let name = Command.errorAPINames.first { $0.1 == api }?.0 ?? api.rawValue
      return ["error", name, error.map { "\($0.family).\($0.name)" } ?? "off"]
    case .timeRate(let rate): return ["time-rate", rate.name]
    case .storefront(let storefront): return ["storefront", storefront.countryCode]
    case .locale(let locale): return ["locale", locale]
    case .winBackEligible(let offerID, let flag): return ["winback-eligible", offerID, onOff(flag)]
    }
  }
}

extension OfferSelection {
  /// `intro`, `promo:<id>`, `code:<name>`, `winback:<id>`.
  public var commandText: String {
    switch self {
    case .introductory: "intro"
    case .promotional(let id): "promo:\(id)"
    case .code(let name): "code:\(name)"
    case .winBack(let id): "winback:\(id)"
    }
  }
}
