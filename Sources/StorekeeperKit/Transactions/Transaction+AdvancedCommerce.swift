import Foundation

extension Transaction {
  /// An Advanced Commerce transaction's terms (`advancedCommerceInfo`): what it charged, item by
  /// item, as the developer's signed request named them.
  public struct AdvancedCommerceInfo: Equatable, Hashable, Sendable {
    /// The `requestReferenceId` of the request that made the terms.
    public let requestReferenceID: String
    /// The tax estimated on the price.
    public let estimatedTax: Decimal
    /// The tax rate.
    public let taxRate: Decimal
    /// The tax code the developer chose.
    public let taxCode: String
    /// The price without tax.
    public let taxExclusivePrice: Decimal
    /// What the customer sees of it (`descriptors.description`).
    public let description: String?
    /// Its name for the customer (`descriptors.displayName`).
    public let displayName: String?
    /// A subscription's billing period.
    public let period: Product.SubscriptionPeriod?
    /// The items charged.
    public let items: [Item]

    /// One SKU of the transaction.
    public struct Item: Equatable, Hashable, Sendable {
      /// What was charged for it.
      public let details: Details
      /// Its refunds, if any.
      public let refunds: [Refund]?
      /// When its access ended, if it did.
      public let revocationDate: Date?

      /// The SKU as the request named it.
      public struct Details: Equatable, Hashable, Sendable {
        /// `SKU`.
        public let sku: String
        /// Its name for the customer.
        public let displayName: String
        /// Its description.
        public let description: String
        /// A discount for its first periods.
        public let offer: Offer?
        /// Its price (without the offer).
        public let price: Decimal
      }

      /// A discount on an item.
      public struct Offer: Equatable, Hashable, Sendable {
        /// The offer's price.
        public let price: Decimal
        /// The offer's period.
        public let period: Product.SubscriptionPeriod
        /// How many periods it lasts.
        public let periodCount: Int
        /// Why it is given.
        public let reason: Reason

        /// Why an offer is given (`ACQUISITION`, `RETENTION`, `WIN_BACK`).
        public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
          /// Apple's name.
          public let rawValue: String
          /// A reason by name.
          public init(rawValue: String) { self.rawValue = rawValue }
          /// To win a new customer.
          public static let acquisition = Reason(rawValue: "ACQUISITION")
          /// To keep a customer.
          public static let retention = Reason(rawValue: "RETENTION")
          /// To win a former customer back.
          public static let winBack = Reason(rawValue: "WIN_BACK")
        }
      }

      /// A refund of an item.
      public struct Refund: Equatable, Hashable, Sendable {
        /// Why it was refunded.
        public let reason: Reason
        /// How much of it.
        public let type: RefundType
        /// When.
        public let date: Date
        /// The amount refunded.
        public let amount: Decimal

        /// Why an item was refunded (Apple's `refundReason`).
        public struct Reason: RawRepresentable, Equatable, Hashable, Sendable {
          /// Apple's name.
          public let rawValue: String
          /// A reason by name.
          public init(rawValue: String) { self.rawValue = rawValue }
          /// `LEGAL`.
          public static let legal = Reason(rawValue: "LEGAL")
          /// `MODIFY_ITEMS_REFUND`.
          public static let modifyItems = Reason(rawValue: "MODIFY_ITEMS_REFUND")
          /// `UNINTENDED_PURCHASE`.
          public static let unintended = Reason(rawValue: "UNINTENDED_PURCHASE")
          /// `FULFILLMENT_ISSUE`.
          public static let unfulfilled = Reason(rawValue: "FULFILLMENT_ISSUE")
          /// `UNSATISFIED_WITH_PURCHASE`.
          public static let unsatisfied = Reason(rawValue: "UNSATISFIED_WITH_PURCHASE")
          /// `OTHER`.
          public static let other = Reason(rawValue: "OTHER")
        }

        /// How much was refunded (Apple's `refundType`).
        public struct RefundType: RawRepresentable, Equatable, Hashable, Sendable {
          /// Apple's name.
          public let rawValue: String
          /// A type by name.
          public init(rawValue: String) { self.rawValue = rawValue }
          /// An amount the developer chose.
          public static let custom = RefundType(rawValue: "CUSTOM")
          /// The share of the period left.
          public static let proRated = RefundType(rawValue: "PRORATED")
          /// All of it.
          public static let full = RefundType(rawValue: "FULL")
        }
      }
    }

