import Foundation
import StoreJSON
import StoreSimulation

extension RealtimeAnswer {
  /// Reads a Get Retention Message answer's body (`RealtimeResponseBody`) by Apple's shape:
  /// a JSON object with exactly one of `message`, `alternateProduct`, `promotionalOffer`, each
  /// with a `messageIdentifier` UUID; the product a switch names; a promotional offer's
  /// `promotionalOfferSignatureV2` JWS claims or `promotionalOfferSignatureV1` fields. What is
  /// wrong with its shape, when it is.
  public static func read(_ body: String) -> Result<RealtimeAnswer, RetentionAnswerProblem> {
    Result { () throws(RetentionAnswerProblem) in try AnswerReader.answer(body) }
  }
}

extension RealtimeExchange.Outcome {
  /// An HTTP answer, its body read at the edge (``RealtimeAnswer/read(_:)``).
  public static func answered(status: Int, body: String) -> Self {
    .answered(status: status, body: body, reading: RealtimeAnswer.read(body))
  }
}

/// The JSON of a real-time answer, read into ``RealtimeAnswer``.
private enum AnswerReader {
  typealias Problem = RetentionAnswerProblem

  static func answer(_ body: String) throws(Problem) -> RealtimeAnswer {
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
    guard case .string(let raw)? = choice["messageIdentifier"], UUID(uuidString: raw) != nil
    else { throw Problem("messageIdentifier is missing or not a UUID") }
    let messageID = raw.lowercased()
    switch given[0] {
    case "alternateProduct":
      return .alternateProduct(
        messageID: messageID, productID: try string(choice, "productId", in: "alternateProduct"),
        billingPlanType: try plan(choice))
    case "promotionalOffer":
      return .promotionalOffer(messageID: messageID, offer: try signedOffer(choice))
    default:
      return .message(messageID: messageID)
    }
  }

  private static func string(
    _ object: JSONObject, _ key: String, in place: String
  ) throws(Problem) -> String {
    guard case .string(let value)? = object[key], !value.isEmpty else {
      throw Problem("\(place).\(key) is missing or not a string")
    }
    return value
  }

  /// A switch-plan answer's `billingPlanType` (Retention Messaging 1.5): `BILLED_UPFRONT` or
  /// `MONTHLY`; `nil` when the answer names none.
  private static func plan(_ choice: JSONObject) throws(Problem) -> String? {
    guard let value = choice["billingPlanType"] else { return nil }
    guard case .string(let plan) = value, ["BILLED_UPFRONT", "MONTHLY"].contains(plan) else {
      throw Problem("alternateProduct.billingPlanType is BILLED_UPFRONT or MONTHLY")
    }
    return plan
  }

  private static func signedOffer(_ choice: JSONObject) throws(Problem) -> RetentionOffer {
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
      return RetentionOffer(
        productID: productID, offerID: offerID, signature: .jws(compact),
        appAccountToken: token?.lowercased())
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
    return RetentionOffer(
      productID: try string(v1, "productId", in: place),
      offerID: try string(v1, "offerIdentifier", in: place), signature: signature,
      appAccountToken: token?.lowercased())
  }
}
