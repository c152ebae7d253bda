/// A command a bare session (no history, no deliveries) cannot apply.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum BareSessionRefusal: Equatable, Sendable {
  /// `back`/`undo` applied to a bare session.
  case stepBackNeedsHistory
  /// `notify …` applied to a bare session.
  case notifyNeedsDelivery

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .stepBackNeedsHistory:
      "stepping back needs the session's history: use it in run, a script or the inspector"
    case .notifyNeedsDelivery:
      "notify and notify-fault act on the deliveries of storekeeper serve (or the inspector's "
        + "--serve), which keep every notification with its attempts; run and the inspector "
        + "alone POST each one with quick retries"
    }
  }
}
