import StoreJSON

/// Everything the App Store Server API says of one customer, every signed value verified and
/// decoded: what `storekeeper import` turns into a journal.
public struct FetchedHistory: Sendable {
  /// One subscription group's latest transaction and renewal info (Get All Subscription
  /// Statuses' `lastTransactions`).
  public struct Status: Sendable {
    /// The group's identifier.
    public var groupID: String
    /// Apple's status: 1 active, 2 expired, 3 billing retry, 4 grace period, 5 revoked.
    public var status: Int
    /// The decoded `signedTransactionInfo`.
    public var transaction: JSONObject
    /// The decoded `signedRenewalInfo`.
    public var renewalInfo: JSONObject
  }

  /// Every transaction of the customer for the app (Get Transaction History v2, revoked and
  /// finished consumables included), oldest purchase first.
  public var transactions: [JSONObject] = []
  /// Each subscription group's state now.
  public var statuses: [Status] = []
  /// Each subscription's latest renewal info (the statuses' in an API import; the newest of
  /// each original transaction among signed files).
  public var renewalInfos: [JSONObject] = []
  /// The refunded transactions (Get Refund History).
  public var refunds: [JSONObject] = []
  /// The notifications the server sent about the customer (Get Notification History), decoded;
  /// `nil` when the server keeps none.
  public var notifications: [JSONObject]?
  /// Why the notification history could not be read (it failed to verify, or the server
  /// refused it): the transactions and states are imported all the same, and this is told.
  public var notificationProblem: String?
  /// The latest `signedDate` of everything read: where the App Store's answer left the clock.
  public var latestSignedDate: Int64 = 0
  /// How many requests it took.
  public var requests = 0
  /// How many bytes the answers held, in all.
  public var bytesRead = 0
  /// How many copies of transactions read more than once were merged (the latest kept).
  public var duplicates = 0
  /// What every signed value must say of where it came from.
  public var source = SourceCheck()
  /// When the whole read must end.
  var deadline: ContinuousClock.Instant?

  /// A history.
  public init() {}

  /// Keeps one copy of each transaction id (the latest signed), in order; counts the others.
  mutating func mergeDuplicateTransactions() {
    var latest: [String: Int] = [:]
    var kept: [JSONObject] = []
    for payload in transactions {
      guard case .string(let id)? = payload["transactionId"] else {
        kept.append(payload)
        continue
      }
      if let index = latest[id] {
        duplicates += 1
        let signed = HistoryFetcher.milliseconds(payload["signedDate"]) ?? 0
        if signed >= HistoryFetcher.milliseconds(kept[index]["signedDate"]) ?? 0 {
          kept[index] = payload
        }
      } else {
        latest[id] = kept.count
        kept.append(payload)
      }
    }
    transactions = kept
  }
}

/// Why an import could not read the customer's history, for a person. It never holds the key's
/// contents or the token.
public struct ImportError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What went wrong and what to do.
  public var description: String
  /// Apple's error code, when the server answered one (4040010: no such transaction).
  public var appleCode: Int?

  /// An error.
  public init(_ description: String, appleCode: Int? = nil) {
    self.description = description
    self.appleCode = appleCode
  }
}
