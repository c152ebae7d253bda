/// Judging a Get Retention Message answer the edge read (``RealtimeAnswer``) by Apple's rules:
/// an APPROVED message (and images); no image in a switch-plan or offer message; another
/// subscription of the same group; an offer that redeems, with a signature that verifies as
/// StoreKit verifies it.
extension Session {
  typealias Problem = RetentionAnswerProblem

  func page(
    answering answer: RealtimeAnswer, for request: RetentionRequest, bundleID: String?
  ) throws(RetentionAnswerProblem) -> RetentionPage {
    let textOnly = if case .message = answer { false } else { true }
    let messageID = try showableMessage(answer.messageID, textOnly: textOnly)
    var display = RetentionDisplay(
      source: .realtime, messageID: messageID, productID: request.productID)
    switch answer {
    case .alternateProduct(_, let productID, let plan):
      try checkSameGroup(productID, as: request.productID, switching: true)
      display.alternateProduct = productID
      var options = PurchaseOptions()
      options.origin = .store
      options.billingPlan = try alternatePlan(plan, of: productID)
      display.alternatePlan = options.billingPlan
      return RetentionPage(display: display, productID: productID, options: options)
    case .promotionalOffer(_, let signed):
      let options = try offer(signed, for: request, bundleID: bundleID)
      display.promotionalOffer = signed.offerID
      display.offerProductID = signed.productID
      return RetentionPage(display: display, productID: signed.productID, options: options)
    case .message:
      return RetentionPage(display: display)
    }
  }

  private func showableMessage(
    _ id: String, textOnly: Bool
  ) throws(RetentionAnswerProblem) -> String {
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
    _ plan: String?, of productID: String
  ) throws(RetentionAnswerProblem) -> String? {
    guard let plan else { return nil }
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
    _ offer: RetentionOffer, for request: RetentionRequest, bundleID: String?
  ) throws(RetentionAnswerProblem) -> PurchaseOptions {
    let (productID, offerID, signature, token) = (
      offer.productID, offer.offerID, offer.signature, offer.appAccountToken
    )
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
    return options
  }
}
