public import Foundation

/// Multiseat subscriptions (StoreKit 27.3): seats on a transaction and its renewal, read from
/// the signed payloads as StoreKit reads them.
extension Transaction {
  /// The seat information of a multiseat subscription's transaction; `nil` for any other.
  public var multiSeatInfo: MultiSeatInfo? {
    payload.nested("multiSeatInfo").map(MultiSeatInfo.init)
  }

  /// Why an additional transaction was made in a period (`SEAT_ADDITION`); `nil` for others.
  public var additionalTransactionReason: AdditionalTransactionReason? {
    payload.string("additionalTransactionReason").map(AdditionalTransactionReason.init)
  }

  /// The invitation model, price tiers and refunded seats of a multiseat transaction.
  public struct MultiSeatInfo: Equatable, Hashable, Sendable {
    /// Whether Apple or the app hosts the invitations.
    public let invitationManagement: InvitationManagement
    /// The seats bought at each per-seat price (not in a guaranteed order).
    public let priceTiers: [PriceTier]
    /// Seats refunded, `nil` until some are.
    public let revokedSeatQuantity: Int?

    init(_ p: Payload) {
      invitationManagement = InvitationManagement(
        rawValue: p.string("invitationManagement") ?? "APPLE")
      priceTiers = p.objects("priceTiers").map(PriceTier.init)
      revokedSeatQuantity = p.int("revokedSeatQuantity")
    }

    /// `APPLE` or `DEVELOPER`, the App Store Server API's values.
    public struct InvitationManagement: RawRepresentable, Equatable, Hashable, Sendable {
      /// The raw value.
      public let rawValue: String
      /// A model by its raw value.
      public init(rawValue: String) { self.rawValue = rawValue }
      /// Apple hosts the invitations: each member gets their own transaction (`assigned`).
      public static let apple = InvitationManagement(rawValue: "APPLE")
      /// The app hosts them and manages seats with the App Store Server API.
      public static let developer = InvitationManagement(rawValue: "DEVELOPER")
    }

    /// A per-seat price and the seats bought at it.
    public struct PriceTier: Equatable, Hashable, Sendable {
      /// The price of one seat.
      public let price: Decimal
      /// The seats bought at that price.
      public let quantity: Int

      init(_ p: Payload) {
        price = p.price("tierPrice") ?? 0
        quantity = p.int("tierQuantity") ?? 0
      }
    }
  }

  /// Why an additional transaction was made.
  public struct AdditionalTransactionReason: RawRepresentable, Equatable, Hashable, Sendable {
    /// The raw value.
    public let rawValue: String
    /// A reason by its raw value.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// Seats were added to the period (both its transaction and the added one say so).
    public static let seatAddition = AdditionalTransactionReason(rawValue: "SEAT_ADDITION")
  }
}

extension Transaction.OwnershipType {
  /// An Apple-hosted member of a multiseat subscription was given it.
  public static let assigned = Transaction.OwnershipType(rawValue: "ASSIGNED")
}

extension Product.SubscriptionInfo.RenewalInfo {
  /// The seats expected at the next renewal of a multiseat subscription; `nil` for others.
  public var renewalQuantity: Int? { payload.int("renewalQuantity") }

  /// A multiseat subscription's renewal price tiers; `nil` for others.
  public var multiSeatInfo: MultiSeatInfo? {
    payload.nested("multiSeatInfo").map(MultiSeatInfo.init)
  }

  /// The tiers the seats renew at.
  public struct MultiSeatInfo: Equatable, Hashable, Sendable {
    /// The seats that renew at each per-seat price.
    public let renewalPriceTiers: [Transaction.MultiSeatInfo.PriceTier]

    init(_ p: Payload) {
      renewalPriceTiers = p.objects("renewalPriceTiers").map(
        Transaction.MultiSeatInfo.PriceTier.init)
    }
  }
}

extension Product.PurchaseOption {
  /// A multiseat purchase: `targetSeatQuantity` is the total after the purchase (more than
  /// the subscription holds adds seats).
  public static func seats(_ targetSeatQuantity: Int) -> Product.PurchaseOption {
    Product.PurchaseOption(key: "seats", value: .number(Double(targetSeatQuantity)))
  }

  /// Turns off the invitation sheet after an Apple-hosted purchase (no sheet on Linux: kept
  /// as an option only).
  public static func multiSeatInvitationSheetSuppressed(
    _ isSuppressed: Bool
  ) -> Product.PurchaseOption {
    Product.PurchaseOption(key: "multiSeatInvitationSheetSuppressed", value: .flag(isSuppressed))
  }
}
