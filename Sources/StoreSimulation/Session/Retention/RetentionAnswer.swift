import Foundation
import StoreJSON

/// Reading a Get Retention Message answer (`RealtimeResponseBody`) by Apple's rules: exactly
/// one of `message`, `alternateProduct`, `promotionalOffer`; an APPROVED message (and images);
/// no image in a switch-plan or offer message; another subscription of the same group; an
/// offer signature that verifies as StoreKit verifies it.
extension Session {
  typealias Problem = RetentionAnswerProblem

  func page(
    answering body: String, for request: RetentionRequest, bundleID: String?
  )
    throws(RetentionAnswerProblem) -> RetentionPage
  {
    guard case .object(let answer)? = try? JSONParser.parse(Array(body.utf8)).root else {
      throw Problem("the answer is not a JSON object")
    }
    let choices = ["message", "alternateProduct", "promotionalOffer"]
    let given = answer.keys.filter(choices.contains)
    guard given.count == 1, case .object(let choice)? = answer[given[0]] else {
      throw Problem(
        "the answer must hold exactly one of message, alternateProduct, promotionalOffer "
          + "(an object); it holds \(answer.keys.isEmpty ? "nothing" : answer.keys.joined(separator: ", "))"
      )
    }
    let messageID = try showableMessage(choice, textOnly: given[0] != "message")
    var display = RetentionDisplay(
      source: .realtime, messageID: messageID, productID: request.productID)
    switch given[0] {
    case "alternateProduct":
      let productID = try string(choice, "productId", in: "alternateProduct")
      try checkSameGroup(productID, as: request.productID, switching: true)
      display.alternateProduct = productID
      var options = PurchaseOptions()
      options.origin = .store
      options.billingPlan = try alternatePlan(choice, of: productID)
      display.alternatePlan = options.billingPlan
      return RetentionPage(display: display, productID: productID, options: options)
    case "promotionalOffer":
      let (productID, options) = try offer(choice, for: request, bundleID: bundleID)
      display.promotionalOffer = options.offer.flatMap {
        if case .promotional(let id) = $0 { id } else { nil }
      }
      display.offerProductID = productID
      return RetentionPage(display: display, productID: productID, options: options)
    default:
      return RetentionPage(display: display)
    }
  }

  private func string(
    _ object: JSONObject, _ key: String, in place: String
  )
    throws(RetentionAnswerProblem) -> String
  {
    guard case .string(let value)? = object[key], !value.isEmpty else {
      throw Problem("\(place).\(key) is missing or not a string")
    }
    return value
  }

  private func showableMessage(
    _ choice: JSONObject, textOnly: Bool
  )
    throws(RetentionAnswerProblem) -> String
  {
    guard case .string(let raw)? = choice["messageIdentifier"], UUID(uuidString: raw) != nil
    else { throw Problem("messageIdentifier is missing or not a UUID") }
    let id = raw.lowercased()
    guard let message = retention.messages[id] else { throw Problem("there is no message \(id)") }
    guard message.review == .approved else {
      throw Problem("the message \(id) is \(message.review.rawValue), not APPROVED")
    }
    guard retention.isShowable(id) else {
      throw Problem("the message \(id)'s image is not APPROVED")
    }
    if textOnly && message.text.hasImages {
      throw Problem(
        "the message \(id) has an image or bullet points: a switch-plan or promotional-offer "
          + "message must not")
    }
    return id
  }

  private func checkSameGroup(
    _ productID: String, as current: String, switching: Bool
  )
    throws(RetentionAnswerProblem)
  {
    guard let index = catalog.index(of: productID), let group = catalog.products[index].groupIndex
    else { throw Problem("\(productID) is not an auto-renewable subscription of the app") }
    let currentGroup = catalog.index(of: current).flatMap { catalog.products[$0].groupIndex }
    guard group == currentGroup else {
      throw Problem("\(productID) is not in the subscription group of \(current)")
    }
    if switching && productID == current {
      throw Problem("\(productID) is the product the customer already has: nothing to switch to")
    }
  }

