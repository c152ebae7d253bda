internal import StoreSimulation

/// A message the App Store shows the customer (StoreKit's `Message`): a price increase to
/// consent to, a billing issue, a win-back offer.
public struct Message: Sendable, Equatable, Hashable {
  /// Why the App Store shows a message.
  public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
    /// The reason's code.
    public let rawValue: Int
    /// A reason by code.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// A general message.
    public static let generic = Reason(rawValue: 0)
    /// A price increase waits for the customer's consent.
    public static let priceIncreaseConsent = Reason(rawValue: 1)
    /// A billing issue the customer must resolve (a failed renewal in billing retry).
    public static let billingIssue = Reason(rawValue: 2)
    /// A win-back offer the customer is eligible for.
    public static let winBackOffer = Reason(rawValue: 3)
    /// For a person.
    public var localizedDescription: String {
      switch rawValue {
      case 1: "Price increase consent"
      case 2: "Billing issue"
      case 3: "Win-back offer"
      default: "Generic"
      }
    }
  }

  /// Why it is shown.
  public let reason: Reason

  init(_ reason: MessageReason) {
    self.reason =
      switch reason {
      case .generic: .generic
      case .priceIncreaseConsent: .priceIncreaseConsent
      case .billingIssue: .billingIssue
      case .winBackOffer: .winBackOffer
      }
  }

  /// Shows the message. On Linux there is no scene to show it in: the customer reads it at
  /// once (StoreKit's `display(in:)` without the scene).
  public func display() throws {}

  /// The messages as the App Store sends them (to the first listener, those already waiting).
  public static var messages: Messages { Messages(stream: Store.current.messages.listen()) }

  /// Messages as an asynchronous sequence.
  public struct Messages: AsyncSequence, Sendable {
    /// A message.
    public typealias Element = Message
    /// Never fails.
    public typealias Failure = Never
    let stream: AsyncStream<Message>

    /// Waits for each message as the App Store sends it.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<Message>.AsyncIterator
      /// The next message.
      public mutating func next() async -> Message? { await base.next() }
    }

    /// An iterator that starts at the next message (none is replayed).
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(base: stream.makeAsyncIterator())
    }
  }
}
