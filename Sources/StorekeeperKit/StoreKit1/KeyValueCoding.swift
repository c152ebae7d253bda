import Foundation

/// Key-value coding for StoreKit 1's objects, as Objective-C gives Apple's: test doubles fill an
/// empty `SKProduct()` or `SKPaymentTransaction()` with `setValue(_:forKey:)` under the names
/// of Apple's Objective-C properties (`productIdentifier`, `transactionState`,
/// `originalTransaction` …), and read them back with `value(forKey:)`. Linux's `NSObject` has
/// no key-value coding, so each class answers its own keys; an unknown key stops the test with
/// the key and the class, as Apple's `NSUnknownKeyException` does.
///
/// Values are taken as Objective-C would hand them over: an enumeration by its raw value, a
/// number as any integer, `Bool`, `Double` or `NSNumber`, a price as `NSDecimalNumber`,
/// `Decimal`, a number or a decimal string, a locale as `Locale` or `NSLocale`.
struct KeyedValue {
  let value: Any?
  let key: String
  let owner: AnyObject

  init(_ value: Any?, key: String, of owner: AnyObject) {
    self.value = KeyedValue.unwrapped(value)
    self.key = key
    self.owner = owner
  }

  /// `nil` for a value that is `nil` however deeply it is wrapped (`map["x"] as Any`).
  private static func unwrapped(_ value: Any?) -> Any? {
    guard let value else { return nil }
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else { return value }
    return unwrapped(mirror.children.first?.value)
  }

  /// Stops the test: the value cannot be this key's.
  func mismatch(_ expected: String) -> Never {
    preconditionFailure(
      "setValue(_:forKey: \"\(key)\") on \(type(of: owner)): expected \(expected), got "
        + (value.map { "\(type(of: $0)) \($0)" } ?? "nil"))
  }

  /// A string (`nil` stores an empty one, as a nil Objective-C string reads in Swift).
  func string() -> String { optional(String.self) ?? "" }

  /// An optional value of `type`.
  func optional<Value>(_ type: Value.Type) -> Value? {
    guard let value else { return nil }
    if let typed = value as? Value { return typed }
    if Value.self == String.self, let text = value as? NSString { return String(text) as? Value }
    mismatch("\(Value.self)")
  }

  /// A value of `type` that cannot be `nil` (Apple raises `setNilValueForKey:` for a scalar).
  func required<Value>(_ type: Value.Type) -> Value {
    guard value != nil else { mismatch("a \(Value.self), not nil") }
    return optional(type)!
  }

  /// An integer, from any integer type, `Bool`, `Double` or `NSNumber`.
  func integer() -> Int {
    switch value {
    case let number as Int: number
    case let number as UInt: Int(number)
    case let number as Int32: Int(number)
    case let number as Int64: Int(number)
    case let number as Bool: number ? 1 : 0
    case let number as Double: Int(number)
    case let number as NSNumber: number.intValue
    default: mismatch("an integer")
    }
  }

  /// A Boolean, from `Bool` or a number.
  func bool() -> Bool { (value as? Bool) ?? (integer() != 0) }

  /// An enumeration by its raw value (or the case itself).
  func raw<Value: RawRepresentable>(_ type: Value.Type) -> Value
  where Value.RawValue: FixedWidthInteger {
    if let typed = value as? Value { return typed }
    guard let found = Value(rawValue: Value.RawValue(truncatingIfNeeded: integer())) else {
      mismatch("a raw value of \(Value.self)")
    }
    return found
  }

  /// A price: `NSDecimalNumber`, `Decimal`, a number or a decimal string (`nil` is zero).
  func decimal() -> NSDecimalNumber {
    switch value {
    case nil: .zero
    case let number as NSDecimalNumber: number
    case let number as Decimal: NSDecimalNumber(decimal: number)
    case let text as String: decimal(text)
    case let number as Double: NSDecimalNumber(value: number)
    default: NSDecimalNumber(value: integer())
    }
  }

  private func decimal(_ text: String) -> NSDecimalNumber {
    guard let number = Decimal(string: text) else { mismatch("a decimal number") }
    return NSDecimalNumber(decimal: number)
  }

  /// A locale: `Locale` or `NSLocale` (`nil` keeps `en_US`).
  func locale() -> Locale {
    switch value {
    case nil: Locale(identifier: "en_US")
    case let locale as Locale: locale
    case let locale as NSLocale: locale as Locale
    default: mismatch("a Locale")
    }
  }
}

/// Stops the test on a key the class does not have, as `NSUnknownKeyException` does.
func unknownKey(_ key: String, of owner: AnyObject) -> Never {
  preconditionFailure(
    "\(type(of: owner)) is not key value coding-compliant for the key \"\(key)\" "
      + "(NSUnknownKeyException)")
}

/// What StoreKit 1's objects implement so that `setValue(_:forKey:)` and `value(forKey:)` take
/// Apple's Objective-C property names (underscored: not Apple's API; call the two methods).
public protocol _SKKeyValueCoding: AnyObject {
  /// Stores `value` as `key`'s; `false` for a key the class does not have.
  func _setKeyed(_ value: Any?, forKey key: String) -> Bool
  /// `key`'s value (`.some(nil)` for a nil one); `nil` for a key the class does not have.
  func _keyed(_ key: String) -> Any??
}

#if !canImport(ObjectiveC)
  extension _SKKeyValueCoding {
    /// Sets one of Apple's Objective-C properties by name, as key-value coding does on Apple's
    /// platforms (``KeyedValue``'s conversions); an unknown key stops the test.
    public func setValue(_ value: Any?, forKey key: String) {
      if !_setKeyed(value, forKey: key) { unknownKey(key, of: self) }
    }

    /// Reads one of Apple's Objective-C properties by name (a subclass's override included);
    /// an unknown key stops the test.
    public func value(forKey key: String) -> Any? {
      guard let found = _keyed(key) else { unknownKey(key, of: self) }
      return found
    }
  }
#endif
