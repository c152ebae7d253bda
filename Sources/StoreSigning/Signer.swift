import Crypto
import Foundation
import StoreJSON
import StoreSimulation

/// Signs what StoreKit signs: transactions (`JWSTransactionDecodedPayload`), renewal infos
/// (`JWSRenewalInfoDecodedPayload`), the app transaction, and server notifications — with the
/// payload keys and encodings of Apple's App Store Server Library (milliseconds since the epoch,
/// prices in milliunits, enums as Apple's integers and strings).
public struct Signer: Sendable {
  /// The payloads' environment.
  public enum Environment: String, Sendable, CaseIterable {
    /// Xcode's test environment (`AppStore.Environment.xcode`).
    case xcode = "Xcode"
    /// The App Store Server Library's unit-testing environment.
    case localTesting = "LocalTesting"
    /// The sandbox: for the three-certificate chain, so servers verify for real.
    case sandbox = "Sandbox"
  }

  /// Who a payload is signed for: the app on a device, or a server.
  public enum Audience: Sendable {
    /// StoreKit on the device (`jwsRepresentation`, `AppTransaction.shared`): payloads carry
    /// `deviceVerification` and `deviceVerificationNonce`, the app transaction `requestDate`.
    case device
    /// App Store Server Notifications and the App Store Server API: Apple's server payloads
    /// carry no device fields (its library's models and samples).
    case server
  }

  /// The keys and certificates.
  public let identity: SigningIdentity
  /// The payloads' `environment`.
  public let environment: Environment
  /// The app's bundle id.
  public let bundleID: String
  /// The device identifier (a UUID) receipts' SHA-1 hash is computed with
  /// (`identifierForVendor`); by default one derived from the bundle id.
  public var deviceID: String

  /// The bundle id used when none is given.
  public static let defaultBundleID = PurchaseOptions.defaultBundleID

  /// A signer.
  public init(
    identity: SigningIdentity, environment: Environment, bundleID: String = defaultBundleID
  ) {
    self.identity = identity
    self.environment = environment
    self.bundleID = bundleID
    deviceID = stableUUID("device \(bundleID)").uppercased()
  }

  /// The transaction's `jwsRepresentation` (or, for a server, its `signedTransactionInfo`),
  /// signed at `signedDate`.
  public func sign(
    _ transaction: Transaction, signedDate: Instant, for audience: Audience = .device
  ) throws -> String {
    try sign(payload: transactionPayload(transaction, signedDate: signedDate, for: audience))
  }

  /// The renewal info's `jwsRepresentation` (or, for a server, its `signedRenewalInfo`),
  /// signed at `signedDate`.
  public func sign(
    _ status: SubscriptionStatus, signedDate: Instant, for audience: Audience = .device
  ) throws -> String {
    try sign(payload: renewalPayload(status, signedDate: signedDate, for: audience))
  }

  /// The app transaction (`AppTransaction.shared`, or for a server its
  /// `signedAppTransactionInfo`), signed at `signedDate`.
  ///
  /// - Parameter appTransactionID: the account's id when it is not the one it makes (an
  ///   imported customer's, Apple's).
  public func signAppTransaction(
    signedDate: Instant, for audience: Audience = .device, account: Account = .purchaser,
    appTransactionID: String? = nil
  ) throws -> String {
    try sign(
      payload: appTransactionPayload(
        signedDate: signedDate, for: audience, account: account,
        appTransactionID: appTransactionID))
  }

  /// `AppTransaction`'s payload (``signAppTransaction(signedDate:for:account:appTransactionID:)``
  /// signs it).
  public func appTransactionPayload(
    signedDate: Instant, for audience: Audience = .device, account: Account = .purchaser,
    appTransactionID: String? = nil
  ) -> JSONValue {
    var payload = JSONObject()
    payload["receiptType"] = .string(environment.rawValue)
    payload["bundleId"] = .string(bundleID)
    payload["applicationVersion"] = .string("1")
    payload["originalApplicationVersion"] = .string("1")
    payload["originalPurchaseDate"] = .number(JSONNumber(text: "-62135769600000"))
    payload["receiptCreationDate"] = milliseconds(signedDate)
    if audience == .device { payload["requestDate"] = milliseconds(signedDate) }
    payload["appTransactionId"] = .string(appTransactionID ?? account.appTransactionID)
    payload["originalPlatform"] = .string("iOS")
    if audience == .device {
      let seed = account == .purchaser ? "app" : "app-\(account.appTransactionID)"
      payload["deviceVerification"] = .string(deviceVerification(seed: seed))
      payload["deviceVerificationNonce"] = .string(stableUUID("\(seed)-nonce"))
    }
    return .object(payload)
  }

  /// Signs any JSON payload (server notifications).
  public func sign(payload: JSONValue) throws -> String {
    try JSONWriter.withCompact(payload) { try JWS.sign(payload: $0, with: identity) }
  }

