import StoreJSON
import StoreSimulation

/// Writes events as JSON lines: one object per line, keys in a fixed order, optional fields
/// omitted rather than null, dates ISO-8601 UTC with milliseconds, enum values as StoreKit 2's
/// case names. Strings are escaped so that the output is safe on a terminal.
public struct EventEncoder: Sendable {
  /// Adds fields to transactions and renewal infos (the signer adds `jwsRepresentation`); it is
  /// told the event's time.
  public typealias Decoration = @Sendable (Decorated, Instant) -> [(String, String)]

  /// What a decoration is asked about.
  public enum Decorated: Sendable {
    /// A transaction's `jwsRepresentation`.
    case transaction(Transaction)
    /// A subscription's renewal info, signed.
    case renewalInfo(SubscriptionStatus)
  }

  /// Adds the signed receipts to a `receipt` event (`receipt`, `transactionReceipt`).
  public typealias ReceiptDecoration = @Sendable (ReceiptContents) -> [(String, String)]

  private let decorate: Decoration?
  private let decorateReceipt: ReceiptDecoration?
  /// The `environment` transactions report: StoreKit's `Xcode`, or what the signer signs for
  /// (`LocalTesting`, `Sandbox` with the local chain).
  private let environment: String
  /// The last day a date was written on: consecutive events mostly share one.
  private var dates = DayCache()

  /// An encoder; `decorate` may add string fields to transactions and renewal infos, and
  /// `receipts` to receipt events.
  public init(
    environment: String = "Xcode", decorate: Decoration? = nil,
    receipts: ReceiptDecoration? = nil
  ) {
    self.environment = environment
    self.decorate = decorate
    self.decorateReceipt = receipts
  }

  /// Whether transactions and renewal infos get fields of the decoration's (signatures: a
  /// line then costs far more than its JSON).
  public var decorates: Bool { decorate != nil }

  /// The event as one JSON line, without the newline.
  public func line(_ event: StoreEvent) -> String {
    var bytes: [UInt8] = []
    var encoder = self
    encoder.append(event, to: &bytes)
    return String(decoding: bytes.dropLast(), as: UTF8.self)
  }

  /// Appends the event's line and a newline to `bytes`.
  public mutating func append(_ event: StoreEvent, to bytes: inout [UInt8]) {
    var writer = ByteWriter()
    append(event, to: &writer)
    writer.withBytes { bytes.append(contentsOf: $0) }
  }

  /// Appends the event's line and a newline to `writer`.
  package mutating func append(_ event: StoreEvent, to writer: inout ByteWriter) {
    var object = ObjectBuilder(taking: writer, dates: dates)
    object.field("time", event.time)
    if let customer = event.customer?.name { object.field("customer", customer) }
    switch event.kind {
    case .transaction(let transaction, let delivery):
      object.field("event", "transaction")
      if let delivery { object.field("delivery", delivery.rawValue) }
      object.nested("transaction") { transactionFields(transaction, time: event.time, &$0) }
    case .status(let status):
      object.field("event", "status")
      statusFields(status, time: event.time, &object)
    case .message(let reason, let productID):
      object.field("event", "message")
      object.field("reason", reason.rawValue)
      if let productID { object.field("productID", productID) }
    case .paymentQueue(let update): paymentQueueFields(update, &object)
    case .purchaseResult(let result): purchaseResultFields(result, &object)
    case .transactionRemoved(let id, let owner):
      object.field("event", "transactionRemoved")
      object.field("id", id)
      if let member = owner.member { object.field("member", member.name) }
    case .revokedEntitlements(let productIDs):
      object.field("event", "revokedEntitlements")
      object.strings("productIDs", productIDs)
    case .restoreCompleted(let count):
      object.field("event", "restoreCompleted")
      object.field("count", Int64(count))
    case .apiCall(let api, let error, let detail):
      object.field("event", "apiCall")
      object.field("api", api.rawValue)
      object.field("result", error == nil ? "success" : "failed")
      if let error { object.nested("error") { errorFields(error, &$0) } }
      if let detail { object.field("detail", detail) }
    case .refundRequested(let id, let reason):
      object.field("event", "refundRequested")
      object.field("transactionID", id)
      object.field("reason", reason.rawValue)
    case .refundDeclined(let id):
      object.field("event", "refundDeclined")
      object.field("transactionID", id)
    case .renewalExtension(let extended): renewalExtensionFields(extended, &object)
    case .renewalExtensionSummary(let summary):
      object.field("event", "renewalExtensionSummary")
      object.field("productID", summary.productID)
      object.field("requestIdentifier", summary.requestIdentifier)
      object.field("succeededCount", Int64(summary.succeededCount))
      object.field("failedCount", Int64(summary.failedCount))
    case .consumptionReported(let id, let information):
      object.field("event", "consumptionReported")
      object.field("transactionID", id)
      object.nested("fields") { fields in
        for field in information.fields { fields.field(named: field.name, field.value) }
      }
    case .receipt(let contents):
      object.field("event", "receipt")
      if let id = contents.transactionID { object.field("transactionID", id) }
      object.strings("inApp", contents.purchases.map { String($0.id) })
      for (key, value) in decorateReceipt?(contents) ?? [] {
        object.field(named: key, value)
      }
    case .notice(let notice): noticeFields(notice, &object)
    case .family(let action): familyFields(action, &object)
    case .retention(let retention): retentionFields(retention, &object)
    case .seatsUnclaimed(let unclaimed):
      object.field("event", "seatsUnclaimed")
      object.field("transactionID", unclaimed.transactionID)
      object.strings("claimIDs", unclaimed.claimIDs)
    }
    dates = object.dates
    writer = object.finishWriter()
    writer.append(0x0A)
  }

