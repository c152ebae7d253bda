public import Foundation

/// The app's own purchase, as the App Store signed it (StoreKit's `AppTransaction`): read from
/// its JWS.
public struct AppTransaction: Sendable {
  /// The JWS payload.
  public var jsonRepresentation: Data { payload.json }
  /// The app's App Store id (none in the test environment).
  public let appID: UInt64?
  /// The app version's id (none in the test environment).
  public let appVersionID: UInt64?
  /// The app's version.
  public let appVersion: String
  /// The app's bundle id.
  public let bundleID: String
  /// The environment that signed it.
  public let environment: AppStore.Environment
  /// The version the customer first bought.
  public let originalAppVersion: String
  /// When the customer first bought the app.
  public let originalPurchaseDate: Date
  /// The platform the customer first bought on.
  public let originalPlatform: AppStore.Platform
  /// When the customer pre-ordered it.
  public let preorderDate: Date?
  /// The device verification hash.
  public let deviceVerification: Data
  /// The nonce of the device verification.
  public let deviceVerificationNonce: UUID
  /// When the App Store signed it.
  public let signedDate: Date

  let payload: Payload
  let jws: String

  init(jws: String) {
    let p = Payload(jws: jws)
    payload = p
    self.jws = jws
    appID = p.string("appAppleId").flatMap { UInt64($0) }
    appVersionID = p.string("versionExternalIdentifier").flatMap { UInt64($0) }
    appVersion = p.string("applicationVersion") ?? "1"
    bundleID = p.string("bundleId") ?? ""
    environment = AppStore.Environment(rawValue: p.string("receiptType") ?? "Xcode")
    originalAppVersion = p.string("originalApplicationVersion") ?? "1"
    originalPurchaseDate = p.date("originalPurchaseDate") ?? Date(timeIntervalSince1970: 0)
    originalPlatform = AppStore.Platform(rawValue: p.string("originalPlatform") ?? "iOS")
    preorderDate = p.date("preorderDate")
    deviceVerification = p.data("deviceVerification")
    deviceVerificationNonce = p.uuid("deviceVerificationNonce") ?? .zero
    signedDate = p.date("receiptCreationDate") ?? Date(timeIntervalSince1970: 0)
  }

  /// The app transaction's id.
  public var appTransactionID: String { payload.string("appTransactionId") ?? "0" }

  /// When the App Store revoked the app (never, in the test environment).
  public var revocationDate: Date? { payload.date("revocationDate") }

  /// The kind of store the app was bought in (always a consumer's, in the test environment).
  public var storeType: StoreType {
    StoreType(rawValue: payload.string("storeType") ?? StoreType.consumer.rawValue)
  }

  /// A kind of store.
  public struct StoreType: RawRepresentable, Equatable, Hashable, Sendable {
    /// Its name.
    public let rawValue: String
    /// A store type of this name.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The App Store customers buy in.
    public static let consumer = StoreType(rawValue: "consumer")
    /// Apple School Manager's store.
    public static let education = StoreType(rawValue: "education")
    /// Apple Business Manager's store.
    public static let enterprise = StoreType(rawValue: "enterprise")
  }

  /// The platform's name.
  @available(*, deprecated, message: "Use the originalPlatform property instead")
  public var originalPlatformStringRepresentation: String { originalPlatform.rawValue }

  /// The app transaction, signed now.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `appTransaction`).
  public static var shared: VerificationResult<AppTransaction> {
    get async throws { try await refresh() }
  }

  /// The app transaction, fetched again.
  ///
  /// - Throws: ``StoreKitError`` (a simulated error of `appTransaction`).
  public static func refresh() async throws -> VerificationResult<AppTransaction> {
    let store = Store.current
    try store.call(.appTransaction)
    return store.appTransaction()
  }

  /// Every app transaction of the customer's account: the one app transaction of the session,
  /// signed when the sequence is read.
  public static var all: AppTransactions { AppTransactions(store: Store.current) }

  /// The app transactions, as an asynchronous sequence.
  public struct AppTransactions: AsyncSequence, Sendable {
    /// An app transaction.
    public typealias Element = VerificationResult<AppTransaction>
    /// Never fails.
    public typealias Failure = Never
    let store: Store

    /// Waits for each change of the app transaction.
    public struct AsyncIterator: AsyncIteratorProtocol {
      let store: Store
      var done = false
      /// The next app transaction.
      public mutating func next() async -> Element? {
        guard !done else { return nil }
        done = true
        return store.appTransaction()
      }
    }

    /// An iterator that starts at the next change.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(store: store) }
  }
}

extension AppTransaction: Equatable, Hashable {
  /// Two app transactions are equal when their payloads are.
  public static func == (lhs: AppTransaction, rhs: AppTransaction) -> Bool {
    lhs.jsonRepresentation == rhs.jsonRepresentation
  }

  /// Hashes the payload.
  public func hash(into hasher: inout Hasher) { hasher.combine(jsonRepresentation) }
}

extension AppTransaction: CustomDebugStringConvertible {
  /// The payload's JSON.
  public var debugDescription: String { String(decoding: jsonRepresentation, as: UTF8.self) }
}

extension AppTransaction: StoreKitSignedValue {
  /// The compact JWS.
  public var _jwsRepresentation: String { jws }
}
