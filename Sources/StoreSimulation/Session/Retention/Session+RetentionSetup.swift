import Foundation

/// A change to the retention setup the event stream reports (`retentionSetup`).
public enum RetentionEvent: Equatable, Sendable {
  /// The developer's setup or a review changed.
  case changed(RetentionAction)
  /// The subscription page asked the developer's endpoint; what was wrong with its answer, if
  /// anything was (the default is shown then).
  case request(RetentionRequest, RealtimeExchange, problem: String?)
  /// The subscription page showed a message (or none).
  case shown(RetentionDisplay)
}

extension Session {
  /// The Retention Messaging setup: images, messages, defaults, the real-time URL.
  public var retention: RetentionSetup {
    get { storage.retention }
    _modify {
      makeUnique()
      yield &storage.retention
    }
  }

  /// Applies a retention action, handing its events to `sink`.
  ///
  /// - Throws: ``SessionError`` with a ``Refusal/retention(_:)`` reason: Apple's error for the
  ///   API's actions, the customer side's for `show` and `accept`.
  mutating func performRetention(_ action: RetentionAction, _ sink: EventSink) throws(SessionError)
  {
    try checkRetention(action)
    switch action {
    case .show(let exchange): showRetentionPage(exchange, sink)
    case .accept: try acceptRetentionOffer(sink)
    default:
      applySetupChange(action)
      emit(.retention(.changed(action)), at: now.milliseconds, sink)
    }
    settle(sink)
  }

  private mutating func applySetupChange(_ action: RetentionAction) {
    switch action {
    case .uploadImage(let id, let image, _): retention.images[id] = image
    case .deleteImage(let id): retention.images.removeValue(forKey: id)
    case .uploadMessage(let id, let text): retention.messages[id] = RetentionMessage(text: text)
    case .deleteMessage(let id):
      retention.messages.removeValue(forKey: id)
      retention.defaults = retention.defaults.filter { $0.value != id }
    case .setDefault(let productID, let locale, let messageID):
      retention.defaults[RetentionSetup.defaultKey(productID: productID, locale: locale)] =
        messageID
    case .deleteDefault(let productID, let locale):
      retention.defaults.removeValue(
        forKey: RetentionSetup.defaultKey(productID: productID, locale: locale))
    case .setRealtimeURL(let url): retention.realtimeURL = url
    case .review(.image, let id, let review): retention.images[id]?.review = review
    case .review(.message, let id, let review): retention.messages[id]?.review = review
    case .show, .accept: break
    }
  }

  /// Throws Apple's error for an action the API would refuse.
  func checkRetention(_ action: RetentionAction) throws(SessionError) {
    func refuse(_ rule: RetentionRule, _ message: String) -> SessionError {
      SessionError(.retention(RetentionRefusal(rule, message)))
    }
    let setup = retention
    switch action {
    case .uploadImage(let id, let image, let transparent):
      guard setup.images[id] == nil else {
        throw refuse(
          .imageAlreadyExists, "an image \(id) was already uploaded (ImageAlreadyExistsError)")
      }
      guard setup.images.count < RetentionSetup.maximumImages else {
        throw refuse(.tooManyImages, "the app has \(RetentionSetup.maximumImages) images already")
      }
      if transparent {
        throw refuse(.invalidImage, "the image has transparency (InvalidImageError)")
      }
      if let problem = Self.sizeProblem(image) { throw refuse(.invalidImage, problem) }
    case .deleteImage(let id):
      guard setup.images[id] != nil else { throw refuse(.imageNotFound, "there is no image \(id)") }
      if let user = setup.message(using: id) {
        throw refuse(.imageInUse, "the image \(id) is used by message \(user) (ImageInUseError)")
      }
    case .uploadMessage(let id, let text):
      guard setup.messages[id] == nil else {
        throw refuse(
          .messageAlreadyExists, "a message \(id) was already uploaded (MessageAlreadyExistsError)")
      }
      guard setup.messages.count < RetentionSetup.maximumMessages else {
        throw refuse(
          .tooManyMessages, "the app has \(RetentionSetup.maximumMessages) messages already")
      }
      if let (rule, problem) = Self.textProblem(text, images: setup.images) {
        throw refuse(rule, problem)
      }
    case .deleteMessage(let id):
      guard setup.messages[id] != nil else {
        throw refuse(.messageNotFound, "there is no message \(id)")
      }
    case .setDefault(let productID, let locale, let messageID):
      try checkDefaultPlace(productID: productID, locale: locale)
      guard let message = setup.messages[messageID] else {
        throw refuse(.messageNotFound, "there is no message \(messageID)")
      }
      guard message.review == .approved else {
        throw refuse(
          .messageNotApproved,
          "the message \(messageID) is \(message.review.rawValue), not APPROVED")
      }
      for imageID in message.text.imageIDs where setup.images[imageID]?.review != .approved {
        throw refuse(.imageNotApproved, "the message's image \(imageID) is not APPROVED")
      }
    case .deleteDefault(let productID, let locale):
      try checkDefaultPlace(productID: productID, locale: locale)
    case .setRealtimeURL(let url?):
      if let problem = Self.realtimeURLProblem(url) { throw refuse(.realtimeURL, problem) }
    case .setRealtimeURL(nil): return
    case .review(let item, let id, _):
      let known = item == .image ? setup.images[id] != nil : setup.messages[id] != nil
      guard known else {
        throw refuse(
          item == .image ? .imageNotFound : .messageNotFound, "there is no \(item.rawValue) \(id)")
      }
    case .show: _ = try retentionRequest()
    case .accept: try checkRetentionAccept()
    }
  }

  private func checkDefaultPlace(productID: String, locale: String) throws(SessionError) {
    guard let index = catalog.index(of: productID), catalog.products[index].groupIndex != nil
    else {
      throw SessionError(
        .retention(
          RetentionRefusal(
            .invalidProduct, "\"\(productID)\" is not an auto-renewable subscription of the app")),
        suggestions: catalog.productIDs(closeTo: productID))
    }
    guard Self.isLocale(locale) else {
      throw SessionError(
        .retention(
          RetentionRefusal(
            .invalidLocale, "\"\(locale)\" is not a locale such as en-US (InvalidLocaleError)")))
    }
  }
}