  private func paymentQueueFields(_ update: PaymentQueueUpdate, _ object: inout ObjectBuilder) {
    object.field("event", "paymentQueue")
    object.field("productID", update.productID)
    object.field("state", update.state.rawValue)
    if let id = update.transactionID { object.field("transactionID", id) }
    object.field("quantity", Int64(update.quantity))
    if let code = update.error {
      object.nested("error") {
        $0.field("domain", "SKErrorDomain")
        $0.field("code", Int64(code.rawValue))
        $0.field("name", code.name)
      }
    }
  }

  private func purchaseResultFields(_ result: PurchaseResult, _ object: inout ObjectBuilder) {
    object.field("event", "purchaseResult")
    object.field("productID", result.productID)
    object.field("result", result.outcome.rawValue)
    if let id = result.transactionID { object.field("transactionID", id) }
    if let error = result.error {
      object.nested(result.outcome == .success ? "verificationError" : "error") {
        errorFields(error, &$0)
      }
    }
    if let detail = result.detail { object.field("detail", detail) }
  }

  private func renewalExtensionFields(
    _ extended: RenewalExtension, _ object: inout ObjectBuilder
  ) {
    object.field("event", "renewalExtension")
    object.field("originalTransactionID", extended.originalTransactionID)
    object.field("transactionID", extended.transactionID)
    object.field("productID", extended.productID)
    object.field("days", Int64(extended.days))
    object.field("reason", extended.reason.rawValue)
    if let request = extended.requestIdentifier { object.field("requestIdentifier", request) }
    object.field("result", extended.failure == nil ? "extended" : "failed")
    if let date = extended.newExpirationDate { object.field("expirationDate", date) }
    if let failure = extended.failure { object.field("failure", failure.message) }
  }

  private func noticeFields(_ notice: StoreNotice, _ object: inout ObjectBuilder) {
    object.field("event", "notice")
    switch notice {
    case .consentRescinded:
      object.field("notice", "rescindConsent")
    case .externalPurchaseToken(let token):
      object.field("notice", "externalPurchaseToken")
      object.field("reason", token.reason.rawValue)
      if let id = token.externalPurchaseID { object.field("externalPurchaseID", id) }
      object.field("tokenCreationDate", token.creationDate)
      if let type = token.tokenType { object.field("tokenType", type.rawValue) }
      if let expiration = token.expirationDate { object.field("tokenExpirationDate", expiration) }
    }
  }

  private func familyFields(_ action: FamilyAction, _ object: inout ObjectBuilder) {
    object.field("event", "family")
    switch action {
    case .join(let name), .leave(let name):
      object.field("action", action == .join(name) ? "join" : "leave")
      object.field("member", name)
    case .sharing(let productID, let enabled):
      object.field("action", "sharing")
      object.field("productID", productID)
      object.field("shared", enabled)
    }
  }

  /// A server notification as a `notification` event line (without the newline).
  public func notificationLine(
    time: Instant, type: String, subtype: String?, uuid: String, file: String?,
    customer: String? = nil, droppedBecause reason: String? = nil
  ) -> String {
    var object = ObjectBuilder()
    object.field("time", time)
    if let customer { object.field("customer", customer) }
    object.field("event", reason == nil ? "notification" : "notificationDropped")
    object.field("notificationType", type)
    if let subtype { object.field("subtype", subtype) }
    object.field("notificationUUID", uuid)
    if let file { object.field("file", file) }
    if let reason { object.field("reason", reason) }
    return String(decoding: object.finish(), as: UTF8.self)
  }

