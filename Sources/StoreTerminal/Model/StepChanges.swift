import StoreSimulation

/// The labels of the inspector's summary lines of a transaction: what a step's marks are for.
package enum InspectorLabel: String, Sendable {
  case transaction = "Transaction", product = "Product", dates = "Dates", price = "Price"
  case state = "State", sk1 = "SK1", consumption = "Consumption", account = "Account"
  case status = "Status", priceIncrease = "Price increase", renewal = "Renewal"
  case upcoming = "Upcoming", jws = "JWS", owner = "Owner", plan = "Plan", seats = "Seats"
  case members = "Members", commerce = "Commerce", items = "Items", renews = "Renews"
}

/// The values the inspector's summary of a transaction is made of: what a step is compared on.
/// Model values, not text: the clock moving (a countdown) changes none of them.
package struct TransactionFacts: Equatable, Sendable {
  var transaction: Transaction
  var state: LedgerState?
  var productName: String
  var consumption: ConsumptionInformation?
  var status: SubscriptionStatus?
  var priceIncrease: PriceIncreaseTerms?
  var upcoming: [UpcomingRenewal]

  /// The facts of transaction `id` in `session`; `nil` when there is none.
  init?(_ id: UInt64?, in session: SessionView) {
    guard let id, let transaction = session.transaction(id) else { return nil }
    self.transaction = transaction
    state = session.ledgerRow(id)?.state
    let product = session.catalog.product(transaction.productID)
    productName = product?.displayName(locale: session.settings.locale) ?? ""
    consumption = session.consumption(of: id)
    let group = transaction.subscriptionGroupID
    status = group.flatMap { session.status(forGroup: $0) }
    priceIncrease = group.flatMap { session.priceIncrease(forGroup: $0) }
    upcoming = group.map { session.upcomingRenewals(groupID: $0, limit: 8) } ?? []
  }

  /// The summary lines whose values differ from `before`'s.
  func changed(since before: TransactionFacts) -> Set<InspectorLabel> {
    let (t, b) = (transaction, before.transaction)
    let (info, old) = (status?.renewalInfo, before.status?.renewalInfo)
    let lines: [(InspectorLabel, Bool)] = [
      (
        .transaction,
        t.id == b.id && t.originalID == b.originalID && t.orderID == b.orderID
          && t.reason == b.reason && t.offer == b.offer && t.storefront == b.storefront
      ),
      (
        .product,
        t.productID == b.productID && productName == before.productName
          && t.productType == b.productType && t.subscriptionGroupID == b.subscriptionGroupID
      ),
      (
        .dates,
        t.purchaseDate == b.purchaseDate && t.originalPurchaseDate == b.originalPurchaseDate
          && t.expirationDate == b.expirationDate
      ),
      (
        .price,
        t.price == b.price && t.currency == b.currency
          && t.purchasedQuantity == b.purchasedQuantity && t.environment == b.environment
      ),
      (
        .state,
        state == before.state && t.isFinished == b.isFinished
          && t.revocationDate == b.revocationDate && t.revocationType == b.revocationType
          && t.revocationPercentage == b.revocationPercentage
          && t.revocationReason == b.revocationReason && t.hasRefundRequest == b.hasRefundRequest
          && t.isUpgraded == b.isUpgraded && t.failure == b.failure
      ),
      (
        .sk1,
        t.state == b.state && t.hasPurchaseIssue == b.hasPurchaseIssue
          && t.pendingAskToBuyConfirmation == b.pendingAskToBuyConfirmation
          && t.isAskToBuyDeclined == b.isAskToBuyDeclined && t.failure == b.failure
      ),
      (.consumption, consumption == before.consumption),
      (.account, t.appAccountToken == b.appAccountToken),
      (
        .status,
        status?.state == before.status?.state
          && status?.transactionID == before.status?.transactionID
          && info?.willAutoRenew == old?.willAutoRenew
          && info?.autoRenewPreference == old?.autoRenewPreference
          && info?.currentProductID == old?.currentProductID
          && info?.expirationReason == old?.expirationReason
      ),
      (.priceIncrease, priceIncrease == before.priceIncrease),
      (
        .renewal,
        info?.gracePeriodExpirationDate == old?.gracePeriodExpirationDate
          && status?.billingRetryExpirationDate == before.status?.billingRetryExpirationDate
          && info?.renewalDate == old?.renewalDate
          && info?.eligibleWinBackOfferIDs == old?.eligibleWinBackOfferIDs
          && priceIncrease?.status == before.priceIncrease?.status
      ),
      (.upcoming, upcoming == before.upcoming),
      // A new version of the transaction is signed anew.
      (.jws, t == b),
    ]
    return Set(lines.filter { !$0.1 }.map(\.0))
  }
}

/// What a person's last step changed: the transactions its events name (highlighted in the
/// table) and, for the transaction selected then, the summary lines whose values it changed
/// (marked in the inspector).
package struct StepChanges: Equatable, Sendable {
  /// The transactions the step's events name.
  package var ids: Set<UInt64>
  /// The transaction selected when the step was taken.
  package var transactionID: UInt64?
  /// Its summary lines the step changed.
  package var labels: Set<InspectorLabel> = []

  /// What a step changed: the transactions `events` name, and the lines of the transaction
  /// `before` describes that differ now in `session`.
  init(events: [StoreEvent], before: TransactionFacts?, session: SessionView) {
    ids = Self.ids(in: events)
    guard let before else { return }
    transactionID = before.transaction.id
    // A transaction that is no more (a step back) has nothing to mark.
    labels = TransactionFacts(before.transaction.id, in: session)?.changed(since: before) ?? []
  }

  /// Whether the summary line `label` of transaction `id` changed in the step.
  func changed(label: String, of id: UInt64) -> Bool {
    transactionID == id && InspectorLabel(rawValue: label).map(labels.contains) == true
  }

  /// The transactions a batch of events names.
  static func ids(in events: [StoreEvent]) -> Set<UInt64> {
    var ids = Set<UInt64>()
    for event in events {
      switch event.kind {
      case .transaction(let transaction, _): ids.insert(transaction.id)
      case .status(let status): ids.insert(status.transactionID)
      case .purchaseResult(let result): if let id = result.transactionID { ids.insert(id) }
      default: break
      }
    }
    return ids
  }
}
