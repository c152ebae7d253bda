import Crypto
import Foundation

/// What the App Store keeps of the Advanced Commerce API, for every customer: each
/// subscription's renewal terms and consistency token by original transaction id (unique among
/// customers), and every `requestReferenceId` spent. The rules that read only these are here
/// (a reference id serves one request, a retry of a server request answers as the first, a
/// consistency token is the subscription's latest and each change makes a new one); those that
/// need a customer's subscription are the session's (Session+Commerce, Session+CommerceServer).
struct CommerceRecords: Sendable {
  /// Each Advanced Commerce subscription, by original transaction id; changed in place.
  var subscriptions: [UInt64: CommerceSubscription] = [:]
  /// Each request's `requestReferenceId` and what it asked.
  private var requests: [String: String] = [:]

  /// Whether there is no Advanced Commerce subscription (the engine's fast path).
  var isEmpty: Bool { subscriptions.isEmpty }

  /// The Advanced Commerce subscription of `original`, if it is one.
  subscript(original: UInt64) -> CommerceSubscription? { subscriptions[original] }

  /// What the subscription of `original` renews; the caller knows it is one.
  func renewal(of original: UInt64) -> CommerceTerms { subscriptions[original]!.renewal }

  // MARK: - Request reference ids

  /// Whether `asked` repeats the request that spent `reference`: Apple answers a retry as the
  /// first, changing nothing.
  func isRetry(_ reference: String, asking asked: String) -> Bool {
    requests[reference] == asked
  }

  /// Refuses a `requestReferenceId` spent by any request (an in-app one is never good again).
  func checkUnused(_ info: CommerceRequestInfo) throws(CommerceRefusal) {
    guard requests[info.requestReferenceID] != nil else { return }
    throw CommerceRefusal(
      .repeatedRequestReferenceID,
      "requestReferenceId \(info.requestReferenceID) was used by an earlier request")
  }

  /// Refuses a `requestReferenceId` spent by another request than `asked`.
  func checkFresh(_ info: CommerceRequestInfo, asking asked: String) throws(CommerceRefusal) {
    guard let earlier = requests[info.requestReferenceID], earlier != asked else { return }
    throw CommerceRefusal(
      .repeatedRequestReferenceID,
      "requestReferenceId \(info.requestReferenceID) was used by another request")
  }

  /// Spends a request's `requestReferenceId` on what it asked.
  mutating func spend(_ info: CommerceRequestInfo, asking asked: String) {
    requests[info.requestReferenceID] = asked
  }

  // MARK: - Consistency tokens

  /// Refuses a consistency token that is not the subscription's latest.
  func checkToken(_ info: CommerceRequestInfo, _ original: UInt64) throws(CommerceRefusal) {
    guard let token = info.consistencyToken, token != subscriptions[original]?.consistencyToken
    else { return }
    throw CommerceRefusal(
      .invalidConsistencyToken,
      "consistencyToken \(token.prefix(60)) is not subscription \(original)'s latest: read "
        + "advancedCommerceConsistencyToken from its renewal info")
  }

  /// Opens (or reopens) the subscription of `original` renewing `renewal`, with a new token.
  mutating func open(_ original: UInt64, renewing renewal: CommerceTerms) {
    let made = subscriptions[original]?.tokens ?? 0
    subscriptions[original] = CommerceSubscription(
      renewal: renewal, consistencyToken: "", tokens: made)
    renewToken(original)
  }

  /// The subscription of `original` is no longer an Advanced Commerce one.
  mutating func close(_ original: UInt64) { subscriptions[original] = nil }

  /// A new consistency token for the subscription of `original`: each change makes one,
  /// deterministically (the same after a replay).
  mutating func renewToken(_ original: UInt64) {
    guard var subscription = subscriptions[original] else { return }
    subscription.tokens += 1
    subscription.consistencyToken = Self.consistencyToken(original, subscription.tokens)
    subscriptions[original] = subscription
  }

  static func consistencyToken(_ original: UInt64, _ number: Int) -> String {
    let digest = SHA256.hash(data: Data("consistency-\(original)-\(number)".utf8))
    return Data(digest).base64EncodedString()
  }
}
