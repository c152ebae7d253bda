public import Foundation
public import StorekeeperKit

/// The purchase options of tests (StoreKitTest's extension of `Product.PurchaseOption`).
extension Product.PurchaseOption {
  /// What a back-dated subscription does after its first period.
  public enum SubscriptionRenewalBehavior: Codable, Hashable, Sendable {
    /// It renews up to now.
    case renewUntilNow
    /// It stops after one period (auto-renew off).
    case cancelImmediately
  }

  /// Redeems a promotional offer by its identifier, signed on the test's behalf.
  public static func promotionalOffer(id identifier: String) -> Product.PurchaseOption {
    Product.PurchaseOption(key: "promotionalOfferId", value: .string(identifier))
  }

  /// Redeems an offer code by its reference name.
  public static func codeOffer(referenceName: String) -> Product.PurchaseOption {
    Product.PurchaseOption(key: "codeOffer", value: .string(referenceName))
  }

  /// Back-dates the purchase; a subscription renews up to now, or stops after one period.
  public static func purchaseDate(
    _ date: Date, renewalBehavior: SubscriptionRenewalBehavior = .renewUntilNow
  ) -> Product.PurchaseOption {
    Product.PurchaseOption(
      key: "purchaseDate",
      value: .backdated(date, renewsUntilNow: renewalBehavior == .renewUntilNow))
  }
}
