/// A simulated StoreKit call or an external purchase notice refused.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum CallRefusal: Equatable, Sendable {
  /// `call purchase`/`call verification`, which buying exercises.
  case callExercisedByBuying(api: String)
  /// `call refund-request` without a transaction.
  case refundRequestNeedsTransaction
  /// An external purchase token created after now.
  case tokenCreatedInFuture(now: Instant)
  /// An external purchase token that expires before it was created.
  case tokenExpiresBeforeCreation(expires: Instant, created: Instant)
  /// An external purchase id that is not one word.
  case externalPurchaseIDNotOneWord(String)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .callExercisedByBuying(let api):
      "\(api) is exercised by buying: its simulated error applies to buy"
    case .refundRequestNeedsTransaction: "a refund request needs the transaction it is for"
    case .tokenCreatedInFuture(let now):
      "a token cannot be created after the session's now (\(now.iso8601))"
    case .tokenExpiresBeforeCreation(let expires, let created):
      "a token cannot expire (\(expires.iso8601)) before it was created (\(created.iso8601))"
    case .externalPurchaseIDNotOneWord(let id): "an external purchase id is one word, not \"\(id)\""
    }
  }
}
