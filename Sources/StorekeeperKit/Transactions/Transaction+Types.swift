public import Foundation

extension Transaction {
  /// A purchase or a renewal.
  public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
    /// `PURCHASE` or `RENEWAL`.
    public let rawValue: String
    /// A reason by its payload name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The customer bought it.
    public static let purchase = Reason(rawValue: "PURCHASE")
    /// A subscription renewed.
    public static let renewal = Reason(rawValue: "RENEWAL")
  }

  /// Why the App Store refunded a transaction.
  public struct RevocationReason: RawRepresentable, Equatable, Hashable, Sendable {
    /// `1` for an issue with the app, `0` for any other reason (the payload's values).
    public let rawValue: Int
    /// A reason by its payload value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The customer had a problem with the app.
    public static let developerIssue = RevocationReason(rawValue: 1)
    /// Any other reason.
    public static let other = RevocationReason(rawValue: 0)
    /// For a person.
    public var localizedDescription: String {
      self == .developerIssue ? "Developer issue" : "Other"
    }
  }

  /// How a transaction was revoked (iOS 26.4): a full or prorated refund, or Family Sharing.
  public struct RevocationType: RawRepresentable, Equatable, Hashable, Sendable {
    /// The payload's value: `REFUND_FULL`, `REFUND_PRORATED`, `FAMILY_REVOKE` … [unverified:
    /// Apple does not say the raw values are the payload's].
    public let rawValue: String
    /// A type by its payload value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The transaction was fully refunded.
    public static let fullRefund = RevocationType(rawValue: "REFUND_FULL")
    /// The transaction was partially refunded based on consumption.
    public static let proratedRefund = RevocationType(rawValue: "REFUND_PRORATED")
    /// The transaction was revoked from a family member (Family Sharing).
    public static let familyRevocation = RevocationType(rawValue: "FAMILY_REVOKE")
    /// The organization's administrator revoked it (not simulated).
    public static let assignmentRevocation = RevocationType(rawValue: "ASSIGNMENT_REVOKE")
  }

  /// The kind of offer that applied.
  public struct OfferType: RawRepresentable, Equatable, Hashable, Sendable {
    /// The payload's value: 1 introductory, 2 promotional, 3 code, 4 win-back.
    public let rawValue: Int
    /// A type by its payload value.
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// An introductory offer.
    public static let introductory = OfferType(rawValue: 1)
    /// A promotional offer.
    public static let promotional = OfferType(rawValue: 2)
    /// An offer code.
    public static let code = OfferType(rawValue: 3)
    /// A win-back offer.
    public static var winBack: OfferType { OfferType(rawValue: 4) }
    /// For a person.
    public var localizedDescription: String {
      switch rawValue {
      case 1: "Introductory offer"
      case 2: "Promotional offer"
      case 3: "Offer code"
      case 4: "Win-back offer"
      default: "Offer"
      }
    }
  }

  /// Who owns a purchase.
  public struct OwnershipType: RawRepresentable, Equatable, Hashable, Sendable {
    /// `PURCHASED`, `FAMILY_SHARED` or `ASSIGNED` (a multiseat member's seat).
    public let rawValue: String
    /// An ownership by its payload name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The customer bought it.
    public static let purchased = OwnershipType(rawValue: "PURCHASED")
    /// A family member shared it.
    public static let familyShared = OwnershipType(rawValue: "FAMILY_SHARED")
    /// For a person.
    public var localizedDescription: String {
      switch rawValue {
      case "FAMILY_SHARED": "Family shared"
      case "ASSIGNED": "Assigned"
      default: "Purchased"
      }
    }
  }

  /// The offer a transaction was bought or renewed with.
  public struct Offer: Equatable, Hashable, Sendable {
    /// How an offer is paid.
    public struct PaymentMode: RawRepresentable, Equatable, Hashable, Sendable {
      /// `FREE_TRIAL`, `PAY_AS_YOU_GO`, `PAY_UP_FRONT`, `ONE_TIME`.
      public let rawValue: String
      /// A payment mode by its payload name.
      public init(rawValue: String) { self.rawValue = rawValue }
      /// Free for its periods.
      public static let freeTrial = PaymentMode(rawValue: "FREE_TRIAL")
      /// A reduced price each period.
      public static let payAsYouGo = PaymentMode(rawValue: "PAY_AS_YOU_GO")
      /// One payment for its periods.
      public static let payUpFront = PaymentMode(rawValue: "PAY_UP_FRONT")
      /// A one-time offer.
      public static var oneTime: PaymentMode { PaymentMode(rawValue: "ONE_TIME") }
    }

    /// The offer's identifier (`nil` for an introductory offer).
    public let id: String?
    /// Its kind.
    public let type: OfferType
    /// How it is paid.
    public let paymentMode: PaymentMode?
    /// The offer's period.
    public let period: Product.SubscriptionPeriod?

    /// The offer a payload names, if any.
    init?(_ payload: Payload) {
      guard let type = payload.int("offerType") else { return nil }
      self.type = OfferType(rawValue: type)
      id = payload.string("offerIdentifier")
      paymentMode = payload.string("offerDiscountType").map(PaymentMode.init(rawValue:))
      period = payload.string("offerPeriod").flatMap(Product.SubscriptionPeriod.init(iso8601:))
    }
  }

  /// How a refund request ended.
  public enum RefundRequestStatus: Equatable, Hashable, Sendable {
    /// The request was submitted.
    case success
    /// The customer cancelled.
    case userCancelled
  }

  /// Why a refund request failed.
  public enum RefundRequestError: Error, Equatable, Hashable, Sendable, LocalizedError {
    /// A refund was already requested.
    case duplicateRequest
    /// The request failed.
    case failed

    /// What went wrong.
    public var errorDescription: String? {
      self == .duplicateRequest
        ? "A refund was already requested for this transaction." : "The refund request failed."
    }
  }
}
