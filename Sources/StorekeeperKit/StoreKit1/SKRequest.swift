public import Foundation

/// What a request tells its delegate (StoreKit's `SKRequestDelegate`); both methods are
/// optional, as in Objective-C.
public protocol SKRequestDelegate: AnyObject {
  /// The request finished (after its response, for a products request).
  func requestDidFinish(_ request: SKRequest)
  /// The request failed; nothing else is told.
  func request(_ request: SKRequest, didFailWithError error: any Error)
}

extension SKRequestDelegate {
  /// Nothing, unless the delegate says otherwise.
  public func requestDidFinish(_ request: SKRequest) {}
  /// Nothing, unless the delegate says otherwise.
  public func request(_ request: SKRequest, didFailWithError error: any Error) {}
}

/// A request to the App Store (StoreKit's `SKRequest`): ``start()`` sends it; its delegate hears
/// the answer on the main queue. A started request keeps itself alive until it is answered.
///
/// `@unchecked Sendable`: its mutable state is used only under `lock`.
open class SKRequest: NSObject, @unchecked Sendable {
  private let lock = NSLock()
  private weak var storedDelegate: (any SKRequestDelegate)?
  private var isCancelled = false

  /// Who hears the answer (not retained). A products request's delegate is an
  /// ``SKProductsRequestDelegate``.
  open var delegate: (any SKRequestDelegate)? {
    get { lock.withLock { storedDelegate } }
    set { lock.withLock { storedDelegate = newValue } }
  }

  /// Sends the request.
  open func start() {
    lock.withLock { isCancelled = false }
    let store = Store.current
    DispatchQueue.main.async { [self] in
      guard !lock.withLock({ isCancelled }) else { return }
      answer(from: store)
    }
  }

  /// Cancels a request not yet answered: its delegate hears nothing.
  open func cancel() { lock.withLock { isCancelled = true } }

  /// Answers the request from `store`, on the main queue (each kind of request its own way).
  func answer(from store: Store) { delegate?.requestDidFinish(self) }
}

/// What a products request tells its delegate (StoreKit's `SKProductsRequestDelegate`).
public protocol SKProductsRequestDelegate: SKRequestDelegate {
  /// The App Store's answer: the products it has, and the identifiers it does not know.
  func productsRequest(_ request: SKProductsRequest, didReceive response: SKProductsResponse)
}

/// A request for products by identifier (StoreKit's `SKProductsRequest`).
/// `@unchecked Sendable`: its identifiers are a constant; the rest is `SKRequest`'s, locked.
open class SKProductsRequest: SKRequest, @unchecked Sendable {
  /// The identifiers asked for.
  let productIdentifiers: Set<String>

  /// A request for the products of these identifiers.
  public init(productIdentifiers: Set<String>) {
    self.productIdentifiers = productIdentifiers
  }

  /// A request for no products, as Apple's inherits `NSObject`'s `init()` (a test double's
  /// subclass starts from it): its answer has no products and no invalid identifiers.
  public override init() {
    productIdentifiers = []
  }

  override func answer(from store: Store) {
    let answer = Result { try store.products(productIdentifiers) }
    switch answer {
    case .success(let products):
      let found = Set(products.map(\.id))
      let response = SKProductsResponse(
        products: products.map(SKProduct.init),
        invalidProductIdentifiers: productIdentifiers.subtracting(found).sorted())
      (delegate as? any SKProductsRequestDelegate)?.productsRequest(self, didReceive: response)
      delegate?.requestDidFinish(self)
    case .failure(let error):
      delegate?.request(self, didFailWithError: error)
    }
  }
}

/// The App Store's answer to a products request (StoreKit's `SKProductsResponse`): open, with
/// overridable properties, as Apple's is, so tests may mock it or fill an empty one by
/// key-value coding. `@unchecked Sendable`: its values change only by key-value coding, before
/// a test double hands it over.
open class SKProductsResponse: NSObject, _SKKeyValueCoding, @unchecked Sendable {
  private var answer: (products: [SKProduct], invalid: [String])

  /// An empty answer, for a subclass to describe.
  public override init() {
    answer = ([], [])
    super.init()
  }

  init(products: [SKProduct], invalidProductIdentifiers: [String]) {
    answer = (products, invalidProductIdentifiers)
    super.init()
  }

  /// The products the App Store has, in the configuration's order.
  open var products: [SKProduct] { answer.products }
  /// The identifiers it has no available product for, sorted.
  open var invalidProductIdentifiers: [String] { answer.invalid }

  /// Stores a value by Apple's property name.
  public func _setKeyed(_ value: Any?, forKey key: String) -> Bool {
    let given = KeyedValue(value, key: key, of: self)
    switch key {
    case "products": answer.products = given.optional([SKProduct].self) ?? []
    case "invalidProductIdentifiers": answer.invalid = given.optional([String].self) ?? []
    default: return false
    }
    return true
  }

  /// A property's value by Apple's name.
  public func _keyed(_ key: String) -> Any?? {
    switch key {
    case "products": products
    case "invalidProductIdentifiers": invalidProductIdentifiers
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

/// `receiptProperties` key: ask the sandbox for an expired receipt (sandbox only; the test
/// environment ignores it, as Xcode's does).
public let SKReceiptPropertyIsExpired = "expired"
/// `receiptProperties` key: ask the sandbox for a revoked receipt (sandbox only).
public let SKReceiptPropertyIsRevoked = "revoked"
/// `receiptProperties` key: ask the sandbox for a volume-purchase receipt (sandbox only).
public let SKReceiptPropertyIsVolumePurchase = "vpp"

/// A request for a fresh app receipt (StoreKit's `SKReceiptRefreshRequest`): the session signs
/// one (`call receipt`) and writes it where `Bundle.main.appStoreReceiptURL` points.
/// `@unchecked Sendable`: its properties are constants (the rest is `SKRequest`'s).
open class SKReceiptRefreshRequest: SKRequest, @unchecked Sendable {
  private let properties: [String: Any]?

  /// The properties asked for (sandbox only).
  open var receiptProperties: [String: Any]? { properties }

  /// A request for the current receipt (a designated initializer, as Apple's inherits
  /// `NSObject`'s: a test double's `override init()` calls it).
  public override init() { properties = nil }

  /// A request with sandbox properties (ignored here).
  public init(receiptProperties properties: [String: Any]?) {
    self.properties = properties
  }

  override func answer(from store: Store) {
    do {
      try store.refreshReceipt()
      delegate?.requestDidFinish(self)
    } catch {
      delegate?.request(self, didFailWithError: error)
    }
  }
}
