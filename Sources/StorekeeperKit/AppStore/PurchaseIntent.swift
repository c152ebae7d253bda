internal import StoreSimulation

/// A purchase the customer started outside the app, on the App Store (a promoted product, a
/// win-back offer), for the app to complete (StoreKit's `PurchaseIntent`). A test sends one
/// with `SKTestSession.sendPurchaseIntent(productIdentifier:offerID:)`.
public struct PurchaseIntent: Identifiable, Equatable, Hashable, Sendable {
  /// The product the customer chose.
  public let product: Product
  /// The offer to apply to the purchase (subscriptions only).
  public let offer: Product.SubscriptionOffer?

  /// The product's identifier.
  public var id: Product.ID { product.id }

  /// The purchase intents as the customer starts them (to the first listener, those sent
  /// before it listened, as StoreKit keeps them for an app that is launching).
  public static var intents: PurchaseIntents {
    PurchaseIntents(stream: Store.current.intents.listen())
  }

  /// Purchase intents, as an asynchronous sequence.
  public struct PurchaseIntents: AsyncSequence, Sendable {
    /// A purchase intent.
    public typealias Element = PurchaseIntent
    /// Never fails.
    public typealias Failure = Never
    let stream: AsyncStream<PurchaseIntent>

    /// Waits for each purchase intent as it arrives.
    public struct AsyncIterator: AsyncIteratorProtocol {
      var base: AsyncStream<PurchaseIntent>.AsyncIterator
      /// The next purchase intent.
      public mutating func next() async -> PurchaseIntent? { await base.next() }
    }

    /// An iterator that starts at the next intent (none is replayed).
    public func makeAsyncIterator() -> AsyncIterator {
      AsyncIterator(base: stream.makeAsyncIterator())
    }
  }
}

extension Store {
  /// The customer starts buying `productID` on the App Store (with the promotional or win-back
  /// offer `offerID`): the app receives a purchase intent; `nil` when the configuration has
  /// no such product or offer.
  package func sendPurchaseIntent(productID: String, offerID: String?) -> PurchaseIntent? {
    let store = self
    let product = read { session in
      session.catalog.products.first { $0.productID == productID && $0.isAvailable }.map {
        Product($0, in: session, store: store)
      }
    }
    guard let product else { return nil }
    var offer: Product.SubscriptionOffer?
    if let offerID {
      let offers =
        (product.subscription?.promotionalOffers ?? [])
        + (product.subscription?.winBackOffers ?? [])
      guard let found = offers.first(where: { $0.id == offerID }) else { return nil }
      offer = found
    }
    let intent = PurchaseIntent(product: product, offer: offer)
    intents.send(intent)
    offerToPaymentQueue(product)
    return intent
  }
}

extension Store {
  /// A promoted purchase reaches StoreKit 1's queue too: an observer that answers `true` to
  /// `paymentQueue(_:shouldAddStorePayment:for:)` has the payment added at once.
  fileprivate func offerToPaymentQueue(_ product: Product) {
    guard let hub = madePaymentHub else { return }
    let item = SKProduct(product)
    let payment = SKPayment(product: item)
    DispatchQueue.main.async {
      for queue in hub.liveFronts {
        let observers = queue.transactionObservers
        if observers.contains(where: {
          $0.paymentQueue(queue, shouldAddStorePayment: payment, for: item)
        }) {
          return queue.add(payment)
        }
      }
    }
  }
}
