public import Foundation

extension Product {
  /// An option of a purchase (StoreKit's `Product.PurchaseOption`): made with its factories.
  public struct PurchaseOption: Equatable, Hashable, Sendable, CustomDebugStringConvertible {
    /// A custom option's value.
    package enum Value: Equatable, Hashable, Sendable {
      case string(String)
      case number(Double)
      case flag(Bool)
      case data(Data)
      case backdated(Date, renewsUntilNow: Bool)
    }

    /// The option's key (StoreKit's wire names where it has them) and value.
    package let key: String
    package let value: Value
    /// `onStorefrontChange`'s decision (not compared).
    let storefrontChange: StorefrontChange?

    package init(key: String, value: Value) {
      self.key = key
      self.value = value
      storefrontChange = nil
    }

    private init(storefrontChange: @escaping @Sendable (Storefront) -> Bool) {
      key = "onStorefrontChange"
      value = .flag(true)
      self.storefrontChange = StorefrontChange(decide: storefrontChange)
    }

    /// `key: value`.
    public var debugDescription: String { "\(key): \(value)" }

    /// Two options are equal when their keys and values are.
    public static func == (lhs: PurchaseOption, rhs: PurchaseOption) -> Bool {
      lhs.key == rhs.key && lhs.value == rhs.value
    }

    /// Hashes the key and value.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(key)
      hasher.combine(value)
    }

    struct StorefrontChange: Sendable {
      let decide: @Sendable (Storefront) -> Bool
    }

    /// The app's account token for the customer (a UUID), carried by the transaction.
    public static func appAccountToken(_ token: UUID) -> PurchaseOption {
      PurchaseOption(key: "appAccountToken", value: .string(token.uuidString))
    }

    /// How many to buy (consumables).
    public static func quantity(_ quantity: Int) -> PurchaseOption {
      PurchaseOption(key: "quantity", value: .number(Double(quantity)))
    }

    /// Ask to Buy in the sandbox (the test environment uses `SKTestSession.askToBuyEnabled`).
    public static func simulatesAskToBuyInSandbox(_ simulateAskToBuy: Bool) -> PurchaseOption {
      PurchaseOption(key: "simulatesAskToBuyInSandbox", value: .flag(simulateAskToBuy))
    }

    /// Whether to go on with a purchase when the storefront changes during it.
    @preconcurrency
    public static func onStorefrontChange(
      shouldContinuePurchase: @escaping @Sendable (Storefront) -> Bool
    ) -> PurchaseOption {
      PurchaseOption(storefrontChange: shouldContinuePurchase)
    }

    /// A promotional offer signed by the app's server (StoreKit 1's signature).
    @available(
      *, deprecated,
      message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead"
    )
    public static func promotionalOffer(
      offerID: String, keyID: String, nonce: UUID, signature: Data, timestamp: Int
    ) -> PurchaseOption {
      let fields = [
        offerID, keyID, nonce.uuidString, signature.base64EncodedString(), String(timestamp),
      ]
      return PurchaseOption(
        key: "promotionalOfferV1", value: .string(fields.joined(separator: "\n")))
    }

    /// A promotional offer signed by the app's server.
    @available(
      *, deprecated,
      message: "Sign promotional offers with JWS and use promotionalOffer(_:compactJWS:) instead"
    )
    public static func promotionalOffer(
      offerID: String, signature: SubscriptionOffer.Signature
    ) -> PurchaseOption {
      promotionalOffer(
        offerID: offerID, keyID: signature.keyID, nonce: signature.nonce,
        signature: signature.signature, timestamp: signature.timestamp)
    }

    /// A promotional offer signed by the app's server as a JWS.
    public static func promotionalOffer(_ offerID: String, compactJWS: String) -> [PurchaseOption] {
      [
        .custom(key: "adHocOfferId", value: offerID),
        .custom(key: "adHocSignature", value: Data(compactJWS.utf8).base64EncodedString()),
      ]
    }

    /// The app server's decision on introductory-offer eligibility, as a JWS.
    public static func introductoryOfferEligibility(compactJWS: String) -> PurchaseOption {
      .custom(key: "introOfferEligibilityParam", value: compactJWS)
    }

    /// The billing plan to buy (iOS 26.4): `.monthly`, a payment each month of a 12-month
    /// commitment, or `.upFront`.
    public static func billingPlanType(
      _ type: Product.SubscriptionInfo.BillingPlanType
    ) -> PurchaseOption {
      .custom(key: "billingPlanType", value: type.rawValue)
    }

    /// A win-back offer the customer is eligible for.
    public static func winBackOffer(_ offer: SubscriptionOffer) -> PurchaseOption {
      PurchaseOption(key: "winBackOfferId", value: .string(offer.id ?? ""))
    }

    /// A custom option.
    public static func custom(key: String, value: String) -> PurchaseOption {
      PurchaseOption(key: key, value: .string(value))
    }

    /// A custom option.
    public static func custom(key: String, value: Double) -> PurchaseOption {
      PurchaseOption(key: key, value: .number(value))
    }

    /// A custom option.
    public static func custom(key: String, value: Bool) -> PurchaseOption {
      PurchaseOption(key: key, value: .flag(value))
    }

    /// A custom option.
    public static func custom(key: String, value: Data) -> PurchaseOption {
      PurchaseOption(key: key, value: .data(value))
    }
  }
}