  /// A command error as an `error` event line (without the newline).
  public func errorLine(_ error: CommandError, time: Instant) -> String {
    var object = ObjectBuilder()
    object.field("time", time)
    object.field("event", "error")
    if let line = error.line { object.field("line", Int64(line)) }
    object.field("command", error.command ?? "")
    object.field("message", error.explanation)
    if !error.suggestions.isEmpty { object.strings("suggestions", error.suggestions) }
    return String(decoding: object.finish(), as: UTF8.self)
  }

  /// The transaction as a JSON object line (for `storekeeper transactions --format json`), with
  /// `extra` string fields at the end.
  public func transactionLine(_ transaction: Transaction, extra: [(String, String)] = []) -> String
  {
    var writer = ByteWriter()
    var encoder = self
    encoder.appendTransaction(transaction, extra: extra, to: &writer)
    return String(decoding: writer.array.dropLast(), as: UTF8.self)
  }

  /// Appends ``transactionLine(_:extra:)`` and a newline to `writer`.
  package mutating func appendTransaction(
    _ transaction: Transaction, extra: [(String, String)] = [], to writer: inout ByteWriter
  ) {
    var object = ObjectBuilder(taking: writer, dates: dates)
    transactionFields(transaction, time: nil, &object)
    for (key, value) in extra { object.field(named: key, value) }
    dates = object.dates
    writer = object.finishWriter()
    writer.append(0x0A)
  }

  /// An Advanced Commerce charge's or renewal's terms: names, period, each item with its
  /// price (and a price change it waits for), the request that made them.
  private func commerceFields(
    _ terms: CommerceTerms, token: String?, _ object: inout ObjectBuilder
  ) {
    object.nested("advancedCommerce") { fields in
      fields.field("displayName", terms.descriptors.displayName)
      fields.field("description", terms.descriptors.description)
      if let period = terms.period { fields.field("period", period.rawValue) }
      fields.strings(
        "items",
        terms.items.map { item in
          var text = "\(item.sku) \(decimalText(item.charged))"
          if let change = item.priceIncrease {
            text += " → \(decimalText(change.price)) \(change.status)"
          }
          if item.revocationDate != nil { text += " revoked" }
          return text
        })
      fields.field("taxCode", terms.taxCode)
      fields.field("requestReferenceId", terms.requestReferenceID)
      if let token { fields.field("consistencyToken", token) }
    }
  }

  private func transactionFields(_ t: Transaction, time: Instant?, _ object: inout ObjectBuilder) {
    object.field("id", t.id)
    object.field("originalID", t.originalID)
    object.field("productID", t.productID)
    object.field("productType", t.productType.rawValue)
    if let group = t.subscriptionGroupID { object.field("subscriptionGroupID", group) }
    object.field("purchaseDate", t.purchaseDate)
    object.field("originalPurchaseDate", t.originalPurchaseDate)
    if let date = t.expirationDate { object.field("expirationDate", date) }
    object.field("purchasedQuantity", Int64(t.purchasedQuantity))
    object.price("price", t.price)
    if let seats = t.seats {
      object.nested("seats") {
        $0.field("invitations", seats.invitations.rawValue)
        $0.strings(
          "tiers", seats.tiers.map { "\($0.quantity) at \(decimalText($0.price))" })
        if let revoked = seats.revoked { $0.field("revokedSeats", Int64(revoked)) }
        if seats.seatAddition { $0.field("seatAddition", true) }
        if seats.isAddition { $0.field("addedSeats", true) }
      }
    }
    if let terms = t.advancedCommerce { commerceFields(terms, token: nil, &object) }
    object.field("currency", t.currency)
    object.field("reason", t.reason.rawValue)
    if let offer = t.offer { offerFields(offer, &object) }
    if let date = t.revocationDate { object.field("revocationDate", date) }
    if let reason = t.revocationReason { object.field("revocationReason", reason.rawValue) }
    if let type = t.revocationType { object.field("revocationType", type.rawValue) }
    if let share = t.revocationPercentage { object.field("revocationPercentage", Int64(share)) }
    if t.hasRefundRequest { object.field("hasRefundRequest", true) }
    if t.isUpgraded { object.field("isUpgraded", true) }
    if let token = t.appAccountToken { object.field("appAccountToken", token) }
    if let plan = t.billingPlanType { object.field("billingPlanType", plan.rawValue) }
    if let commitment = t.commitment {
      object.nested("commitment") {
        $0.field("billingPeriodNumber", Int64(commitment.billingPeriodNumber))
        $0.field("totalBillingPeriods", Int64(commitment.totalBillingPeriods))
        $0.field("expirationDate", commitment.expirationDate)
        $0.price("price", commitment.price)
      }
    }
    if let order = t.orderID { object.field("orderID", order) }
    object.field("environment", environment)
    object.field("storefront", t.storefront)
    object.field("storefrontID", t.storefrontID)
    object.field("ownershipType", t.ownershipType)
    if let member = t.owner.member { object.field("member", member.name) }
    object.field("state", t.state.rawValue)
    object.field("isFinished", t.isFinished)
    if t.hasPurchaseIssue { object.field("hasPurchaseIssue", true) }
    if t.pendingAskToBuyConfirmation { object.field("pendingAskToBuyConfirmation", true) }
    if t.isAskToBuyDeclined { object.field("isAskToBuyDeclined", true) }
    if let failure = t.failure { object.nested("failure") { errorFields(failure, &$0) } }
    if let error = t.verificationError {
      object.nested("verificationError") { errorFields(error, &$0) }
    }
    if let time, let decorate {
      for (key, value) in decorate(.transaction(t), time) { object.field(named: key, value) }
    }
  }

