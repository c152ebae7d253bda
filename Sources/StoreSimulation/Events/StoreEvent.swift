/// Something the test environment did, at the moment it happened.
///
/// Every verb of ``Session`` delivers the events it caused, in order, to a sink. A renewal's
/// event carries its due time, not the time the clock was moved.
public struct StoreEvent: Equatable, Sendable {
  /// When it happened.
  public var time: Instant
  /// What happened.
  public var kind: Kind
  /// The named customer it happened to; `nil` for the session's own customer.
  public var customer: Customer?
  /// Its place in the named customer's own history (0 for their first event), which names
  /// their notifications apart from every other customer's; 0 for the own customer's.
  public var customerPlace: UInt64
  /// The App Store Server Notifications it causes, as the engine decided when it made it.
  public var notifications: NotificationCauses

  /// Creates an event.
  public init(
    time: Instant, kind: Kind, customer: Customer? = nil, customerPlace: UInt64 = 0,
    notifications: NotificationCauses = NotificationCauses()
  ) {
    self.time = time
    self.kind = kind
    self.customer = customer
    self.customerPlace = customerPlace
    self.notifications = notifications
  }

  /// The kinds of event.
  public enum Kind: Equatable, Sendable {
    /// A transaction was created or changed; `delivery` says how the app receives it, `nil`
    /// when it receives nothing (a finish, a declined request, a failed attempt).
    case transaction(Transaction, delivery: Delivery?)
    /// A subscription group's status or renewal info changed (`Status.updates`).
    case status(SubscriptionStatus)
    /// A StoreKit message for the app (`Message.messages`).
    case message(MessageReason, productID: String?)
    /// SK1: the payment queue's observer saw a transaction change state.
    case paymentQueue(PaymentQueueUpdate)
    /// What `Product.purchase()` returned or threw.
    case purchaseResult(PurchaseResult)
    /// A transaction was deleted (a family member's with the purchaser's it shared).
    case transactionRemoved(id: UInt64, owner: Account = .purchaser)
    /// SK1: `paymentQueue(_:didRevokeEntitlementsForProductIdentifiers:)`.
    case revokedEntitlements(productIDs: [String])
    /// SK1: restoring completed transactions finished with this many restored.
    case restoreCompleted(count: Int)
    /// The app called a StoreKit API; `error` when a simulated error made it fail.
    case apiCall(StoreKitAPI, error: SimulatedError?, detail: String?)
    /// The customer asked Apple for a refund; the App Store asks the app's server about it
    /// (`CONSUMPTION_REQUEST`).
    case refundRequested(transactionID: UInt64, reason: RefundRequestReason)
    /// Apple declined a refund request (`REFUND_DECLINED`).
    case refundDeclined(transactionID: UInt64)
    /// A subscription's renewal date was extended, or an extension for it failed
    /// (`RENEWAL_EXTENDED`, `RENEWAL_EXTENSION` `FAILURE`).
    case renewalExtension(RenewalExtension)
    /// An extension for every subscriber of a product finished (`RENEWAL_EXTENSION` `SUMMARY`).
    case renewalExtensionSummary(RenewalExtensionSummary)
    /// The app's server sent consumption information about a refund request.
    case consumptionReported(transactionID: UInt64, ConsumptionInformation)
    /// An app receipt (`call receipt`), or with ``SessionOptions/receiptsOnPurchase`` the
    /// per-transaction receipt of a purchase SK1 reports `purchased`.
    case receipt(ReceiptContents)
    /// A server notification with no purchase behind it (`RESCIND_CONSENT`,
    /// `EXTERNAL_PURCHASE_TOKEN`).
    case notice(StoreNotice)
    /// The purchaser's family changed (`family join|leave|sharing`).
    case family(FamilyAction)
    /// Retention Messaging: the setup changed, or the subscription page showed a message.
    case retention(RetentionEvent)
    /// The App Store unclaimed seats of a developer-hosted multiseat subscription
    /// (`UNCLAIM_SEATS`): a seat refund left more claims than seats.
    case seatsUnclaimed(SeatsUnclaimed)
  }
}

/// Seats the App Store unclaimed (`unclaimInfo`).
public struct SeatsUnclaimed: Equatable, Sendable {
  /// The subscription's current transaction (the purchaser's, carried as the notification's
  /// `signedTransactionInfo`).
  public var transactionID: UInt64
  /// The claims unclaimed (`unclaimSeatIds`), latest first.
  public var claimIDs: [String]
}

/// One subscription's renewal-date extension (App Store Server API).
public struct RenewalExtension: Equatable, Sendable {
  /// The subscription's original transaction.
  public var originalTransactionID: UInt64
  /// Its current transaction, whose expiration moved.
  public var transactionID: UInt64
  /// The subscription's product.
  public var productID: String
  /// Days asked for (1 to 90).
  public var days: Int
  /// Why.
  public var reason: ExtendReason
  /// The mass extension's request identifier, when it was one.
  public var requestIdentifier: String?
  /// The new expiration date, or `nil` when the subscription could not be extended.
  public var newExpirationDate: Instant?
  /// Why it could not be extended.
  public var failure: ExtensionIneligibility?
}