  /// A payload's JWS without a signature (``JWS/unsigned(payload:header:)``).
  public func unsigned(payload: JSONValue) -> String {
    JWS.unsigned(payload: Array(JSONWriter.compact(payload).utf8), header: identity)
  }

  /// `JWSTransactionDecodedPayload`.
  public func transactionPayload(
    _ t: Transaction, signedDate: Instant, for audience: Audience = .device
  ) -> JSONValue {
    var p = JSONObject()
    p["transactionId"] = .string(String(t.id))
    p["originalTransactionId"] = .string(String(t.originalID))
    if let line = t.webOrderLineItemID { p["webOrderLineItemId"] = .string(line) }
    p["bundleId"] = .string(bundleID)
    p["productId"] = .string(t.productID)
    if let group = t.subscriptionGroupID { p["subscriptionGroupIdentifier"] = .string(group) }
    p["purchaseDate"] = milliseconds(t.purchaseDate)
    p["originalPurchaseDate"] = milliseconds(t.originalPurchaseDate)
    if let expiration = t.expirationDate { p["expiresDate"] = milliseconds(expiration) }
    p["quantity"] = .number(JSONNumber(t.purchasedQuantity))
    p["type"] = .string(Self.typeName(t.productType))
    if let token = t.appAccountToken { p["appAccountToken"] = .string(token) }
    p["inAppOwnershipType"] = .string(t.ownership.rawValue)
    p["signedDate"] = milliseconds(signedDate)
    if let date = t.revocationDate { p["revocationDate"] = milliseconds(date) }
    if let reason = t.revocationReason {
      p["revocationReason"] = .number(JSONNumber(reason == .developerIssue ? 1 : 0))
    }
    if let type = t.revocationType {
      p["revocationType"] = .string(Self.revocationTypeName(type))
    }
    if let share = t.revocationPercentage {
      p["revocationPercentage"] = .number(JSONNumber(share))
    }
    if t.isUpgraded { p["isUpgraded"] = .bool(true) }
    if let offer = t.offer { offerFields(offer, into: &p) }
    p["environment"] = .string(environment.rawValue)
    p["transactionReason"] = .string(t.reason == .renewal ? "RENEWAL" : "PURCHASE")
    p["storefront"] = .string(t.storefront)
    p["storefrontId"] = .string(t.storefrontID)
    p["price"] = .number(JSONNumber(text: String(t.price)))
    p["currency"] = .string(t.currency)
    if let seats = t.seats { seatFields(seats, of: t, into: &p) }
    if let terms = t.advancedCommerce { p["advancedCommerceInfo"] = terms.payload() }
    p["appTransactionId"] = .string(t.appTransactionID)
    if let plan = t.billingPlanType { p["billingPlanType"] = .string(plan.rawValue) }
    if let commitment = t.commitment {
      p["commitmentInfo"] = .object(
        JSONObject([
          JSONMember("billingPeriodNumber", .number(JSONNumber(commitment.billingPeriodNumber))),
          JSONMember("commitmentExpiresDate", milliseconds(commitment.expirationDate)),
          JSONMember("commitmentPrice", .number(JSONNumber(text: String(commitment.price)))),
          JSONMember("totalBillingPeriods", .number(JSONNumber(commitment.totalBillingPeriods))),
        ]))
    }
    if audience == .device {
      p["deviceVerification"] = .string(deviceVerification(seed: "transaction-\(t.id)"))
      p["deviceVerificationNonce"] = .string(stableUUID("transaction-\(t.id)"))
    }
    return .object(p)
  }

