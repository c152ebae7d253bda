public import Foundation
internal import StoreConfiguration

/// The App Store storefront the customer buys in (StoreKit's `Storefront`).
public struct Storefront: Identifiable, Sendable {
  /// Apple's storefront id.
  public typealias ID = String
  /// ISO 3166-1 alpha-3, `USA`.
  public let countryCode: String
  /// Apple's storefront id, `143441`.
  public let id: String
  private let currencyCode: String

  /// The storefront of an engine's storefront.
  init(_ storefront: StoreConfiguration.Storefront) {
    countryCode = storefront.countryCode
    id = storefront.id
    currencyCode = storefront.currency
  }

  /// The storefront of an alpha-3 code (USA when unknown).
  init(countryCode: String) {
    self.init(StoreConfiguration.Storefront(countryCode: countryCode) ?? .unitedStates)
  }

  /// The storefront's currency.
  public var currency: Locale.Currency? { Locale.Currency(currencyCode) }

  /// The current storefront (the session's `storefront` setting).
  public static var current: Storefront? {
    get async { Store.current.read { Storefront($0.settings.storefront) } }
  }

  /// The storefront each time it changes.
  public static var updates: Storefronts { Storefronts(stream: Store.current.storefronts.listen()) }

  /// The storefront each time it changes, as an asynchronous sequence.
  public struct Storefronts: AsyncSequence, Sendable {
    /// A storefront.
    public typealias Element = Storefront
    /// Never fails.
    public typealias Failure = Never
    let stream: AsyncStream<Storefront>

    /// Waits for each change of storefront.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<Storefront>.AsyncIterator
      /// The next change.
      public mutating func next() async -> Storefront? { await base.next() }
    }

    /// An iterator that starts at the next change (the current storefront is not replayed).
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(base: stream.makeAsyncIterator())
    }
  }
}