  private func statusFields(
    _ status: SubscriptionStatus, time: Instant, _ object: inout ObjectBuilder
  ) {
    object.field("groupID", status.groupID)
    if let member = status.owner.member { object.field("member", member.name) }
    object.field("state", status.state.rawValue)
    object.field("transactionID", status.transactionID)
    if let date = status.billingRetryExpirationDate {
      object.field("billingRetryExpirationDate", date)
    }
    let info = status.renewalInfo
    object.nested("renewalInfo") { renewal in
      renewal.field("originalTransactionID", info.originalTransactionID)
      renewal.field("currentProductID", info.currentProductID)
      renewal.field("autoRenewPreference", info.autoRenewPreference)
      renewal.field("willAutoRenew", info.willAutoRenew)
      if let reason = info.expirationReason { renewal.field("expirationReason", reason.rawValue) }
      renewal.field("isInBillingRetry", info.isInBillingRetry)
      if let date = info.gracePeriodExpirationDate {
        renewal.field("gracePeriodExpirationDate", date)
      }
      renewal.field("priceIncreaseStatus", info.priceIncreaseStatus.rawValue)
      if let offer = info.offer { offerFields(offer, &renewal) }
      if let date = info.renewalDate { renewal.field("renewalDate", date) }
      renewal.field("recentSubscriptionStartDate", info.recentSubscriptionStartDate)
      if let price = info.renewalPrice { renewal.price("renewalPrice", price) }
      if let seats = info.renewalSeats { renewal.field("renewalQuantity", Int64(seats)) }
      if let terms = info.advancedCommerce {
        commerceFields(terms, token: info.consistencyToken, &renewal)
      }
      renewal.field("currency", info.currency)
      if !info.eligibleWinBackOfferIDs.isEmpty {
        renewal.strings("eligibleWinBackOfferIDs", info.eligibleWinBackOfferIDs)
      }
      if let token = info.appAccountToken { renewal.field("appAccountToken", token) }
      if let plan = info.billingPlanType {
        renewal.field("renewalBillingPlanType", plan.rawValue)
      }
      if let commitment = info.commitment {
        renewal.nested("commitment") {
          $0.field("autoRenewPreference", commitment.autoRenewProductID)
          $0.field("willAutoRenew", commitment.willAutoRenew)
          $0.field("renewalBillingPlanType", commitment.renewalBillingPlanType.rawValue)
          $0.field("renewalDate", commitment.renewalDate)
          $0.price("renewalPrice", commitment.renewalPrice)
        }
      }
      for (key, value) in decorate?(.renewalInfo(status), time) ?? [] {
        renewal.field(named: key, value)
      }
    }
  }

  private func offerFields(_ offer: TransactionOffer, _ object: inout ObjectBuilder) {
    object.field("offerType", offer.type.rawValue)
    if let id = offer.id { object.field("offerID", id) }
    object.field("offerPaymentMode", offer.paymentMode.rawValue)
    if let period = offer.period { object.field("offerPeriod", period.iso8601) }
  }

  private func errorFields(_ error: SimulatedError, _ object: inout ObjectBuilder) {
    object.field("type", error.typeName)
    object.field("case", error.name)
  }
}

/// Milliunits as the shortest exact decimal: 9990 → `9.99`, 13900000 → `13900`, 500 → `0.5`.
public func decimalText(_ milliunits: Int64) -> String {
  let sign = milliunits < 0 ? "-" : ""
  let magnitude = milliunits.magnitude
  let whole = magnitude / 1000
  var fraction = String(magnitude % 1000 + 1000).dropFirst()
  while fraction.last == "0" { fraction = fraction.dropLast() }
  return fraction.isEmpty ? "\(sign)\(whole)" : "\(sign)\(whole).\(fraction)"
}