  /// `JWSRenewalInfoDecodedPayload`.
  public func renewalPayload(
    _ status: SubscriptionStatus, signedDate: Instant, for audience: Audience = .device
  ) -> JSONValue {
    let info = status.renewalInfo
    var p = JSONObject()
    if let reason = info.expirationReason {
      p["expirationIntent"] = .number(JSONNumber(reason.appleIntent))
    }
    p["originalTransactionId"] = .string(String(info.originalTransactionID))
    p["autoRenewProductId"] = .string(info.autoRenewPreference)
    p["productId"] = .string(info.currentProductID)
    p["autoRenewStatus"] = .number(JSONNumber(info.willAutoRenew ? 1 : 0))
    p["isInBillingRetryPeriod"] = .bool(info.isInBillingRetry)
    if let increase = info.priceIncreaseStatus.appleNumber {
      p["priceIncreaseStatus"] = .number(JSONNumber(increase))
    }
    if let grace = info.gracePeriodExpirationDate {
      p["gracePeriodExpiresDate"] = milliseconds(grace)
    }
    if let offer = info.offer { offerFields(offer, into: &p) }
    p["signedDate"] = milliseconds(signedDate)
    p["environment"] = .string(environment.rawValue)
    p["recentSubscriptionStartDate"] = milliseconds(info.recentSubscriptionStartDate)
    if let date = info.renewalDate { p["renewalDate"] = milliseconds(date) }
    if let price = info.renewalPrice {
      p["renewalPrice"] = .number(JSONNumber(text: String(price)))
    }
    p["currency"] = .string(info.currency)
    if !info.eligibleWinBackOfferIDs.isEmpty {
      p["eligibleWinBackOfferIds"] = .array(info.eligibleWinBackOfferIDs.map { .string($0) })
    }
    if let token = info.appAccountToken { p["appAccountToken"] = .string(token) }
    if let seats = info.renewalSeats {
      p["renewalQuantity"] = .number(JSONNumber(seats))
      let tiers = info.renewalSeatTiers.map { ($0.price, $0.quantity) }
      p["multiSeatInfo"] = .object(
        JSONObject([JSONMember("renewalPriceTiers", Self.priceTiers(tiers))]))
    }
    if let terms = info.advancedCommerce {
      p["advancedCommerceInfo"] = terms.payload(
        renewalToken: info.consistencyToken ?? "", renewal: true)
    }
    p["appTransactionId"] = .string(status.appTransactionID)
    if let plan = info.billingPlanType { p["renewalBillingPlanType"] = .string(plan.rawValue) }
    if let commitment = info.commitment {
      p["commitmentInfo"] = .object(
        JSONObject([
          JSONMember("commitmentAutoRenewProductId", .string(commitment.autoRenewProductID)),
          JSONMember(
            "commitmentAutoRenewStatus", .number(JSONNumber(commitment.willAutoRenew ? 1 : 0))),
          JSONMember(
            "commitmentRenewalBillingPlanType",
            .string(commitment.renewalBillingPlanType.rawValue)),
          JSONMember("commitmentRenewalDate", milliseconds(commitment.renewalDate)),
          JSONMember(
            "commitmentRenewalPrice", .number(JSONNumber(text: String(commitment.renewalPrice)))),
        ]))
    }
    if audience == .device {
      let seed = "renewal-\(info.originalTransactionID)"
      p["deviceVerification"] = .string(deviceVerification(seed: seed))
      p["deviceVerificationNonce"] = .string(stableUUID(seed))
    }
    return .object(p)
  }

  /// A multiseat transaction's fields: `price` the average of a seat, `multiSeatInfo` (its
  /// invitation hosting, price tiers in milliunits, refunded seats) and, in a period seats were
  /// added in, `additionalTransactionReason`.
  private func seatFields(_ seats: TransactionSeats, of t: Transaction, into p: inout JSONObject) {
    let quantity = max(1, t.purchasedQuantity)
    p["price"] = .number(JSONNumber(text: String(t.price / Int64(quantity))))
    var info = JSONObject([
      JSONMember("invitationManagement", .string(seats.invitations.rawValue)),
      JSONMember("priceTiers", Self.priceTiers(seats.tiers.map { ($0.price, $0.quantity) })),
    ])
    if let revoked = seats.revoked {
      info["revokedSeatQuantity"] = .number(JSONNumber(revoked))
    }
    p["multiSeatInfo"] = .object(info)
    if seats.seatAddition { p["additionalTransactionReason"] = .string("SEAT_ADDITION") }
  }

  /// `MultiSeatPriceTier`s: `tierPrice` (milliunits) and `tierQuantity`.
  static func priceTiers(_ tiers: [(price: Int64, quantity: Int)]) -> JSONValue {
    .array(
      tiers.map { tier in
        .object(
          JSONObject([
            JSONMember("tierPrice", .number(JSONNumber(text: String(tier.price)))),
            JSONMember("tierQuantity", .number(JSONNumber(tier.quantity))),
          ]))
      })
  }

  /// Apple's `revocationType`.
  static func revocationTypeName(_ type: RevocationType) -> String {
    switch type {
    case .refundFull: "REFUND_FULL"
    case .refundProrated: "REFUND_PRORATED"
    case .familyRevoke: "FAMILY_REVOKE"
    case .assignmentRevoke: "ASSIGNMENT_REVOKE"
    }
  }

  private func offerFields(_ offer: TransactionOffer, into p: inout JSONObject) {
    p["offerType"] = .number(JSONNumber(offer.type.appleNumber))
    if let id = offer.id { p["offerIdentifier"] = .string(id) }
    p["offerDiscountType"] = .string(offer.paymentMode.appleName)
    if let period = offer.period { p["offerPeriod"] = .string(period.iso8601) }
  }

  static func typeName(_ kind: ProductKind) -> String {
    switch kind {
    case .consumable: "Consumable"
    case .nonConsumable: "Non-Consumable"
    case .nonRenewable: "Non-Renewing Subscription"
    case .autoRenewable: "Auto-Renewable Subscription"
    }
  }

  func milliseconds(_ instant: Instant) -> JSONValue {
    .number(JSONNumber(text: String(instant.milliseconds)))
  }

  /// A stable stand-in for the device verification hash (base64 of 48 bytes).
  private func deviceVerification(seed: String) -> String {
    let digest = SHA384.hash(data: Data((bundleID + seed).utf8))
    return Data(digest).base64EncodedString()
  }
}
