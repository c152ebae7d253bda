import Foundation
package import StoreSimulation

/// A product configured as a generic SKU in App Store Connect for the Advanced Commerce API
/// (`set advanced-commerce <productID> subscription|one-time` in the session). What it sells
/// comes from a request the app's server signs; `purchase(compactJWS:options:)` hands it to the
/// App Store.
public struct AdvancedCommerceProduct: Identifiable, Sendable {
  /// The generic product ID.
  public typealias ID = Product.ID
  /// The kind of product: an auto-renewable subscription or a one-time charge's.
  public typealias ProductType = Product.ProductType
  /// A purchase option (an app account token; the request names the rest).
  public typealias PurchaseOption = Product.PurchaseOption
  /// What a purchase gave.
  public typealias PurchaseResult = Product.PurchaseResult

  /// The generic product ID.
  public let id: ID
  /// The type of the product.
  public let type: ProductType

  /// The generic product of an ID.
  ///
  /// - Throws: `StoreKitError.unsupported` when the session has not declared it a generic
  ///   Advanced Commerce product (an ordinary In-App Purchase).
  public init(id: ID) async throws {
    let kind = Store.current.read { session in
      session.catalog.index(of: id).map { index in
        (session.catalog.commerceKinds[index], session.catalog.products[index].type)
      }
    }
    guard let (declared, type) = kind, declared != nil else { throw StoreKitError.unsupported }
    self.id = id
    self.type = ProductType(type)
  }

  /// Buys what the signed request names: a subscription of items, a one-time charge, a
  /// modification or a reactivation of the customer's subscription. There is no confirmation
  /// sheet on Linux: the customer confirms at once.
  ///
  /// - Throws: ``InvalidRequestError`` (Apple's Advanced Commerce code and why) for a request
  ///   StoreKit refuses, `Product.PurchaseError` or ``StoreKitError`` as StoreKit throws them.
  @MainActor
  public func purchase(
    compactJWS: String, options: Set<PurchaseOption> = []
  ) async throws -> PurchaseResult {
    let store = Store.current
    return try store.purchase(id, options: options, origin: .app, advancedCommerce: compactJWS)
  }

  /// ``purchase(compactJWS:options:)`` with StoreKit's confirmation anchor (a view controller
  /// or a window), which Linux has none of: it is not used.
  @MainActor
  public func purchase<Anchor: AnyObject>(
    compactJWS: String, confirmIn anchor: Anchor, options: Set<PurchaseOption> = []
  ) async throws -> PurchaseResult {
    try await purchase(compactJWS: compactJWS, options: options)
  }
}

/// A request the App Store refused: Apple's Advanced Commerce error code and its words.
public struct InvalidRequestError: Error, Sendable {
  /// Apple's `errorCode` (4000082: a stale consistency token).
  public let code: Int64
  /// What is wrong, for a person.
  public let message: String
}

extension InvalidRequestError {
  /// The error of a rule the engine refused a request by.
  package init(_ refusal: CommerceRefusal) {
    self.init(
      code: Int64(refusal.rule.appleCode),
      message: "\(refusal.rule.appleMessage) \(refusal.message)")
  }
}
