import Foundation
import StoreConfiguration
import StoreSimulation

/// The readers of the verbs with a grammar of their own: a purchase's options, an offer, a
/// setting and its value.
extension CommandWords {
  mutating func buy() throws(CommandError) -> Command {
    let productID = try word("a product ID")
    let given = try options()
    var options = PurchaseOptions()
    if let text = given["quantity"] {
      guard let quantity = Int(text), (1...PurchaseOptions.maximumQuantity).contains(quantity)
      else {
        throw CommandError(
          "quantity must be a whole number from 1 to \(PurchaseOptions.maximumQuantity), "
            + "not \"\(text)\"")
      }
      options.quantity = quantity
    }
    if let text = given["seats"] {
      guard let seats = Int(text) else {
        throw CommandError(
          "seats must be a whole number (the total after the purchase), not \"\(text)\"")
      }
      options.seats = seats
    }
    if let text = given["offer"] { options.offer = try offer(text) }
    if let token = given["token"] {
      guard isUUID(token) else { throw CommandError("token must be a UUID, not \"\(token)\"") }
      options.appAccountToken = token.lowercased()
    }
    if let text = given["date"] { options.purchaseDate = try Self.instant("date", text) }
    if let text = given["renew"] {
      guard let renewal = RenewalBehavior(rawValue: text) else {
        throw CommandError("renew must be auto or once, not \"\(text)\"")
      }
      options.renewal = renewal
    }
    if let text = given["from"] {
      guard let origin = PurchaseOrigin(rawValue: text) else {
        throw CommandError("from must be app or store, not \"\(text)\"")
      }
      options.origin = origin
    }
    try signatures(given, into: &options)
    options.advancedCommerce = try given["advanced-commerce"].map(Self.signedRequest).map {
      SignedCommerceRequest(compactJWS: $0)
    }
    return .buy(productID: productID, options: options)
  }

  /// An Advanced Commerce request's compact JWS, or the one a file holds (`@path`): the line
  /// keeps the JWS, so a journal replays without the file.
  static func signedRequest(_ text: String) throws(CommandError) -> String {
    guard text.hasPrefix("@") else { return text }
    let path = String(text.dropFirst())
    guard let data = FileManager.default.contents(atPath: path),
      let contents = String(data: data, encoding: .utf8)
    else { throw CommandError("advanced-commerce=@\(path): cannot read \(path)") }
    let jws = contents.trimmingCharacters(in: .whitespacesAndNewlines)
    guard !jws.isEmpty, !jws.contains(where: \.isWhitespace) else {
      throw CommandError("advanced-commerce=@\(path): \(path) holds no compact JWS")
    }
    return jws
  }

  /// A promotional offer's signature (`key= nonce= timestamp= signature=`, or `jws=`), an
  /// introductory-offer eligibility JWS (`intro-jws=`) and the bundle id they are for. A
  /// signature missing a part is StoreKit's `missingOfferParameters`, not a command error.
  func signatures(
    _ given: [String: String], into options: inout PurchaseOptions
  )
    throws(CommandError)
  {
    let parts = Verb.signatureParts
    if let jws = given["jws"] {
      guard parts.allSatisfy({ given[$0] == nil }) else {
        throw CommandError("give jws= or key=, nonce=, timestamp= and signature=, not both")
      }
      options.offerSignature = .jws(jws)
    } else if parts.contains(where: { given[$0] != nil }) {
      var timestamp = OfferSignature.missingTimestamp
      if let text = given["timestamp"] {
        guard let value = Int64(text), value >= 0 else {
          throw CommandError("timestamp must be milliseconds since 1970, not \"\(text)\"")
        }
        timestamp = value
      }
      options.offerSignature = .v1(
        keyID: given["key"] ?? "", nonce: given["nonce"] ?? "", timestamp: timestamp,
        signature: given["signature"] ?? "")
    }
    if options.offerSignature != nil {
      guard case .promotional? = options.offer else {
        throw CommandError("a signature is for a promotional offer: add offer=promo:<offerID>")
      }
    }
    options.introductoryEligibility = given["intro-jws"]
    if let bundle = given["bundle"] {
      guard !bundle.isEmpty, bundle.allSatisfy({ $0.isLetter || $0.isNumber || "-.".contains($0) })
      else { throw CommandError("bundle must be a bundle id such as com.example.app") }
      options.bundleID = bundle
    }
    if let plan = given["plan"] {
      guard BillingPlanType(rawValue: plan) != nil else {
        throw CommandError(
          "plan is a billing plan as the configuration writes it: MONTHLY or BILLED_UPFRONT, "
            + "not \"\(plan)\"")
      }
      options.billingPlan = plan
    }
  }

  func offer(_ text: String) throws(CommandError) -> OfferSelection {
    if text == "intro" { return .introductory }
    let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
    if parts.count == 2 && !parts[1].isEmpty {
      switch parts[0] {
      case "promo": return .promotional(parts[1])
      case "code": return .code(parts[1])
      case "winback": return .winBack(parts[1])
      default: break
      }
    }
    throw CommandError(
      "offer must be intro, promo:<offerID>, code:<referenceName> or winback:<offerID>, not \"\(text)\""
    )
  }

