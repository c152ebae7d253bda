import Crypto
import Foundation
import StoreJSON
import StoreSimulation

extension Signer {
  /// The namespace of a session's notification UUIDs: this signer's bundle id and environment
  /// and the session's identity (a journal's session id, or its start and configuration).
  public func notificationNamespace(session identity: String) -> String {
    "\(bundleID)|\(environment.rawValue)|\(identity)"
  }

  /// The notification as the App Store POSTs it: `{"signedPayload": "<JWS>"}`, the JWS holding a
  /// `ResponseBodyV2DecodedPayload` with the transaction and renewal info it carries, signed at
  /// its moment.
  public func signedBody(_ notification: ServerNotification) throws -> String {
    JSONWriter.compact(
      .object(JSONObject([JSONMember("signedPayload", .string(try signedPayload(notification)))])))
  }

  /// The notification signed: the JWS its body carries as `signedPayload`.
  public func signedPayload(_ notification: ServerNotification) throws -> String {
    var payload = JSONObject()
    payload["notificationType"] = .string(notification.type)
    if let subtype = notification.subtype { payload["subtype"] = .string(subtype) }
    payload["notificationUUID"] = .string(notification.uuid)
    if let summary = notification.summary {
      payload["summary"] = .object(
        JSONObject([
          JSONMember("environment", .string(environment.rawValue)),
          JSONMember("bundleId", .string(bundleID)),
          JSONMember("productId", .string(summary.productID)),
          JSONMember("requestIdentifier", .string(summary.requestIdentifier)),
          JSONMember(
            "storefrontCountryCodes", .array(summary.storefrontCountryCodes.map { .string($0) })),
          JSONMember("succeededCount", .number(JSONNumber(summary.succeededCount))),
          JSONMember("failedCount", .number(JSONNumber(summary.failedCount))),
        ]))
    } else if case .externalPurchaseToken(let token)? = notification.notice {
      // No appAppleId: the test environments have no App Store app (Apple's key, as in data).
      var object = JSONObject([
        JSONMember("externalPurchaseId", .string(externalPurchaseID(token, of: notification))),
        JSONMember("tokenCreationDate", milliseconds(token.creationDate)),
        JSONMember("bundleId", .string(bundleID)),
      ])
      if let type = token.tokenType { object["tokenType"] = .string(type.rawValue) }
      if let expiration = token.expirationDate {
        object["tokenExpirationDate"] = milliseconds(expiration)
      }
      payload["externalPurchaseToken"] = .object(object)
    } else if notification.notice == .consentRescinded {
      payload["appData"] = .object(
        JSONObject([
          JSONMember("bundleId", .string(bundleID)),
          JSONMember("environment", .string(environment.rawValue)),
          JSONMember(
            "signedAppTransactionInfo",
            .string(try signAppTransaction(signedDate: notification.time, for: .server))),
        ]))
    } else {
      payload["data"] = .object(try data(of: notification))
    }
    if let unclaimed = notification.unclaimedSeatIDs {
      payload["unclaimInfo"] = .object(
        JSONObject([JSONMember("unclaimSeatIds", .array(unclaimed.map { .string($0) }))]))
    }
    payload["version"] = .string("2.0")
    payload["signedDate"] = .number(JSONNumber(text: String(notification.time.milliseconds)))
    return try sign(payload: .object(payload))
  }

  /// The `data` object: app metadata, the signed transaction and renewal info, the status.
  private func data(of notification: ServerNotification) throws -> JSONObject {
    var data = JSONObject()
    data["environment"] = .string(environment.rawValue)
    data["bundleId"] = .string(bundleID)
    data["bundleVersion"] = .string("1")
    if let transaction = notification.transaction {
      data["signedTransactionInfo"] = .string(
        try sign(transaction, signedDate: notification.time, for: .server))
    }
    if let status = notification.status {
      data["signedRenewalInfo"] = .string(
        try sign(status, signedDate: notification.time, for: .server))
      data["status"] = .number(JSONNumber(status.state.statusNumber))
    }
    if let reason = notification.consumptionRequestReason {
      let name: String =
        switch reason {
        case .unintendedPurchase: "UNINTENDED_PURCHASE"
        case .fulfillmentIssue: "FULFILLMENT_ISSUE"
        case .unsatisfiedWithPurchase: "UNSATISFIED_WITH_PURCHASE"
        case .legal: "LEGAL"
        case .other: "OTHER"
        }
      data["consumptionRequestReason"] = .string(name)
    }
    return data
  }

  /// A token's `externalPurchaseId`: the one the command gave, else one made from the
  /// notification's identity, starting with `SANDBOX_` as Apple's sandbox tokens do (Apple's
  /// libraries read a token's environment from that prefix; no environment here is production).
  func externalPurchaseID(
    _ token: ExternalPurchaseToken, of notification: ServerNotification
  )
    -> String
  {
    if let id = token.externalPurchaseID { return id }
    return "SANDBOX_" + nameBasedUUID("external-purchase-token|\(notification.uuid)")
  }

  /// A `TEST` notification.
  public func testBody(at time: Instant) throws -> String {
    let notification = ServerNotification(
      type: "TEST", subtype: nil, time: time,
      uuid: nameBasedUUID(notificationNamespace(session: "test") + "|\(time.milliseconds)"))
    return try signedBody(notification)
  }
}
