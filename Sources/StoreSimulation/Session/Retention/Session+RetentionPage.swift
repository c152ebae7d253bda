import Foundation

/// What the subscription page offered a customer last: what it showed, and the purchase
/// `retention accept` makes of it (none for a text message).
public struct RetentionPage: Equatable, Sendable {
  /// What the page showed.
  public var display: RetentionDisplay
  /// The product bought on accepting, and how.
  public var productID: String?
  /// The options of that purchase (the offer and its signature, from the App Store).
  public var options: PurchaseOptions?
}

extension Session {
  /// What the subscription page last offered the addressed customer, if it offered anything.
  public var retentionPage: RetentionPage? {
    get { storage.customers.addressedState.retentionPage }
    set {
      makeUnique()
      storage.customers.addressedState.retentionPage = newValue
    }
  }

  /// What the addressed customer's subscription page asks the developer's endpoint: their active
  /// auto-renewable subscription whose auto-renew is on (the page offers to cancel it).
  ///
  /// - Throws: ``SessionError`` when there is no such subscription, naming why.
  public func retentionRequest() throws(SessionError) -> RetentionRequest {
    let active = groups.indices.filter { groups[$0].isActive && groups[$0].product >= 0 }
    guard let index = active.first(where: { groups[$0].willAutoRenew }) else {
      var why = "the customer has no active auto-renewable subscription"
      if let off = active.first {
        let productID = product(at: groups[off].product).productID
        why = "auto-renew of \(productID) is already off: the page has nothing to cancel"
      }
      throw SessionError(.retention(RetentionRefusal(.customer, why)))
    }
    return RetentionRequest(
      originalTransactionID: groups[index].originalID,
      productID: product(at: groups[index].product).productID, userLocale: appleLocale,
      url: retention.realtimeURL)
  }

  func checkRetentionAccept() throws(SessionError) {
    guard let page = retentionPage, let productID = page.productID, let options = page.options
    else {
      throw SessionError(
        .retention(
          RetentionRefusal(
            .customer,
            "nothing is offered (retention show first; a text message offers "
              + "nothing to accept)")))
    }
    try checkPurchase(productID, options)
  }

  mutating func showRetentionPage(_ exchange: RealtimeExchange?, _ sink: EventSink) {
    guard let request = try? retentionRequest() else { return }
    var chosen: RetentionPage?
    var problem: String?
    if let exchange {
      let judged = judge(exchange, for: request)
      emit(
        .retention(.request(request, exchange, problem: judged.problem)), at: now.milliseconds,
        sink)
      chosen = judged.page
      problem = judged.problem
    }
    var page = chosen ?? defaultPage(for: request)
    page.display.originalTransactionID = request.originalTransactionID
    page.display.fallbackReason = chosen == nil ? problem : nil
    retentionPage = page
    emit(.retention(.shown(page.display)), at: now.milliseconds, sink)
  }

  private func defaultPage(for request: RetentionRequest) -> RetentionPage {
    let id = retention.defaultMessage(productID: request.productID, locale: request.userLocale)
    guard let id, retention.isShowable(id) else {
      return RetentionPage(display: RetentionDisplay(source: .none, productID: request.productID))
    }
    return RetentionPage(
      display: RetentionDisplay(source: .default, messageID: id, productID: request.productID))
  }

  mutating func acceptRetentionOffer(_ sink: EventSink) throws(SessionError) {
    guard let page = retentionPage, let productID = page.productID, let options = page.options
    else { return }
    retentionPage = nil
    try buy(productID, options, sink)
  }

  /// What an answer comes to: the page it chose, or what was wrong with it.
  func judge(
    _ exchange: RealtimeExchange, for request: RetentionRequest
  )
    -> (page: RetentionPage?, problem: String?)
  {
    switch exchange.outcome {
    case .failed(let result, let reason): return (nil, "no answer: \(reason) (\(result))")
    case .answered(let status, _, _) where !(200...299).contains(status):
      return (nil, "the endpoint answered HTTP \(status)")
    case .answered(_, _, .failure(let problem)): return (nil, problem.text)
    case .answered(_, _, .success(let answer)):
      do throws(RetentionAnswerProblem) {
        return (try page(answering: answer, for: request, bundleID: exchange.bundleID), nil)
      } catch {
        return (nil, error.text)
      }
    }
  }
}
