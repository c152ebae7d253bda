import Foundation

extension Product.SubscriptionInfo {
  /// A subscription group's state for the customer (StoreKit's
  /// `Product.SubscriptionInfo.Status`).
  public struct Status: Equatable, Hashable, Sendable {
    /// The renewal state.
    public let state: RenewalState
    /// The latest transaction of the subscription.
    public let transaction: VerificationResult<Transaction>
    /// What happens at the next renewal.
    public let renewalInfo: VerificationResult<RenewalInfo>

    /// Each status as it changes (a renewal, an expiry, a billing issue, a price increase …).
    public static var updates: Statuses { Statuses(stream: Store.current.statuses.listen()) }

    /// Statuses as they change, as an asynchronous sequence.
    public struct Statuses: AsyncSequence, Sendable {
      /// A status.
      public typealias Element = Status
      /// Never fails.
      public typealias Failure = Never
      let stream: AsyncStream<Status>

      /// Waits for each status change of any subscription group.
      public struct AsyncIterator: AsyncIteratorProtocol {
        var base: AsyncStream<Status>.AsyncIterator
        /// The next status.
        public mutating func next() async -> Status? { await base.next() }
      }

      /// An iterator that starts at the next change.
      public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: stream.makeAsyncIterator())
      }
    }

    /// Every group's statuses, then each group's as they change.
    public static var all: AsyncStream<(groupID: String, statuses: [Status])> {
      let store = Store.current
      let changes = store.statuses.listen()
      let now: [(String, [Status])] = store.read { session in
        session.subscriptionStatuses().map { ($0.groupID, [store.status($0)]) }
      }
      return AsyncStream { continuation in
        for (group, statuses) in now { continuation.yield((group, statuses)) }
        let task = Task {
          for await status in changes {
            let group = status.transaction.unsafePayloadValue.subscriptionGroupID ?? ""
            continuation.yield((group, [status]))
          }
          continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
      }
    }
  }

  /// A subscription's renewal state.
  public struct RenewalState: RawRepresentable, Equatable, Hashable, Sendable {
    /// Apple's status code: 1 subscribed, 2 expired, 3 billing retry, 4 grace period,
    /// 5 revoked.
    public let rawValue: Int
    /// A state by code.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// Active: the current period is paid for.
    public static let subscribed = RenewalState(rawValue: 1)
    /// Over: it did not renew (cancelled, or billing retry ran out).
    public static let expired = RenewalState(rawValue: 2)
    /// Renewal failed; the App Store retries; no service.
    public static let inBillingRetryPeriod = RenewalState(rawValue: 3)
    /// Renewal failed; service goes on until the grace period ends.
    public static let inGracePeriod = RenewalState(rawValue: 4)
    /// Refunded or revoked.
    public static let revoked = RenewalState(rawValue: 5)
    /// For a person.
    public var localizedDescription: String {
      switch rawValue {
      case 1: "Subscribed"
      case 2: "Expired"
      case 3: "In billing retry period"
      case 4: "In grace period"
      default: "Revoked"
      }
    }
  }
}

/// `Product.SubscriptionInfo.Status`.
public typealias SubscriptionStatus = Product.SubscriptionInfo.Status
/// `Product.SubscriptionInfo.RenewalState`.
public typealias SubscriptionRenewalState = Product.SubscriptionInfo.RenewalState
/// `Product.SubscriptionInfo.RenewalInfo`.
public typealias SubscriptionRenewalInfo = Product.SubscriptionInfo.RenewalInfo
