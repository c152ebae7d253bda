/// A Get Retention Message answer (`RealtimeResponseBody`) as the edge read it from the
/// developer's JSON: which one of its three choices it made, with its values. Whether what it
/// names can be shown (an approved message, a subscription of the group, an offer that redeems
/// and whose signature verifies) is the engine's to judge.
public enum RealtimeAnswer: Equatable, Sendable {
  /// `message`: show this message (its `messageIdentifier`, lowercased).
  case message(messageID: String)
  /// `alternateProduct`: show the message and offer the switch to `productID`, on
  /// `billingPlanType` when the answer names one.
  case alternateProduct(messageID: String, productID: String, billingPlanType: String?)
  /// `promotionalOffer`: show the message and offer this signed promotional offer.
  case promotionalOffer(messageID: String, offer: RetentionOffer)

  /// The message it shows.
  public var messageID: String {
    switch self {
    case .message(let id), .alternateProduct(let id, _, _), .promotionalOffer(let id, _): id
    }
  }
}

/// The promotional offer a real-time answer signed: `promotionalOfferSignatureV2`'s claims, or
/// `promotionalOfferSignatureV1`'s fields.
public struct RetentionOffer: Equatable, Sendable {
  /// The product the offer is for.
  public var productID: String
  /// The offer's identifier.
  public var offerID: String
  /// The signature, as StoreKit verifies it.
  public var signature: OfferSignature
  /// The app account token the signature names (lowercased), if any.
  public var appAccountToken: String?

  /// A signed offer.
  public init(
    productID: String, offerID: String, signature: OfferSignature, appAccountToken: String?
  ) {
    self.productID = productID
    self.offerID = offerID
    self.signature = signature
    self.appAccountToken = appAccountToken
  }
}

/// What is wrong with a real-time answer: its shape (read at the edge) or what it names
/// (judged by the engine), for a person.
public struct RetentionAnswerProblem: Error, Equatable, Sendable {
  /// What is wrong.
  public var text: String

  /// A problem.
  public init(_ text: String) { self.text = text }
}
