import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest

/// A session over a bundled configuration with a clock the test moves.
func makeSession(_ name: String = "FoodTruck") throws -> SKTestSession {
  let session = try SKTestSession(
    contentsOf: packageRoot.appendingPathComponent("Configs/\(name).storekit"))
  session.clock = .manual
  session.disableDialogs = true
  return session
}

/// The product of an identifier in the bound session.
func product(_ id: String) async throws -> Product {
  guard let product = try await Product.products(for: [id]).first else {
    throw SKTestError(.invalidProductIdentifier)
  }
  return product
}

/// Buys a product and returns its transaction (verified).
func buy(_ id: String, _ options: Set<Product.PurchaseOption> = []) async throws -> Transaction {
  let result = try await product(id).purchase(options: options)
  guard case .success(let verification) = result else {
    throw SKTestError(
      .invalidAction, userInfo: [NSLocalizedDescriptionKey: "\(id) was not bought: \(result)"])
  }
  return try verification.payloadValue
}
