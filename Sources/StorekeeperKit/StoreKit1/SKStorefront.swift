public import Foundation
internal import StoreConfiguration

/// The App Store storefront of the payment queue (StoreKit's `SKStorefront`): open, as Apple's
/// is, so tests may mock it or fill an empty one by key-value coding. `@unchecked Sendable`:
/// its values change only by key-value coding, before a test double hands it over.
open class SKStorefront: NSObject, _SKKeyValueCoding, @unchecked Sendable {
  private var codes: (countryCode: String, identifier: String)

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

  /// Stores a value by Apple's property name.
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "countryCode": codes.countryCode = given.string()
    case "identifier": codes.identifier = given.string()
    default: return false
    }
    return true
  }

  /// A property's value by Apple's name.
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "countryCode": countryCode
    case "identifier": identifier
    default: nil
    }
  }

  #if canImport(ObjectiveC)
    /// Sets one of Apple's Objective-C properties by name (``KeyedValue``'s conversions).
    open override func setValue(_ value: Any?, forKey key: String) {
      if !_setKeyed(value, forKey: key) { super.setValue(value, forKey: key) }
    }
    /// Reads one of Apple's Objective-C properties by name.
    open override func value(forKey key: String) -> Any? { _keyed(key) ?? super.value(forKey: key) }
  #endif
}
