internal import StoreSimulation

extension Transaction {
  /// Transactions as an asynchronous sequence (StoreKit's `Transaction.Transactions`):
  /// `updates` as they come, the others as the store holds them when iterated.
  public struct Transactions: AsyncSequence, Sendable {
    /// A transaction and whether it verified.
    public typealias Element = VerificationResult<Transaction>
    /// Never fails.
    public typealias Failure = Never

    private enum Source: Sendable {
      case stream(AsyncStream<VerificationResult<Transaction>>)
      case query(Store, @Sendable (SessionView) -> [StoreSimulation.Transaction])
    }

    private let source: Source

    private init(_ source: Source) { self.source = source }

    /// The transactions `select` picks when the sequence is iterated.
    static func query(
      _ select: @escaping @Sendable (SessionView) -> [StoreSimulation.Transaction]
    ) -> Transactions {
      Transactions(.query(Store.current, select))
    }

    /// The transactions the store sends on `Transaction.updates` from now on.
    static var live: Transactions { Transactions(.stream(Store.current.updates.listen())) }

    /// Walks the transactions, yielding each verified or not.
    public struct AsyncIterator: AsyncIteratorProtocol {
      fileprivate var items: [VerificationResult<Transaction>].Iterator?
      fileprivate var base: AsyncStream<VerificationResult<Transaction>>.AsyncIterator?

      /// The next transaction.
      public mutating func next() async -> VerificationResult<Transaction>? {
        if base != nil { return await base?.next() }
        return items?.next()
      }
    }

    /// An iterator from the first transaction.
    public func makeAsyncIterator() -> AsyncIterator {
      switch source {
      case .stream(let stream): AsyncIterator(base: stream.makeAsyncIterator())
      case .query(let store, let select):
        AsyncIterator(
          items: store.read { session in select(session).map(store.verified) }
            .makeIterator())
      }
    }
  }

  /// Every transaction of the customer's: finished consumables leave it unless refunded, or
  /// unless the app opts in (`SKIncludeConsumableInAppPurchaseHistory`).
  public static var all: Transactions {
    .query { session in session.allTransactions().filter { $0.isInHistory(of: session) } }
  }

  /// A product's transactions.
  public static func all(for productID: String) -> Transactions {
    .query { session in
      session.allTransactions().filter { $0.isInHistory(of: session) && $0.productID == productID }
    }
  }

  /// The transactions that entitle the customer now: non-consumables, active subscriptions,
  /// unfinished consumables; none revoked.
  public static var currentEntitlements: Transactions {
    .query { session in session.currentEntitlements() }
  }

  /// A product's current entitlements.
  public static func currentEntitlements(for productID: String) -> Transactions {
    .query { session in session.currentEntitlements().filter { $0.productID == productID } }
  }

  /// The transactions the app has not finished.
  public static var unfinished: Transactions {
    .query { session in session.unfinishedTransactions() }
  }

  /// Transactions made or changed outside the app's purchase calls: renewals, approvals,
  /// refunds, purchases outside the app, and (to the first listener) those already waiting.
  public static var updates: Transactions { .live }

  /// A product's latest transaction.
  public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
    let store = Store.current
    return store.read { session -> StoreSimulation.Transaction? in
      guard let id = session.lastTransactionID(productID: productID),
        let latest = session.transaction(id)
      else { return nil }
      if latest.isInHistory(of: session) { return latest }
      // A finished consumable left the history: the one before it that did not.
      var kept: StoreSimulation.Transaction?
      session.forEachTransaction {
        if $0.productID == productID && $0.isInHistory(of: session) { kept = $0 }
      }
      return kept
    }.map(store.verified)
  }

  /// The transaction that entitles the customer to a product now.
  @available(*, deprecated, message: "Use the currentEntitlements(for:) method instead.")
  public static func currentEntitlement(
    for productID: String
  ) async
    -> VerificationResult<Transaction>?
  {
    let store = Store.current
    return store.read { session in
      session.currentEntitlements().last { $0.productID == productID }
    }.map(store.verified)
  }
}

extension StoreSimulation.Transaction {
  /// Whether `Transaction.all` lists it (the engine's ``TransactionHistory`` rule, with the
  /// app's `SKIncludeConsumableInAppPurchaseHistory`).
  func isInHistory(of session: SessionView) -> Bool {
    isInHistory(
      withFinishedConsumables: session.settings.includeConsumableInAppPurchaseHistory)
  }
}
