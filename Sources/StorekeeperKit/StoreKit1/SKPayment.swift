public import Foundation

/// A request to buy a product (StoreKit's `SKPayment`): what ``SKPaymentQueue/add(_:)-(SKPayment)``
/// takes. Change one with ``SKMutablePayment``.
///
/// `@unchecked Sendable` as Apple's is: an `SKPayment` never changes after it is made, and the
/// queue keeps a copy of a mutable payment it is given, so a payment a transaction holds is
/// never changed by anyone.
open class SKPayment: NSObject, NSCopying, NSMutableCopying, _SKKeyValueCoding,
  @unchecked Sendable
{
  struct Values {
    var productIdentifier: String
    var quantity = 1
    var applicationUsername: String?
    var requestData: Data?
    var simulatesAskToBuyInSandbox = false
    var paymentDiscount: SKPaymentDiscount?
  }

  var values: Values

  init(_ values: Values) { self.values = values }

  /// A payment for one of a product.
  public convenience init(product: SKProduct) {
    self.init(Values(productIdentifier: product.productIdentifier))
  }

  /// An empty payment, as `NSObject` makes one: an ``SKMutablePayment`` to fill in
  /// (`SKMutablePayment()`, then its `productIdentifier`).
  public override convenience init() {
    self.init(Values(productIdentifier: ""))
  }

  /// A payment for a product by identifier (deprecated by Apple in favour of `init(product:)`).
  @available(*, deprecated, message: "Use init(product:)")
  open class func payment(withProductIdentifier identifier: String) -> Any {
    SKPayment(Values(productIdentifier: identifier))
  }

  /// The product's identifier.
  open var productIdentifier: String { values.productIdentifier }
  /// How many are bought (1 to 10 for a consumable; 1 otherwise).
  open var quantity: Int { values.quantity }
  /// An opaque identifier of the customer's account in the app; a UUID becomes StoreKit 2's
  /// `appAccountToken`.
  open var applicationUsername: String? { values.applicationUsername }
  /// Reserved by Apple ("must be nil"); not read.
  open var requestData: Data? { values.requestData }
  /// Asks the sandbox to simulate Ask to Buy; the test environment's Ask to Buy switch
  /// (`SKTestSession.askToBuyEnabled`) is what decides here, as in Xcode.
  open var simulatesAskToBuyInSandbox: Bool { values.simulatesAskToBuyInSandbox }
  /// The promotional offer to apply, signed by the app's server.
  open var paymentDiscount: SKPaymentDiscount? { values.paymentDiscount }

  /// An immutable copy.
  open func copy(with zone: NSZone? = nil) -> Any { SKPayment(values) }

  /// A mutable copy (`payment.mutableCopy() as! SKMutablePayment`).
  open func mutableCopy(with zone: NSZone? = nil) -> Any { SKMutablePayment(values) }

  /// Payments with the same product, quantity, username and discount are equal.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? SKPayment else { return false }
    return other.productIdentifier == productIdentifier && other.quantity == quantity
      && other.applicationUsername == applicationUsername
      && other.paymentDiscount == paymentDiscount
  }

  /// The product identifier's hash.
  open override var hash: Int { productIdentifier.hashValue }

  /// Stores a value by Apple's property name (on an `SKPayment` too, as a test double does).
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "productIdentifier": values.productIdentifier = given.string()
    case "quantity": values.quantity = given.integer()
    case "applicationUsername": values.applicationUsername = given.optional(String.self)
    case "requestData": values.requestData = given.optional(Data.self)
    case "simulatesAskToBuyInSandbox": values.simulatesAskToBuyInSandbox = given.bool()
    case "paymentDiscount": values.paymentDiscount = given.optional(SKPaymentDiscount.self)
    default: return false
    }
    return true
  }

  /// A property's value by Apple's name.
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "productIdentifier": productIdentifier
    case "quantity": quantity
    case "applicationUsername": .some(applicationUsername)
    case "requestData": .some(requestData)
    case "simulatesAskToBuyInSandbox": simulatesAskToBuyInSandbox
    case "paymentDiscount": .some(paymentDiscount)
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

/// A payment whose fields can be set before it is added to the queue (StoreKit's
/// `SKMutablePayment`). `@unchecked Sendable` as Apple's is: change it before adding it, from
/// one thread; the queue keeps an immutable copy.
open class SKMutablePayment: SKPayment, @unchecked Sendable {
  /// The product's identifier.
  open override var productIdentifier: String {
    get { values.productIdentifier }
    set { values.productIdentifier = newValue }
  }
  /// How many are bought.
  open override var quantity: Int {
    get { values.quantity }
    set { values.quantity = newValue }
  }
  /// An opaque identifier of the customer's account in the app.
  open override var applicationUsername: String? {
    get { values.applicationUsername }
    set { values.applicationUsername = newValue }
  }
  /// Reserved by Apple.
  open override var requestData: Data? {
    get { values.requestData }
    set { values.requestData = newValue }
  }
  /// Asks the sandbox to simulate Ask to Buy.
  open override var simulatesAskToBuyInSandbox: Bool {
    get { values.simulatesAskToBuyInSandbox }
    set { values.simulatesAskToBuyInSandbox = newValue }
  }
  /// The promotional offer to apply.
  open override var paymentDiscount: SKPaymentDiscount? {
    get { values.paymentDiscount }
    set { values.paymentDiscount = newValue }
  }
}

/// A promotional offer's signature from the app's server, applied to a payment (StoreKit's
/// `SKPaymentDiscount`): checked as StoreKit checks it, against the configuration's
/// `subscriptionOffersKeyPair`. Open, as Apple's is. `@unchecked Sendable`: its values never
/// change after it is made.
open class SKPaymentDiscount: NSObject, @unchecked Sendable {
  private let signed: (identifier: String, keyIdentifier: String, nonce: UUID, signature: String)
  private let signedAt: NSNumber

  /// A discount as the server signed it.
  public init(
    identifier: String, keyIdentifier: String, nonce: UUID, signature: String,
    timestamp: NSNumber
  ) {
    signed = (identifier, keyIdentifier, nonce, signature)
    signedAt = timestamp
    super.init()
  }

  /// The promotional offer's identifier.
  open var identifier: String { signed.identifier }
  /// The identifier of the key that signed it (App Store Connect's key id).
  open var keyIdentifier: String { signed.keyIdentifier }
  /// The one-use value the server signed.
  open var nonce: UUID { signed.nonce }
  /// The DER ECDSA signature, base64.
  open var signature: String { signed.signature }
  /// When it was signed, in milliseconds since 1970.
  open var timestamp: NSNumber { signedAt }

  /// Discounts with the same fields are equal.
  open override func isEqual(_ object: Any?) -> Bool {
    guard let other = object as? SKPaymentDiscount else { return false }
    return other.identifier == identifier && other.keyIdentifier == keyIdentifier
      && other.nonce == nonce && other.signature == signature
      && other.timestamp == timestamp
  }

  /// The nonce's hash.
  open override var hash: Int { nonce.hashValue }
}
