import StoreConfiguration
import StoreSimulation

extension Command: CustomStringConvertible {
  /// The command as a line of the language; parsing it gives this command back.
  public var description: String {
    words.map(Tokens.quote).joined(separator: " ")
  }

  private var words: [String] {
    switch self {
    case .stepBack(let kind): return [kind.rawValue]
    case .buy(let productID, let options):
      var words = ["buy", productID]
      if options.quantity != 1 { words.append("quantity=\(options.quantity)") }
      if let offer = options.offer { words.append("offer=\(offer.commandText)") }
      if let token = options.appAccountToken { words.append("token=\(token)") }
      if let date = options.purchaseDate { words.append("date=\(date.iso8601)") }
      if options.renewal != .automatic { words.append("renew=\(options.renewal.rawValue)") }
      if options.origin != .app { words.append("from=\(options.origin.rawValue)") }
      switch options.offerSignature {
      case .v1(let key, let nonce, let timestamp, let signature)?:
        if !key.isEmpty { words.append("key=\(key)") }
        if !nonce.isEmpty { words.append("nonce=\(nonce)") }
        if timestamp != OfferSignature.missingTimestamp { words.append("timestamp=\(timestamp)") }
        if !signature.isEmpty { words.append("signature=\(signature)") }
      case .jws(let jws)?: words.append("jws=\(jws)")
      case nil: break
      }
      if let jws = options.introductoryEligibility { words.append("intro-jws=\(jws)") }
      if let bundle = options.bundleID { words.append("bundle=\(bundle)") }
      return words
    case .approve(let reference): return ["approve", "\(reference)"]
    case .decline(let reference): return ["decline", "\(reference)"]
    case .resolve(let reference): return ["resolve", "\(reference)"]
    case .delete(let reference): return ["delete", "\(reference)"]
    case .refund(let reference, let reason, let share):
      return ["refund", "\(reference)"] + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
        + (share.map { ["percentage=\(percentageText($0))"] } ?? [])
    case .refundRequest(let reference, let reason):
      return ["refund-request", "\(reference)"] + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
    case .refundDecline(let reference): return ["refund-decline", "\(reference)"]
    case .refundReverse(let reference): return ["refund-reverse", "\(reference)"]
    case .extend(let reference, let days, let reason):
      return ["extend", "\(reference)", "days=\(days)"]
        + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
    case .extendAll(let productID, let days, let reason, let request, let storefronts):
      return ["extend-all", productID, "days=\(days)"]
        + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
        + (request.map { ["request=\($0)"] } ?? [])
        + (storefronts.isEmpty ? [] : ["storefronts=\(storefronts.joined(separator: ","))"])
    case .autoRenew(let reference, let enabled):
      return ["auto-renew", "\(reference)", enabled ? "on" : "off"]
    case .expire(let productID): return ["expire", productID]
    case .renew(let productID): return ["renew", productID]
    case .restore: return ["restore"]
    case .clear: return ["clear"]
    case .reset: return ["reset"]
    case .launch: return ["launch"]
    case .priceIncrease(let action, let reference, let price):
      return ["price-increase", action.rawValue, "\(reference)"]
        + (price.map { ["price=\(decimalText($0))"] } ?? [])
    case .finish(let reference): return ["finish", reference.map { "\($0)" } ?? "all"]
    case .advance(.next): return ["advance", "next"]
    case .advance(.by(let duration)): return ["advance", "\(duration)"]
    case .advance(.to(let instant)): return ["advance", instant.iso8601]
    case .set(let change): return ["set"] + change.words
    case .consumption(let reference, let fields):
      return ["consumption", "\(reference)"] + fields.map { "\($0.name)=\($0.value)" }
    case .notify(.retry): return ["notify", "retry"]
    case .refreshReceipt: return ["call", "receipt"]
    case .notify(.fault(let fault)): return ["set", "notify-fault"] + fault.words
    case .accountToken(let reference, let token):
      return ["account-token", "\(reference)", token ?? "none"]
    case .call(let api, let reference, let reason):
      let name = Command.callNames.first { $0.1 == api }?.0 ?? api.rawValue
      return ["call", name] + (reference.map { ["\($0)"] } ?? [])
        + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
    }
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
  fileprivate var words: [String] {
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
