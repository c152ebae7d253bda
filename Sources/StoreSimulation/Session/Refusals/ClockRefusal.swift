/// A move of the clock refused.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum ClockRefusal: Equatable, Sendable {
  /// A move of the clock backwards.
  case clockBackwards(now: Instant, target: Instant)
  /// A move past the latest instant a session reaches.
  case clockBeyondLatest(target: Instant)
  /// A move that would cause more than `budget` events.
  case tooManyEvents(budget: Int, transitions: Int)
  /// `advance next` with nothing scheduled.
  case nothingScheduled

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .clockBackwards(let now, let target):
      return "the clock cannot go back (it is \(now.iso8601), asked for \(target.iso8601))"
    case .clockBeyondLatest(let target):
      return "the clock cannot pass \(Instant.latest.iso8601), the latest instant a session "
        + "reaches (asked for \(target.iso8601))"
    case .tooManyEvents(let budget, let transitions):
      return "this would cause more than \(budget) events (\(transitions) renewals or more); "
        + "advance in smaller steps or raise the limit"
    case .nothingScheduled: return "nothing is scheduled: no subscription is renewing"
    }
  }
}