  /// A switch-plan answer's `billingPlanType` (Retention Messaging 1.5): `BILLED_UPFRONT` or
  /// `MONTHLY`, a plan the product has and the customer's storefront offers; `nil` when the
  /// answer names none (the product's own price).
  private func alternatePlan(
    _ choice: JSONObject, of productID: String
  ) throws(RetentionAnswerProblem) -> String? {
    guard let value = choice["billingPlanType"] else { return nil }
    guard case .string(let plan) = value, ["BILLED_UPFRONT", "MONTHLY"].contains(plan) else {
      throw Problem("alternateProduct.billingPlanType is BILLED_UPFRONT or MONTHLY")
    }
    guard let index = catalog.index(of: productID) else { return plan }
    let product = catalog.products[index]
    // A product without billing plans is paid up front: BILLED_UPFRONT names its own price.
    if product.billingPlans.isEmpty && plan == "BILLED_UPFRONT" { return nil }
    do throws(SessionError) {
      try checkBillingPlan(plan, of: product, PurchaseOptions())
    } catch {
      throw Problem("alternateProduct.billingPlanType: \(error.message)")
    }
    return plan
  }

  private func offer(
    _ choice: JSONObject, for request: RetentionRequest, bundleID: String?
  )
    throws(RetentionAnswerProblem) -> (String, PurchaseOptions)
  {
    let (productID, offerID, signature, token) = try signedOffer(choice)
    try checkSameGroup(productID, as: request.productID, switching: false)
    var options = PurchaseOptions(offer: .promotional(offerID), appAccountToken: token)
    options.origin = .store
    options.offerSignature = signature
    options.bundleID = bundleID
    do throws(SessionError) {
      try checkPurchase(productID, options)
    } catch {
      throw Problem("the offer cannot be redeemed: \(error.message)")
    }
    let check = OfferSignatureCheck(
      keyPair: configuration.subscriptionOffersKeyPair,
      bundleID: bundleID ?? PurchaseOptions.defaultBundleID, now: now)
    do throws(OfferSignatureRefusal) {
      _ = try check.checkPromotional(
        signature, productID: productID, offerID: offerID, appAccountToken: token,
        spent: serverRecords.spentOfferNonces)
    } catch {
      throw Problem("the promotional offer's signature is refused: \(error.description)")
    }
    return (productID, options)
  }

  private func signedOffer(
    _ choice: JSONObject
  ) throws(RetentionAnswerProblem) -> (
    String, String, OfferSignature, String?
  ) {
    if case .string(let compact)? = choice["promotionalOfferSignatureV2"] {
      let parts = compact.split(separator: ".", omittingEmptySubsequences: false)
      guard parts.count == 3, let bytes = Base64URL.decode(parts[1]),
        case .object(let claims)? = try? JSONParser.parse(bytes).root,
        case .string(let productID)? = claims["productId"],
        case .string(let offerID)? = claims["offerIdentifier"]
      else {
        throw Problem("promotionalOfferSignatureV2 is not a JWS with productId and offerIdentifier")
      }
      let token: String? =
        if case .string(let value)? = claims["appAccountToken"] { value } else { nil }
      return (productID, offerID, .jws(compact), token?.lowercased())
    }
    guard case .object(let v1)? = choice["promotionalOfferSignatureV1"] else {
      throw Problem(
        "promotionalOffer needs promotionalOfferSignatureV2 or promotionalOfferSignatureV1")
    }
    let place = "promotionalOfferSignatureV1"
    guard case .number(let stamp)? = v1["timestamp"], let timestamp = Int64(stamp.text) else {
      throw Problem("\(place).timestamp is missing or not a whole number")
    }
    let signature = OfferSignature.v1(
      keyID: try string(v1, "keyId", in: place), nonce: try string(v1, "nonce", in: place),
      timestamp: timestamp, signature: try string(v1, "encodedSignature", in: place))
    let token: String? = if case .string(let value)? = v1["appAccountToken"] { value } else { nil }
    return (
      try string(v1, "productId", in: place), try string(v1, "offerIdentifier", in: place),
      signature, token?.lowercased()
    )
  }
}
