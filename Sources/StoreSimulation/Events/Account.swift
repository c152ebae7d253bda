/// An Apple Account that holds the app: the purchaser (the session's customer), and later the
/// members of the purchaser's family.
public enum Account: Hashable, Sendable {
  /// The customer who buys.
  case purchaser

  /// `appTransactionId`: one per account per app, the same in the app transaction, every
  /// transaction and renewal info of the account, and accepted by the App Store Server API
  /// wherever it takes any of the customer's transaction ids. A decimal number, as Apple's
  /// are; the purchaser's is `704000000000000001` [unverified: Xcode's environment says `0`].
  public var appTransactionID: String {
    switch self {
    case .purchaser: "704000000000000001"
    }
  }
}
