public import Foundation
internal import StoreConfiguration

/// The App Store storefront of the payment queue (StoreKit's `SKStorefront`): open, as Apple's
/// is, so tests may mock it. `@unchecked Sendable`: its values never change after it is made.
open class SKStorefront: NSObject, @unchecked Sendable {
  private let codes: (countryCode: String, identifier: String)

  /// An empty storefront, for a subclass to describe.
  public override init() {
    codes = ("", "")
    super.init()
  }

  init(_ storefront: StoreConfiguration.Storefront) {
    codes = (storefront.countryCode, storefront.id)
    super.init()
  }

  /// The storefront's ISO 3166-1 alpha-3 code (`USA`).
  open var countryCode: String { codes.countryCode }
  /// Apple's identifier of the storefront (`143441` for the United States).
  open var identifier: String { codes.identifier }

  /// Storefronts with the same identifier are equal.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? SKStorefront)?.identifier == identifier
  }

  /// The identifier's hash.
  open override var hash: Int { identifier.hashValue }
}
