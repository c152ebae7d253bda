/// What the App Store remembers about a session besides its transactions, for its server API:
/// when each refund request came, the consumption information a server sent about it, and each
/// mass extension's result.
struct ServerRecords {
  var refundRequests: [UInt64: Int64] = [:]
  var consumption: [UInt64: ConsumptionInformation] = [:]
  /// The nonces of offer signatures StoreKit accepted (lowercased): each is good once.
  var spentOfferNonces: Set<String> = []
}

/// A mass extension's identity: its product and request identifier.
struct MassExtensionKey: Hashable {
  var productID: String
  var requestIdentifier: String
}

/// What an app's server told the App Store about a consumable or subscription a customer asked
/// to refund ("Send Consumption Information"), field by field as sent.
public struct ConsumptionInformation: Equatable, Sendable {
  /// One field: Apple's name and its value as text.
  public struct Field: Equatable, Sendable {
    /// Apple's field name, such as `deliveryStatus`.
    public var name: String
    /// Its value as text.
    public var value: String

    /// A field.
    public init(name: String, value: String) {
      self.name = name
      self.value = value
    }
  }

  /// Apple's field names, v1's and v2's, in the order fields are kept.
  public static let fieldNames = [
    "customerConsented", "consumptionStatus", "consumptionPercentage", "platform",
    "sampleContentProvided", "deliveryStatus", "appAccountToken", "accountTenure", "playTime",
    "lifetimeDollarsRefunded", "lifetimeDollarsPurchased", "userStatus", "refundPreference",
  ]

  /// The fields, in the order sent.
  public var fields: [Field]
  /// When it arrived.
  public var date: Instant

  /// The information.
  public init(fields: [Field], date: Instant) {
    self.fields = fields
    self.date = date
  }
}

/// A finished "Extend Subscription Renewal Dates for All Active Subscribers" request, as "Get
/// Status of Subscription Renewal Date Extensions" reports it.
public struct MassExtension: Equatable, Sendable {
  /// What it did.
  public var summary: RenewalExtensionSummary
  /// When it completed (the session applies it at once).
  public var completeDate: Instant
}

extension Session {
  /// How long after a refund request the App Store takes consumption information ("Send
  /// Consumption Information": within 12 hours of the `CONSUMPTION_REQUEST`), in simulated time,
  /// not scaled by the time rate (it is the App Store's deadline, not a subscription period).
  public static let consumptionWindow: Int64 = 12 * 3_600_000

  /// When the customer's refund request for a transaction came, while it waits.
  public func refundRequestDate(of id: UInt64) -> Instant? {
    guard let position = ledger.position(of: id),
      ledger[position].flags.contains(.refundRequested),
      let stamp = serverRecords.refundRequests[id]
    else { return nil }
    return Instant(milliseconds: stamp)
  }

  /// The consumption information a server sent about a transaction, if any.
  public func consumption(of id: UInt64) -> ConsumptionInformation? {
    serverRecords.consumption[id]
  }

  /// The result of a mass extension, if one of that product and request identifier ran.
  public func massExtension(productID: String, requestIdentifier: String) -> MassExtension? {
    storage.massExtensions[
      MassExtensionKey(productID: productID, requestIdentifier: requestIdentifier)]
  }

  /// The app's server answers a `CONSUMPTION_REQUEST` ("Send Consumption Information"): the
  /// fields are recorded for the transaction, and the refund stays for Apple (``refund(_:reason:share:_:)``
  /// or ``declineRefund(_:_:)``) to decide.
  ///
  /// - Throws: ``SessionError`` when no refund request for it is waiting, or it came more than
  ///   12 hours ago.
  public mutating func reportConsumption(
    _ id: UInt64, fields: [ConsumptionInformation.Field], _ sink: EventSink
  ) throws(SessionError) {
    try check(.reportConsumption(id, fields: fields))
    let information = ConsumptionInformation(fields: fields, date: now)
    serverRecords.consumption[id] = information
    emit(.consumptionReported(transactionID: id, information), at: now.milliseconds, sink)
    settle(sink)
  }

  func checkConsumption(_ id: UInt64) throws(SessionError) {
    let position = try requireTransaction(id)
    guard ledger[position].flags.contains(.refundRequested),
      let requested = serverRecords.refundRequests[id]
    else {
      throw SessionError(.noConsumptionRequest(transaction: id))
    }
    guard now.milliseconds - requested <= Self.consumptionWindow else {
      throw SessionError(.consumptionRequestTooOld(transaction: id))
    }
  }

  /// Sets the app account token of every transaction of a purchase (all that share its
  /// original transaction), as "Set App Account Token" does: later payloads carry it, renewals
  /// to come included; `nil` removes it.
  ///
  /// - Throws: ``SessionError`` when there is no such transaction, it is a family member's, it
  ///   is not the purchase's original transaction, or it was never paid.
  public mutating func setAppAccountToken(
    _ id: UInt64, token: String?, _ sink: EventSink
  ) throws(SessionError) {
    try check(.setAppAccountToken(id, token: token))
    let original = ledger[try requireTransaction(id)].originalID
    var latest = -1
    for position in 0..<ledger.records.count
    where !ledger[position].isDeleted && ledger[position].originalID == original {
      ledger.setAppAccountToken(token, at: position)
      latest = position
    }
    if latest >= 0 { emitTransaction(latest, delivery: nil, at: now.milliseconds, sink) }
    settle(sink)
  }

  func checkAppAccountToken(_ id: UInt64) throws(SessionError) {
    let position = try requirePurchasersTransaction(id)
    let record = ledger[position]
    // Apple's Set App Account Token takes the purchase's original transaction id.
    guard record.originalID == id else {
      throw SessionError(.notOriginalTransaction(transaction: id, original: record.originalID))
    }
    guard !record.flags.contains(.pendingApproval), !record.flags.contains(.declined),
      ledger.details(of: record)?.failure == nil
    else {
      throw SessionError(.neverPaidFor(transaction: id))
    }
  }
}