  mutating func setting() throws(CommandError) -> SettingChange {
    let names = SettingChange.names
    let name = try word("a setting: \(names.joined(separator: ", "))")
    if let setting = SettingDescriptor.named(name), setting.kind == .flag {
      return .flag(setting.id, try onOff())
    }
    switch name {
    case "fail-transactions":
      let text = try word("off or an SKError code name")
      if text == "off" { return .failTransactions(nil) }
      guard let code = SKErrorCode(name: text) else {
        throw CommandError(
          "\"\(text)\" is not an SKError code; fail-transactions accepts "
            + SKErrorCode.failureErrors.map(\.name).joined(separator: ", "),
          suggestions: SKErrorCode.allCases.map(\.name).filter { closeEnough($0, text) })
      }
      return .failTransactions(code)
    case "error":
      let api = try choice(
        Command.errorAPINames, Command.errorAPINames.map(\.0).joined(separator: ", "))
      let text = try word("off or an error name")
      if text == "off" { return .simulatedError(api, nil) }
      guard let error = SimulatedError(name: text), api.accepts(error) else {
        let accepted = SimulatedError.all.filter(api.accepts).map(\.name)
        throw CommandError(
          "\"\(text)\" is not an error the \(api.rawValue) API can fail with",
          suggestions: accepted.filter { closeEnough($0, text) })
      }
      return .simulatedError(api, error)
    case "time-rate":
      let text = try word("a time rate name or raw value")
      guard let rate = TimeRate(name: text) else {
        throw CommandError(
          "\"\(text)\" is not a time rate",
          suggestions: TimeRate.allCases.map(\.name).filter { closeEnough($0, text) })
      }
      return .timeRate(rate)
    case "storefront":
      let text = try word("an ISO 3166-1 alpha-3 code such as USA")
      guard let storefront = Storefront(countryCode: text) else {
        throw CommandError(
          "\"\(text)\" is not a known storefront",
          suggestions: Storefront.knownCountryCodes.filter { closeEnough($0, text.uppercased()) })
      }
      return .storefront(storefront)
    case "locale": return .locale(try word("a locale such as en_US or ja"))
    case "winback-eligible":
      let offerID = try word("a win-back offer ID")
      return .winBackEligible(offerID, try onOff())
    default:
      throw CommandError(
        "unknown setting \"\(name)\"; the settings are \(names.joined(separator: ", "))",
        suggestions: names.filter { closeEnough($0, name) })
    }
  }
}

extension CommandWords {
  /// `seats <txn> N`.
  mutating func seatsChange() throws(CommandError) -> Command {
    let reference = try transaction()
    let text = try word("the number of seats")
    guard let total = Int(text) else {
      throw CommandError("seats takes the new total as a whole number, not \"\(text)\"")
    }
    return .seats(.change(reference, total: total))
  }

  /// `set seat-pricing <productID> on|off|<seats>:<price>… [*:<price>]`.
  mutating func seatPricing() throws(CommandError) -> SeatCommand {
    let productID = try word("a subscription's product ID")
    let first = try word("on, off, or tiers such as 5:9.99 10:7.99 *:5.99")
    if first == "on" { return .pricing(productID: productID, nil) }
    if first == "off" { return .pricing(productID: productID, .disabled) }
    var texts = [first]
    while peek != nil { texts.append(try word("a tier")) }
    var tiers: [SeatTier] = []
    for text in texts {
      let parts = text.split(separator: ":", omittingEmptySubsequences: false)
      guard parts.count == 2, let price = Price(String(parts[1])).milliunits,
        parts[0] == "*" || Int(parts[0]).map({ $0 >= 1 }) == true
      else {
        throw CommandError(
          "a seat tier is <last seat>:<price> or *:<price> (5:9.99 10:7.99 *:5.99), not \"\(text)\""
        )
      }
      tiers.append(SeatTier(maximumSeats: Int(parts[0]), price: price))
    }
    return .pricing(productID: productID, .tiers(tiers))
  }

  /// `seat-claim <txn> request=<uuid> [app-transaction=<id>]`.
  mutating func seatClaim() throws(CommandError) -> Command {
    let reference = try transaction()
    let given = try options()
    guard let request = given["request"], isUUID(request) else {
      throw CommandError("seat-claim needs request=<uuid> (Claim Seat's requestIdentifier)")
    }
    return .seats(
      .claim(reference, request: request.lowercased(), appTransactionID: given["app-transaction"]))
  }
}

extension SettingChange {
  /// The settings `set` names: the session's switches (``SettingDescriptor``) and Xcode's
  /// per-offer win-back toggle.
  static var names: [String] {
    SettingDescriptor.all.map(\.command) + ["winback-eligible", "invitations", "seat-pricing"]
  }
}

extension CommandWords {
  /// An option's ISO-8601 date (`date=`, `creation=`).
  static func instant(_ option: String, _ text: String) throws(CommandError) -> Instant {
    guard let instant = Instant(iso8601: text) else {
      throw CommandError(
        "\(option) must be ISO-8601 such as 2026-11-22T02:00:00Z, not \"\(text)\"")
    }
    return instant
  }
}
