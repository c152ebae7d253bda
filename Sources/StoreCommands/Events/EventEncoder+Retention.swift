import StoreJSON
import StoreSimulation

extension EventEncoder {
  /// `retentionSetup`, `retentionRequest` and `retentionMessage`.
  func retentionFields(_ event: RetentionEvent, _ object: inout ObjectBuilder) {
    switch event {
    case .changed(let action): setupFields(action, &object)
    case .request(let request, let exchange, let problem):
      object.field("event", "retentionRequest")
      object.field("requestIdentifier", exchange.requestID)
      if let url = request.url { object.field("url", url) }
      object.field("originalTransactionId", String(request.originalTransactionID))
      object.field("productId", request.productID)
      object.field("userLocale", request.userLocale)
      switch exchange.outcome {
      case .answered(let status, let body, _):
        object.field("status", Int64(status))
        object.field("answer", body)
      case .failed(let result, let reason):
        object.field("result", result)
        object.field("reason", reason)
      }
      if let problem { object.field("problem", problem) }
    case .shown(let display):
      object.field("event", "retentionMessage")
      object.field("source", display.source.rawValue)
      object.field("productID", display.productID)
      if let id = display.messageID { object.field("messageIdentifier", id) }
      if let product = display.alternateProduct { object.field("alternateProduct", product) }
      if let plan = display.alternatePlan { object.field("alternatePlan", plan) }
      if let offer = display.promotionalOffer {
        object.field("promotionalOffer", offer)
        if let product = display.offerProductID { object.field("offerProductID", product) }
      }
    }
  }

  private func setupFields(_ action: RetentionAction, _ object: inout ObjectBuilder) {
    object.field("event", "retentionSetup")
    object.field(named: "change", action.words.first ?? "")
    switch action {
    case .uploadImage(let id, let image, _):
      object.field("imageIdentifier", id)
      object.field("imageSize", image.size.rawValue)
      object.field("width", Int64(image.width))
      object.field("height", Int64(image.height))
    case .deleteImage(let id): object.field("imageIdentifier", id)
    case .uploadMessage(let id, let text):
      object.field("messageIdentifier", id)
      object.field("header", text.header)
    case .deleteMessage(let id): object.field("messageIdentifier", id)
    case .setDefault(let productID, let locale, let messageID):
      object.field("productId", productID)
      object.field("locale", locale)
      object.field("messageIdentifier", messageID)
    case .deleteDefault(let productID, let locale):
      object.field("productId", productID)
      object.field("locale", locale)
    case .setRealtimeURL(let url): if let url { object.field("realtimeURL", url) }
    case .review(let item, let id, let review):
      object.field(item == .image ? "imageIdentifier" : "messageIdentifier", id)
      object.field("state", review.rawValue)
    case .show, .accept: break
    }
  }
}