/// A finished mass extension: Apple's `summary`.
public struct RenewalExtensionSummary: Equatable, Sendable {
  /// The product whose subscribers were extended.
  public var productID: String
  /// The request's identifier.
  public var requestIdentifier: String
  /// The storefronts it was limited to (none: all).
  public var storefrontCountryCodes: [String]
  /// How many subscriptions were extended.
  public var succeededCount: Int
  /// How many could not be.
  public var failedCount: Int
}

/// `extendReasonCode`.
public enum ExtendReason: String, Sendable, CaseIterable {
  /// No reason given.
  case undeclared
  /// To keep a customer happy.
  case customerSatisfaction
  /// Any other reason.
  case other
  /// For an outage.
  case serviceIssueOrOutage

  /// Apple's integer code.
  public var code: Int {
    switch self {
    case .undeclared: 0
    case .customerSatisfaction: 1
    case .other: 2
    case .serviceIssueOrOutage: 3
    }
  }
}

/// How the app receives a transaction.
public enum Delivery: String, Sendable {
  /// Returned by `Product.purchase()`.
  case purchaseResult
  /// Emitted on `Transaction.updates`.
  case updates
}

/// `Message.Reason`: why the App Store shows the app a message.
public enum MessageReason: String, Sendable {
  /// A message with no specific reason.
  case generic
  /// A price increase needs consent.
  case priceIncreaseConsent
  /// Billing failed.
  case billingIssue
  /// A win-back offer is available.
  case winBackOffer
}

/// SK1's view of a transaction changing state.
public struct PaymentQueueUpdate: Equatable, Sendable {
  /// The product of the payment (`SKPayment.productIdentifier`).
  public var productID: String
  /// The new state.
  public var state: PaymentTransactionState
  /// The transaction's id, once there is one.
  public var transactionID: UInt64?
  /// For `failed`: the `SKErrorDomain` code.
  public var error: SKErrorCode?
  /// The quantity of the payment.
  public var quantity: Int

  /// Creates an update.
  public init(
    productID: String, state: PaymentTransactionState, transactionID: UInt64? = nil,
    error: SKErrorCode? = nil, quantity: Int
  ) {
    self.productID = productID
    self.state = state
    self.transactionID = transactionID
    self.error = error
    self.quantity = quantity
  }
}

/// `Product.PurchaseResult`, or the error `purchase()` threw.
public struct PurchaseResult: Equatable, Sendable {
  /// How a purchase ended, as `Product.PurchaseResult`'s cases.
  public enum Outcome: String, Sendable {
    /// Bought: a transaction comes with it.
    case success
    /// Waiting (Ask to Buy or an interruption).
    case pending
    /// The customer cancelled.
    case userCancelled
    /// The purchase threw an error.
    case failed
  }

  /// The product the app asked to buy.
  public var productID: String
  /// How the purchase ended.
  public var outcome: Outcome
  /// The transaction returned with `success`.
  public var transactionID: UInt64?
  /// The error thrown with `failed`, or the verification error of an unverified success.
  public var error: SimulatedError?
  /// Why, when StoreKit's error alone does not say (which part of an offer's signature failed).
  public var detail: String?

  /// Creates a result.
  public init(
    productID: String, outcome: Outcome, transactionID: UInt64? = nil, error: SimulatedError? = nil,
    detail: String? = nil
  ) {
    self.productID = productID
    self.outcome = outcome
    self.transactionID = transactionID
    self.error = error
    self.detail = detail
  }
}

extension StoreEvent {
  /// Whether a device sees the event: the purchaser's (`member` `nil`) or the family member's
  /// of that name: its own transactions, statuses and removals, and changes of the family;
  /// everything else is the purchaser's (a purchase's result, the payment queue, messages,
  /// what the App Store's server does).
  public func isSeen(byMemberNamed member: String?) -> Bool {
    switch kind {
    case .transaction(let transaction, _): return transaction.owner.member?.name == member
    case .status(let status): return status.owner.member?.name == member
    case .transactionRemoved(_, let owner): return owner.member?.name == member
    case .family: return true
    case .message, .paymentQueue, .purchaseResult, .revokedEntitlements, .restoreCompleted,
      .apiCall, .refundRequested, .refundDeclined, .renewalExtension, .renewalExtensionSummary,
      .consumptionReported, .receipt, .notice, .retention, .seatsUnclaimed:
      return member == nil
    }
  }
}

/// Whose events a stream shows (`run --customer --member`, the control endpoint's
/// `?customer=&member=`): every customer's or one named customer's, and on a customer's own
/// device or a member of their family's.
public struct DeviceFilter: Equatable, Sendable {
  /// The named customer whose events are shown; `nil` shows every customer's.
  public var customer: String?
  /// The family member whose device is shown; `nil` shows the customers' own devices.
  public var member: String?

  /// A filter.
  public init(customer: String? = nil, member: String? = nil) {
    self.customer = customer
    self.member = member
  }

  /// Whether the device sees `event` (``StoreEvent/isSeen(byMemberNamed:)``).
  public func shows(_ event: StoreEvent) -> Bool {
    (customer == nil || event.customer?.name == customer) && event.isSeen(byMemberNamed: member)
  }

  /// Whether the device is told of a notification about `owner`: every one without a member,
  /// those about the member's transactions with one.
  public func shows(notificationAbout owner: Account) -> Bool {
    (customer == nil || owner.customer.name == customer)
      && (member == nil || owner.member?.name == member)
  }
}