    /// The terms of a payload's `advancedCommerceInfo`, if it has one.
    init?(_ payload: Payload) {
      guard let info = payload.nested("advancedCommerceInfo") else { return nil }
      let names = info.nested("descriptors")
      requestReferenceID = info.string("requestReferenceId") ?? ""
      estimatedTax = info.price("estimatedTax") ?? 0
      taxRate = info.string("taxRate").flatMap { Decimal(string: $0) } ?? 0
      taxCode = info.string("taxCode") ?? ""
      taxExclusivePrice = info.price("taxExclusivePrice") ?? 0
      description = names?.string("description")
      displayName = names?.string("displayName")
      period = info.string("period").flatMap(Product.SubscriptionPeriod.init(iso8601:))
      items = info.objects("items").map { item in
        let refunds = item.objects("refunds").map { refund in
          Item.Refund(
            reason: .init(rawValue: refund.string("refundReason") ?? "OTHER"),
            type: .init(rawValue: refund.string("refundType") ?? "FULL"),
            date: refund.date("refundDate") ?? Date(timeIntervalSince1970: 0),
            amount: refund.price("refundAmount") ?? 0)
        }
        return Item(
          details: Item.Details(item), refunds: refunds.isEmpty ? nil : refunds,
          revocationDate: item.date("revocationDate"))
      }
    }
  }
}

extension Transaction.AdvancedCommerceInfo.Item.Details {
  /// An item of a payload (a transaction's or a renewal info's).
  init(_ item: Payload) {
    let offer = item.nested("offer").flatMap {
      offer -> Transaction.AdvancedCommerceInfo.Item.Offer? in
      guard let period = offer.string("period").flatMap(Product.SubscriptionPeriod.init(iso8601:))
      else { return nil }
      return .init(
        price: offer.price("price") ?? 0, period: period,
        periodCount: offer.int("periodCount") ?? 1,
        reason: .init(rawValue: offer.string("reason") ?? "ACQUISITION"))
    }
    self.init(
      sku: item.string("SKU") ?? "", displayName: item.string("displayName") ?? "",
      description: item.string("description") ?? "", offer: offer, price: item.price("price") ?? 0)
  }
}

extension Product.SubscriptionInfo.RenewalInfo {
  /// What an Advanced Commerce subscription renews (`advancedCommerceInfo`), with the token a
  /// request that changes it quotes.
  public struct AdvancedCommerceInfo: Equatable, Hashable, Sendable {
    /// The value a change quotes as `consistencyToken`: a new one after every change.
    public let consistencyToken: String
    /// The `requestReferenceId` of the request that last changed what renews.
    public let requestReferenceID: String
    /// The tax code.
    public let taxCode: String
    /// What the customer sees of it.
    public let description: String
    /// Its name for the customer.
    public let displayName: String
    /// The billing period that renews.
    public let period: Product.SubscriptionPeriod
    /// The items that renew.
    public let items: [Item]

    /// An item that renews.
    public struct Item: Equatable, Hashable, Sendable {
      /// The SKU as the requests named it.
      public let details: Transaction.AdvancedCommerceInfo.Item.Details
    }

    /// The terms of a payload's `advancedCommerceInfo`, if it has one.
    init?(_ payload: Payload) {
      guard let info = payload.nested("advancedCommerceInfo") else { return nil }
      let names = info.nested("descriptors")
      consistencyToken = info.string("consistencyToken") ?? ""
      requestReferenceID = info.string("requestReferenceId") ?? ""
      taxCode = info.string("taxCode") ?? ""
      description = names?.string("description") ?? ""
      displayName = names?.string("displayName") ?? ""
      period =
        info.string("period").flatMap(Product.SubscriptionPeriod.init(iso8601:))
        ?? Product.SubscriptionPeriod(iso8601: "P1M")!
      items = info.objects("items").map { Item(details: .init($0)) }
    }
  }
}
