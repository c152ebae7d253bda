public import Foundation
internal import StoreConfiguration

/// The App Store storefront of the payment queue (StoreKit's `SKStorefront`).
/// `@unchecked Sendable`: its properties are constants.
public final class SKStorefront: NSObject, @unchecked Sendable {
  /// The storefront's ISO 3166-1 alpha-3 code (`USA`).
  public let countryCode: String
  /// Apple's identifier of the storefront (`143441` for the United States).
  public let identifier: String

  init(_ storefront: StoreConfiguration.Storefront) {
    countryCode = storefront.countryCode
    identifier = storefront.id
  }

  /// Storefronts with the same identifier are equal.
  public override func isEqual(_ object: Any?) -> Bool {
    (object as? SKStorefront)?.identifier == identifier
  }

  /// The identifier's hash.
  public override var hash: Int { identifier.hashValue }
}
