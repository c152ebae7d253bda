/// The behaviours Apple does not document and Storekeeper had to choose, in one place.
///
/// Each default follows, in order: the text, the spec's documented facts, habits measured
/// on real StoreKit (macOS where platforms differ), then production App Store semantics. The
/// reasons and sources are in the DocC article "Fidelity". Change a choice here and the engine
/// follows.
public struct FidelityChoices: Equatable, Sendable {
  /// What `Product.purchase()` gives when purchases are interrupted.
  public enum InterruptedPurchaseOutcome: String, Sendable {
    /// macOS (measured): `.pending`; the resolved purchase arrives on `Transaction.updates`.
    case pending
    /// iOS (measured): `purchase()` throws `StoreKitError.unknown`.
    case failed
  }

  /// Where a subscription recovered from billing retry starts its new period.
  public enum BillingRecoveryStart: String, Sendable {
    /// At the moment the issue is resolved (production: the renewal date moves to recovery).
    case resolution
    /// At the renewal date that failed, as if it had never failed.
    case missedRenewal
  }

  /// What a renewal does when a price increase was requested and never answered.
  public enum UnansweredPriceIncrease: String, Sendable {
    /// Production: the subscription expires with `didNotConsentToPriceIncrease`.
    case expire
    /// The subscription renews at the current price, the request still pending.
    case renew
  }

  /// What the app's refund sheet (`Transaction.beginRefundRequest`) leads to once submitted,
  /// when the session's `refund-review` setting does not say: its default.
  public enum RefundSheetOutcome: String, Sendable {
    /// A request that waits for Apple's decision, as in production: `CONSUMPTION_REQUEST`, then
    /// `refund` or `refund-decline` (journals of the second format were written so).
    case request
    /// Granted at once, as Xcode's and the sandbox's environments do (WWDC22).
    case refundAtOnce
  }

  /// What a price increase asked for without a price charges.
  public enum UnpricedIncrease: String, Sendable {
    /// The configuration's current price for the product (Apple: "You can still test this
    /// scenario without increasing the price").
    case configurationPrice
    /// The price now plus 10%, rounded to the cent (journals of the first two formats).
    case tenPercentMore
  }

  /// The refund sheet refunds at once.
  public var refundSheetOutcome: RefundSheetOutcome = .refundAtOnce
  /// A price increase without a price asks for the configuration's price.
  public var unpricedIncrease: UnpricedIncrease = .configurationPrice

  /// Interrupted purchases: `.pending` (macOS, measured) by default.
  public var interruptedPurchaseOutcome: InterruptedPurchaseOutcome = .pending
  /// Resubscribing in a group keeps the group's original transaction id (production; measured
  /// for upgrades). Off: a resubscription starts a new chain (`id == originalID`).
  public var resubscriptionKeepsOriginalID = true
  /// A resolved billing issue starts the new period at the resolution.
  public var billingRecoveryStart: BillingRecoveryStart = .resolution
  /// An unanswered price increase expires the subscription at renewal.
  public var unansweredPriceIncrease: UnansweredPriceIncrease = .expire

  /// The defaults described above.
  public init() {}
}
