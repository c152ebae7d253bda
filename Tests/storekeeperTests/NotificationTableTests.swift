import Foundation
import StoreTestSupport
import Testing

/// Every notification type and subtype Storekeeper sends (the table in the signing docs),
/// driven through the binary, decoded by Apple's App Store Server Library in Sandbox (local
/// chain), Xcode and LocalTesting, and checked field by field against Apple's definitions.
@Suite(.serialized) struct NotificationTableTests {
  static let configuration = fixtures.appendingPathComponent("Notifications.storekit").path
  static let start = "2026-11-22T02:00:00Z"
  static let token = "9f1c5e2a-8b5d-4c1e-9a7b-1d2e3f4a5b6c"

  /// The scenarios, each a script on `Notifications.storekit`.
  static let scenarios: [(name: String, script: String)] = [
    (
      "plans",
      """
      buy asn.basic.monthly token=\(token)
      advance 65s
      auto-renew last off
      auto-renew last on
      buy asn.basic.yearly
      buy asn.basic.monthly
      buy asn.basic.monthly offer=code:"Free Month"
      buy asn.pro.monthly
      buy asn.pro.monthly.alt
      buy asn.basic.monthly offer=promo:asn.basic.promo
      buy asn.pro.monthly.alt
      buy asn.pro.monthly offer=promo:asn.pro.promo
      """
    ),
    (
      "lapse",
      """
      buy asn.basic.monthly
      auto-renew last off
      advance 60s
      buy asn.basic.monthly offer=winback:asn.basic.winback
      """
    ),
    (
      "redeemed",
      """
      buy asn.basic.monthly offer=code:"Free Month"
      """
    ),
    (
      "billing",
      """
      set billing-retry on
      set grace-period on
      buy asn.pro.monthly
      advance next
      advance next
      resolve last
      set grace-period off
      advance next
      advance next
      """
    ),
    (
      "price",
      """
      buy asn.pro.monthly
      price-increase request last
      price-increase consent last
      advance next
      price-increase request last
      price-increase decline last
      advance next
      """
    ),
    (
      "refunds",
      """
      buy asn.gems quantity=3
      refund-request last reason=unintendedPurchase
      refund-decline last
      refund-request last reason=unsatisfiedWithPurchase
      refund last percentage=40
      refund-reverse last
      buy asn.lifetime
      buy asn.season
      buy asn.basic.monthly
      refund-request last reason=fulfillmentIssue
      refund last reason=developerIssue
      """
    ),
    (
      "extensions",
      """
      buy asn.pro.monthly
      extend last days=30 reason=serviceIssueOrOutage
      extend-all asn.pro.monthly days=5 reason=customerSatisfaction request=outage-1
      extend-all asn.pro.monthly days=5 request=outage-2
      """
    ),
    (
      "one-time offers",
      """
      buy asn.gems quantity=2 offer=code:"Gems Half Price"
      buy asn.lifetime offer=code:"Lifetime Free"
      """
    ),
    (
      "notices",
      """
      notify rescind-consent
      advance 1d
      notify external-purchase-token unreported
      notify external-purchase-token created
      notify external-purchase-token active-token-reminder id=SANDBOX_fixed-token creation=2026-10-01T00:00:00Z
      notify external-purchase-token active-token-reminder type=acquisition expiration=2027-01-31T00:00:00Z
      """
    ),
    (
      "multiseat",
      """
      set invitations developer
      buy asn.pro.monthly seats=2
      seats last:asn.pro.monthly 4
      seats last:asn.pro.monthly 3
      seat-claim last:asn.pro.monthly request=00000000-0000-4000-8000-000000000001
      seat-claim last:asn.pro.monthly request=00000000-0000-4000-8000-000000000002
      seat-claim last:asn.pro.monthly request=00000000-0000-4000-8000-000000000003
      seat-claim last:asn.pro.monthly request=00000000-0000-4000-8000-000000000004
      refund last:asn.pro.monthly seats=1
      """
    ),
    (
      "members",
      """
      set invitations apple
      buy asn.pro.monthly seats=3
      group invite ann
      group invite bob
      group remove bob
      renew asn.pro.monthly
      """
    ),
    (
      "family",
      """
      family join Anna
      buy asn.pro.monthly
      buy asn.lifetime
      advance 65s
      family join Ben
      family leave Anna
      family sharing asn.pro.monthly off
      refund last:asn.lifetime reason=developerIssue
      """
    ),
  ]

  /// Each account's `appTransactionId`: the purchaser's, then the members' in joining order.
  static let appTransactionIDs = [
    "PURCHASED": "704000000000000001", "Anna": "704000000000000002", "Ben": "704000000000000003",
  ]

  /// What one scenario produced: the event stream and the notifications' bodies, in order.
  struct Outcome {
    var events: [[String: Any]]
    var bodies: [String]
    var announced: [[String: Any]] {
      events.filter { $0["event"] as? String == "notification" }
    }
  }

  func run(
    _ script: String, _ scratch: SigningScratch, environment: [String], journal: String? = nil,
    configuration: String = Self.configuration
  ) throws -> Outcome {
    let folder = scratch.folder.appendingPathComponent("n-\(UUID().uuidString)")
    var arguments = ["run", configuration, "-", "--notifications", folder.path] + environment
    arguments += journal.map { ["--journal", $0] } ?? ["--start", Self.start]
    let result = try scratch.run(arguments, stdin: script + "\n")
    try #require(result.status == 0, "\(result.stderr)")
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    let bodies = try files.map {
      try String(contentsOf: folder.appendingPathComponent($0), encoding: .utf8)
    }
    return Outcome(events: try jsonLines(result.stdout), bodies: bodies)
  }

  /// Decodes with Apple's library and checks what every notification must say.
  func decode(
    _ outcome: Outcome, environment: String, root: URL?,
    sourceLocation: SourceLocation = #_sourceLocation
  ) throws -> [[String: Any]] {
    let decoded = try verifyWithAppleLibrary(outcome.bodies, environment: environment, root: root)
    try #require(decoded.count == outcome.announced.count, sourceLocation: sourceLocation)
    var checked: [[String: Any]] = []
    for (verified, line) in zip(decoded, outcome.announced) {
      let name = "\(line["notificationType"] ?? "")-\(line["subtype"] ?? "")"
      var entry = verified
      if line["notificationType"] as? String == "EXTERNAL_PURCHASE_TOKEN"
        && environment != "Sandbox"
      {
        // Apple's library reads a token's environment from its id: Sandbox (a `SANDBOX` id) or
        // Production, never Xcode or LocalTesting. Its refusal, and what it decoded before.
        #expect(entry["error"] as? String == "INVALID_ENVIRONMENT", "\(name): \(entry)")
        entry = try #require(entry["decoded"] as? [String: Any], "\(name): \(entry)")
      }
      checked.append(entry)
      #expect(entry["error"] == nil, "\(name): \(entry)", sourceLocation: sourceLocation)
      #expect(entry["notificationType"] as? String == line["notificationType"] as? String)
      #expect(entry["subtype"] as? String == line["subtype"] as? String)
      #expect(entry["notificationUUID"] as? String == line["notificationUUID"] as? String)
      #expect(entry["version"] as? String == "2.0")
      #expect(entry["signedDate"] as? Int == milliseconds(line["time"]))
      if let summary = entry["summary"] as? [String: Any] {
        #expect(entry["data"] == nil, "\(name) carries data beside its summary")
        #expect(summary["environment"] as? String == environment)
        #expect(summary["bundleId"] as? String == "com.example.storekeeper")
        continue
      }
      if let token = entry["externalPurchaseToken"] as? [String: Any] {
        #expect(entry["data"] == nil && entry["appData"] == nil, "\(name) carries data")
        #expect(token["bundleId"] as? String == "com.example.storekeeper")
        #expect((token["externalPurchaseId"] as? String)?.hasPrefix("SANDBOX") == true)
        #expect(token["tokenCreationDate"] is Int, "\(name)")
        continue
      }
      if let app = entry["appData"] as? [String: Any] {
        #expect(entry["data"] == nil, "\(name) carries data beside its appData")
        #expect(app["environment"] as? String == environment && app["bundleId"] != nil)
        let transaction = try #require(app["appTransaction"] as? [String: Any], "\(name)")
        #expect(transaction["bundleId"] as? String == "com.example.storekeeper")
        #expect(transaction["receiptType"] as? String == environment, "\(transaction)")
        #expect(transaction["appTransactionId"] as? String == "704000000000000001")
        continue
      }
      let data = try #require(entry["data"] as? [String: Any], "\(name) has no data")
      #expect(data["environment"] as? String == environment, "\(name)")
      #expect(data["bundleId"] as? String == "com.example.storekeeper")
      #expect(data["bundleVersion"] as? String == "1")
      if let transaction = data["transaction"] as? [String: Any] {
        #expect(transaction["environment"] as? String == environment)
        // Apple's server payloads carry no device fields.
        #expect(transaction["deviceVerification"] == nil, "\(name)")
        #expect(transaction["deviceVerificationNonce"] == nil, "\(name)")
        #expect(transaction["signedDate"] as? Int == entry["signedDate"] as? Int)
        let owner = transaction["inAppOwnershipType"] as? String
        if owner == "PURCHASED" {
          #expect(transaction["appTransactionId"] as? String == "704000000000000001", "\(name)")
        } else {
          #expect(owner == "FAMILY_SHARED" || owner == "ASSIGNED", "\(name): \(transaction)")
          #expect(transaction["appTransactionId"] as? String != "704000000000000001", "\(name)")
        }
      }
      if let renewal = data["renewal"] as? [String: Any] {
        #expect(renewal["environment"] as? String == environment)
        // Apple: renewalDate is always present.
        #expect(renewal["renewalDate"] is Int, "\(name): renewal info without renewalDate")
        #expect(data["status"] is Int, "\(name): a renewal info without its status")
        #expect(
          renewal["appTransactionId"] as? String
            == (data["transaction"] as? [String: Any])?["appTransactionId"] as? String, "\(name)")
      }
    }
    return checked
  }

  func milliseconds(_ iso: Any?) -> Int? {
    guard let text = iso as? String else { return nil }
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    return formatter.date(from: text).map { Int(($0.timeIntervalSince1970 * 1000).rounded()) }
  }

  func names(_ decoded: [[String: Any]]) -> [String] {
    decoded.map { entry in
      let type = entry["notificationType"] as? String ?? "?"
      return (entry["subtype"] as? String).map { "\(type)-\($0)" } ?? type
    }
  }

  func data(_ entry: [String: Any]) -> [String: Any] { entry["data"] as? [String: Any] ?? [:] }
  func transaction(_ entry: [String: Any]) -> [String: Any] {
    data(entry)["transaction"] as? [String: Any] ?? [:]
  }
  func renewal(_ entry: [String: Any]) -> [String: Any] {
    data(entry)["renewal"] as? [String: Any] ?? [:]
  }

  // Not parameterized: a cancelled test case would read as passed in the log.
  @Test func everyTypeAndSubtypeDecodesInEveryEnvironmentWithApplesFields() throws {
    var uuids: [String] = []
    for environment in ["Xcode", "LocalTesting", "Sandbox"] {
      let scratch = try SigningScratch()
      defer { try? FileManager.default.removeItem(at: scratch.folder) }
      var options = ["--environment", environment]
      var root: URL?
      if environment == "Sandbox" {
        options = ["--chain"]
        let certificate = try scratch.run(["certificate", "--root"])
        root = scratch.folder.appendingPathComponent("root.pem")
        try Data(certificate.stdout.utf8).write(to: try #require(root))
      }
      var seen: [String: [[String: Any]]] = [:]
      for (name, script) in Self.scenarios {
        let ran = try run(script, scratch, environment: options)
        let decoded = try decode(ran, environment: environment, root: root)
        seen[name] = decoded
        uuids += decoded.compactMap { $0["notificationUUID"] as? String }
        // The event stream names the environment the payloads are signed for.
        for event in ran.events {
          if let t = event["transaction"] as? [String: Any] {
            #expect(t["environment"] as? String == environment)
          }
        }
      }
      try checkPlans(try #require(seen["plans"]))
      try checkLapse(try #require(seen["lapse"]))
      try checkRedeemed(try #require(seen["redeemed"]))
      try checkBilling(try #require(seen["billing"]))
      try checkPrice(try #require(seen["price"]))
      try checkRefunds(try #require(seen["refunds"]))
      try checkExtensions(try #require(seen["extensions"]))
      try checkNotices(try #require(seen["notices"]))
      try checkOneTimeOffers(try #require(seen["one-time offers"]))
      try checkFamily(try #require(seen["family"]))
      try checkMultiseat(try #require(seen["multiseat"]))
      try checkMembers(try #require(seen["members"]))
      try checkNotForSale(scratch, options: options, environment: environment, root: root)
      try checkCommitment(scratch, options: options, environment: environment, root: root)
      let test = try scratch.run(
        ["notify", "test", "--notifications", scratch.folder.appendingPathComponent("t").path]
          + options)
      try #require(test.status == 0, "\(test.stderr)")
      let body = try String(
        contentsOf: scratch.folder.appendingPathComponent("t/0001-TEST.json"), encoding: .utf8)
      let decoded = try verifyWithAppleLibrary([body], environment: environment, root: root)
      #expect(names(decoded) == ["TEST"])
    }
    // Unique across every notification of every session, in RFC 4122 form (version 5).
    #expect(Set(uuids).count == uuids.count, "notificationUUIDs collide")
    let form = #/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/#
    #expect(uuids.allSatisfy { $0.wholeMatch(of: form) != nil })
  }

  /// Multiseat's notifications verify with Apple's verifier (its 3.1.2 models do not hold
  /// `multiSeatInfo` or the quantity subtypes yet: the raw values are read).
  func checkMultiseat(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF-INCREASE_QUANTITY",
        "DID_CHANGE_RENEWAL_PREF-DECREASE_QUANTITY", "REFUND-SEATS", "UNCLAIM_SEATS",
      ])
    #expect(transaction(decoded[0])["quantity"] as? Int == 2)
    #expect(transaction(decoded[1])["quantity"] as? Int == 2, "the added seats' transaction")
  }

  /// Apple-hosted members' notifications verify with Apple's verifier: their own transactions
  /// (`ASSIGNED`, the purchaser's seats), a removal's `REVOKE` (`ASSIGNMENT_REVOKE`), a renewal
  /// each with the purchaser's.
  func checkMembers(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "SUBSCRIBED-INITIAL_BUY", "SUBSCRIBED-INITIAL_BUY", "REVOKE",
        "DID_RENEW", "DID_RENEW",
      ])
    let owners = decoded.map { transaction($0)["inAppOwnershipType"] as? String }
    #expect(owners == ["PURCHASED", "ASSIGNED", "ASSIGNED", "ASSIGNED", "PURCHASED", "ASSIGNED"])
    #expect(transaction(decoded[1])["quantity"] as? Int == 3)
    let revoked = transaction(decoded[3])
    #expect(revoked["revocationType"] as? String == "ASSIGNMENT_REVOKE", "\(revoked)")
    #expect(revoked["revocationDate"] is Int && revoked["revocationPercentage"] == nil)
    #expect(data(decoded[3])["status"] as? Int == 5, "Bob's seat is revoked")
    #expect(
      transaction(decoded[5])["originalTransactionId"] as? String
        == transaction(decoded[1])["transactionId"] as? String)
    // Apple's library 3.1.2 has no renewalQuantity yet (the engine's tests read it).
    #expect(
      renewal(decoded[5])["originalTransactionId"] as? String
        == transaction(decoded[1])["transactionId"] as? String)
  }

  func checkOneTimeOffers(_ decoded: [[String: Any]]) throws {
    #expect(names(decoded) == ["ONE_TIME_CHARGE", "ONE_TIME_CHARGE"])
    let gems = transaction(decoded[0])
    let lifetime = transaction(decoded[1])
    for (t, name, price) in [(gems, "Gems Half Price", 980), (lifetime, "Lifetime Free", 0)] {
      #expect(t["offerType"] as? Int == 3, "\(t)")
      #expect(t["offerIdentifier"] as? String == name)
      #expect(t["offerDiscountType"] as? String == "ONE_TIME")
      #expect(t["unknownEnums"] == nil, "Apple's enums hold ONE_TIME: \(t)")
      #expect(t["offerPeriod"] == nil, "a one-time offer has no period")
      #expect(t["price"] as? Int == price)
    }
    #expect(gems["quantity"] as? Int == 2 && gems["type"] as? String == "Consumable")
  }

  /// Family Sharing: each member's own notifications beside the purchaser's, REVOKE when they
  /// lose access; Apple's enums hold FAMILY_SHARED, FAMILY_REVOKE and REVOKE.
  func checkFamily(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "SUBSCRIBED-INITIAL_BUY", "ONE_TIME_CHARGE", "ONE_TIME_CHARGE",
        "DID_RENEW", "DID_RENEW", "DID_RENEW", "DID_RENEW",
        "ONE_TIME_CHARGE", "SUBSCRIBED-INITIAL_BUY",
        "REVOKE", "REVOKE", "REVOKE", "REFUND", "REVOKE",
      ])
    let owners = decoded.map { transaction($0)["inAppOwnershipType"] as? String ?? "" }
    #expect(
      owners == [
        "PURCHASED", "FAMILY_SHARED", "PURCHASED", "FAMILY_SHARED", "PURCHASED", "FAMILY_SHARED",
        "PURCHASED", "FAMILY_SHARED", "FAMILY_SHARED", "FAMILY_SHARED", "FAMILY_SHARED",
        "FAMILY_SHARED", "FAMILY_SHARED", "PURCHASED", "FAMILY_SHARED",
      ])
    for entry in decoded {
      #expect(entry["unknownEnums"] == nil, "\(entry)")
      #expect(transaction(entry)["unknownEnums"] == nil, "\(transaction(entry))")
    }
    // Anna's: her own ids, her own appTransactionId, the purchaser's original purchase date.
    let purchaser = transaction(decoded[0])
    let anna = transaction(decoded[1])
    #expect(anna["transactionId"] as? String != purchaser["transactionId"] as? String)
    #expect(anna["originalTransactionId"] as? String == anna["transactionId"] as? String)
    #expect(anna["originalPurchaseDate"] as? Int == purchaser["originalPurchaseDate"] as? Int)
    #expect(anna["appTransactionId"] as? String == Self.appTransactionIDs["Anna"])
    #expect(
      renewal(decoded[1])["originalTransactionId"] as? String == anna["transactionId"] as? String)
    #expect(renewal(decoded[1])["appTransactionId"] as? String == Self.appTransactionIDs["Anna"])
    let annaRenewal = transaction(decoded[5])
    #expect(annaRenewal["transactionReason"] as? String == "RENEWAL")
    #expect(annaRenewal["originalTransactionId"] as? String == anna["transactionId"] as? String)
    #expect(annaRenewal["expiresDate"] as? Int == transaction(decoded[4])["expiresDate"] as? Int)
    let ben = transaction(decoded[8])
    #expect(ben["appTransactionId"] as? String == Self.appTransactionIDs["Ben"])
    #expect(
      ben["originalPurchaseDate"] as? Int == transaction(decoded[2])["originalPurchaseDate"] as? Int
    )
    // Revocations: FAMILY_REVOKE; reason 0 when Anna leaves and sharing stops, the purchaser's
    // (1, an issue with the app) when the purchaser is refunded.
    for (index, reason) in [(10, 0), (11, 0), (12, 0), (14, 1)] {
      let revoked = transaction(decoded[index])
      #expect(revoked["revocationType"] as? String == "FAMILY_REVOKE", "\(revoked)")
      #expect(revoked["revocationReason"] as? Int == reason, "\(revoked)")
      #expect(revoked["revocationDate"] is Int && revoked["revocationPercentage"] == nil)
    }
    #expect(transaction(decoded[13])["revocationType"] as? String == "REFUND_FULL")
    #expect(data(decoded[11])["status"] as? Int == 5, "Anna's subscription is revoked")
  }

  func checkNotices(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "RESCIND_CONSENT", "EXTERNAL_PURCHASE_TOKEN-UNREPORTED", "EXTERNAL_PURCHASE_TOKEN-CREATED",
        "EXTERNAL_PURCHASE_TOKEN-ACTIVE_TOKEN_REMINDER",
        "EXTERNAL_PURCHASE_TOKEN-ACTIVE_TOKEN_REMINDER",
      ])
    let tokens = decoded.dropFirst().compactMap { $0["externalPurchaseToken"] as? [String: Any] }
    try #require(tokens.count == 4)
    let signed = decoded.dropFirst().map { $0["signedDate"] as? Int ?? 0 }
    let day = 86_400_000
    // Unreported: Apple sends it 10 days after the token was made; created: at once.
    #expect(tokens[0]["tokenCreationDate"] as? Int == signed[0] - 10 * day)
    #expect(tokens[1]["tokenCreationDate"] as? Int == signed[1])
    #expect(tokens[2]["externalPurchaseId"] as? String == "SANDBOX_fixed-token")
    #expect(tokens[2]["tokenCreationDate"] as? Int == milliseconds("2026-10-01T00:00:00.000Z"))
    // Apple's externalPurchaseToken: tokenType and tokenExpirationDate only for custom link
    // tokens (CREATED and ACTIVE_TOKEN_REMINDER are about them); an External Purchase API
    // token (UNREPORTED here) has neither. No appAppleId in a test environment.
    let year: Int = 365 * day
    #expect(tokens[0]["tokenType"] == nil && tokens[0]["tokenExpirationDate"] == nil)
    #expect(tokens[1]["tokenType"] as? String == "ACQUISITION")
    #expect(tokens[1]["tokenExpirationDate"] as? Int == signed[1] + year)
    #expect(tokens[2]["tokenType"] as? String == "SERVICES")
    #expect(
      tokens[2]["tokenExpirationDate"] as? Int
        == milliseconds("2026-10-01T00:00:00.000Z").map { $0 + year })
    #expect(tokens[3]["tokenType"] as? String == "ACQUISITION")
    #expect(tokens[3]["tokenExpirationDate"] as? Int == milliseconds("2027-01-31T00:00:00.000Z"))
    #expect(tokens.allSatisfy { $0["appAppleId"] == nil && $0["bundleId"] != nil })
    // Apple's library 3.1.2 has no model for the two newer fields: verify.py reads them from
    // the payload the library verified, and says so.
    #expect(tokens[1]["unmodeledFields"] as? [String] == ["tokenExpirationDate", "tokenType"])
    // Apple's library 3.1.2 has no enum value for CREATED or ACTIVE_TOKEN_REMINDER yet: it
    // keeps them raw (which is also how checkFamily knows its enums hold every family value).
    #expect(decoded[0]["unknownEnums"] == nil && decoded[1]["unknownEnums"] == nil)
    #expect(decoded[2]["unknownEnums"] as? [String] == ["subtype"], "\(decoded[2])")
    let ids = tokens.compactMap { $0["externalPurchaseId"] as? String }
    #expect(Set(ids).count == 4, "\(ids)")
  }

  func checkPlans(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_RENEW", "DID_RENEW",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_ENABLED", "DID_CHANGE_RENEWAL_PREF-DOWNGRADE",
        "DID_CHANGE_RENEWAL_PREF", "OFFER_REDEEMED", "DID_CHANGE_RENEWAL_PREF-UPGRADE",
        "DID_CHANGE_RENEWAL_PREF-UPGRADE", "OFFER_REDEEMED-DOWNGRADE", "DID_CHANGE_RENEWAL_PREF",
        "OFFER_REDEEMED-UPGRADE",
      ])
    let first = decoded[0]
    // offerPeriod is the whole offer: 3 × P1M pay as you go.
    #expect(transaction(first)["offerPeriod"] as? String == "P3M")
    #expect(transaction(first)["offerDiscountType"] as? String == "PAY_AS_YOU_GO")
    // The token given at purchase is in both payloads.
    #expect(transaction(first)["appAccountToken"] as? String == Self.token)
    #expect(renewal(first)["appAccountToken"] as? String == Self.token)
    // One advance crossed two renewals: each carries its own state, not the end of the advance.
    let renewals = decoded[1...2].map { (transaction($0), renewal($0)) }
    #expect(renewals[0].0["transactionId"] as? String == "1")
    #expect(renewals[1].0["transactionId"] as? String == "2")
    for (t, r) in renewals {
      #expect(r["renewalDate"] as? Int == t["expiresDate"] as? Int)
      #expect(t["signedDate"] as? Int == t["purchaseDate"] as? Int)
    }
    #expect(renewal(decoded[3])["autoRenewStatus"] as? Int == 0)
    #expect(renewal(decoded[4])["autoRenewStatus"] as? Int == 1)
    #expect(renewal(decoded[5])["autoRenewProductId"] as? String == "asn.basic.yearly")
    // The redeemed promotional offers: 2 × P1M pay as you go, and 1 × P3M up front.
    #expect(renewal(decoded[10])["offerPeriod"] as? String == "P2M")
    #expect(transaction(decoded[12])["offerPeriod"] as? String == "P3M")
    #expect(transaction(decoded[12])["offerType"] as? Int == 2)
    #expect(decoded.allSatisfy { data($0)["status"] as? Int == 1 })
  }

  /// Apple's notificationType: OFFER_REDEEMED is for an active subscription; an offer code
  /// redeemed with a first-time purchase (here queued behind the introductory periods it stacks
  /// on) is SUBSCRIBED INITIAL_BUY.
  func checkRedeemed(_ decoded: [[String: Any]]) throws {
    #expect(names(decoded) == ["SUBSCRIBED-INITIAL_BUY"])
    #expect(transaction(decoded[0])["productId"] as? String == "asn.basic.monthly")
  }

  func checkLapse(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "EXPIRED-VOLUNTARY", "SUBSCRIBED-RESUBSCRIBE",
      ])
    let expired = decoded[2]
    #expect(data(expired)["status"] as? Int == 2)
    #expect(renewal(expired)["expirationIntent"] as? Int == 1)
    #expect(renewal(expired)["renewalDate"] as? Int == transaction(expired)["expiresDate"] as? Int)
    // Apple's notificationType: a resubscription with a win-back offer is SUBSCRIBED
    // RESUBSCRIBE, the offer in its transaction.
    let back = decoded[3]
    #expect(transaction(back)["offerType"] as? Int == 4)
    #expect(transaction(back)["offerIdentifier"] as? String == "asn.basic.winback")
    #expect(transaction(back)["offerDiscountType"] is String)
    #expect(transaction(back)["offerPeriod"] as? String == "P2M")
    // The lapse was shorter than 60 days (at this rate): the run's start stays.
    #expect(
      renewal(back)["recentSubscriptionStartDate"] as? Int
        == transaction(decoded[0])["purchaseDate"] as? Int)
  }

  func checkBilling(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "DID_FAIL_TO_RENEW-GRACE_PERIOD", "GRACE_PERIOD_EXPIRED",
        "DID_RENEW-BILLING_RECOVERY", "DID_FAIL_TO_RENEW", "EXPIRED-BILLING_RETRY",
      ])
    #expect(decoded.map { data($0)["status"] as? Int } == [1, 4, 3, 1, 3, 2])
    #expect(renewal(decoded[1])["gracePeriodExpiresDate"] is Int)
    #expect(renewal(decoded[1])["isInBillingRetryPeriod"] as? Bool == true)
    #expect(renewal(decoded[5])["expirationIntent"] as? Int == 2)
  }

  func checkPrice(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "PRICE_INCREASE-PENDING", "PRICE_INCREASE-ACCEPTED",
        "DID_RENEW", "PRICE_INCREASE-PENDING", "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED",
        "EXPIRED-PRICE_INCREASE",
      ])
    #expect(renewal(decoded[1])["priceIncreaseStatus"] as? Int == 0)
    #expect(renewal(decoded[2])["priceIncreaseStatus"] as? Int == 1)
    #expect(renewal(decoded[6])["expirationIntent"] as? Int == 3)
  }

  func checkRefunds(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "ONE_TIME_CHARGE", "CONSUMPTION_REQUEST", "REFUND_DECLINED", "CONSUMPTION_REQUEST",
        "REFUND", "REFUND_REVERSED", "ONE_TIME_CHARGE", "ONE_TIME_CHARGE",
        "SUBSCRIBED-INITIAL_BUY", "CONSUMPTION_REQUEST",
        "DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED", "REFUND",
      ])
    #expect(data(decoded[1])["consumptionRequestReason"] as? String == "UNINTENDED_PURCHASE")
    #expect(data(decoded[3])["consumptionRequestReason"] as? String == "UNSATISFIED_WITH_PURCHASE")
    let prorated = transaction(decoded[4])
    #expect(prorated["revocationType"] as? String == "REFUND_PRORATED")
    #expect(prorated["revocationPercentage"] as? Int == 40_000)
    #expect(prorated["revocationReason"] as? Int == 0)
    #expect(prorated["revocationDate"] is Int)
    let reversed = transaction(decoded[5])
    #expect(reversed["revocationDate"] == nil && reversed["revocationType"] == nil)
    #expect(reversed["revocationPercentage"] == nil)
    #expect(transaction(decoded[6])["type"] as? String == "Non-Consumable")
    #expect(transaction(decoded[7])["type"] as? String == "Non-Renewing Subscription")
    #expect(data(decoded[9])["consumptionRequestReason"] as? String == "FULFILLMENT_ISSUE")
    let full = decoded[11]
    #expect(transaction(full)["revocationType"] as? String == "REFUND_FULL")
    #expect(transaction(full)["revocationPercentage"] as? Int == 100_000)
    #expect(transaction(full)["revocationReason"] as? Int == 1)
    #expect(data(full)["status"] as? Int == 5)
    #expect(renewal(full)["renewalDate"] is Int)
  }

  func checkExtensions(_ decoded: [[String: Any]]) throws {
    #expect(
      names(decoded) == [
        "SUBSCRIBED-INITIAL_BUY", "RENEWAL_EXTENDED", "RENEWAL_EXTENDED",
        "RENEWAL_EXTENSION-SUMMARY", "RENEWAL_EXTENSION-FAILURE", "RENEWAL_EXTENSION-SUMMARY",
      ])
    let bought = transaction(decoded[0])["expiresDate"] as? Int ?? 0
    let once = transaction(decoded[1])["expiresDate"] as? Int ?? 0
    let twice = transaction(decoded[2])["expiresDate"] as? Int ?? 0
    #expect(bought < once && once < twice)
    #expect(renewal(decoded[2])["renewalDate"] as? Int == twice)
    let summary = try #require(decoded[3]["summary"] as? [String: Any])
    #expect(summary["productId"] as? String == "asn.pro.monthly")
    #expect(summary["requestIdentifier"] as? String == "outage-1")
    #expect(summary["succeededCount"] as? Int == 1 && summary["failedCount"] as? Int == 0)
    let failed = try #require(decoded[5]["summary"] as? [String: Any])
    #expect(failed["succeededCount"] as? Int == 0 && failed["failedCount"] as? Int == 1)
    #expect(transaction(decoded[4])["expiresDate"] as? Int == twice)
  }

  /// A product removed from the configuration expires at the next renewal.
  /// A monthly plan (format 5.0 `billingPlans`, on Everything.storekit's JPN storefront): its
  /// twelve payments, auto-renew turned off during the second commitment, and its end; Apple's
  /// enums hold MONTHLY and its commitment fields decode.
  func checkCommitment(
    _ scratch: SigningScratch, options: [String], environment: String, root: URL?
  ) throws {
    let script =
      ["buy everything.pro.max.yearly plan=MONTHLY"] + Array(repeating: "advance next", count: 12)
      + ["auto-renew last off"] + Array(repeating: "advance next", count: 12)
    let outcome = try run(
      script.joined(separator: "\n"), scratch, environment: options,
      configuration: packageRoot.appendingPathComponent("Configs/Everything.storekit").path)
    let decoded = try decode(outcome, environment: environment, root: root)
    #expect(
      names(decoded)
        == ["SUBSCRIBED-INITIAL_BUY"] + Array(repeating: "DID_RENEW", count: 12)
        + ["DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED"]
        + Array(repeating: "DID_RENEW", count: 11) + ["EXPIRED-VOLUNTARY"])
    var numbers: [Int] = []
    for entry in decoded
    where ["SUBSCRIBED", "DID_RENEW"].contains(entry["notificationType"] as? String) {
      let info = transaction(entry)["commitmentInfo"] as? [String: Any] ?? [:]
      numbers.append(info["billingPeriodNumber"] as? Int ?? 0)
    }
    #expect(numbers == Array(1...12) + Array(1...12))
    let first = transaction(decoded[0])
    #expect(first["billingPlanType"] as? String == "MONTHLY" && first["price"] as? Int == 1_300_000)
    #expect(first["unknownEnums"] == nil && renewal(decoded[0])["unknownEnums"] == nil)
    let commitment = try #require(first["commitmentInfo"] as? [String: Any])
    #expect(commitment["totalBillingPeriods"] as? Int == 12)
    #expect(commitment["commitmentPrice"] as? Int == 15_600_000)
    #expect(
      commitment["commitmentExpiresDate"] as? Int == transaction(decoded[11])["expiresDate"] as? Int
    )
    let renewalInfo = renewal(decoded[0])
    #expect(renewalInfo["renewalBillingPlanType"] as? String == "MONTHLY")
    let renewalCommitment = try #require(renewalInfo["commitmentInfo"] as? [String: Any])
    #expect(renewalCommitment["commitmentAutoRenewStatus"] as? Int == 1)
    #expect(renewalCommitment["commitmentRenewalBillingPlanType"] as? String == "MONTHLY")
    #expect(renewalCommitment["commitmentRenewalPrice"] as? Int == 15_600_000)
    #expect(
      renewalCommitment["commitmentAutoRenewProductId"] as? String == "everything.pro.max.yearly")
    #expect(
      renewalCommitment["commitmentRenewalDate"] as? Int == commitment["commitmentExpiresDate"]
        as? Int)
    #expect(renewalCommitment["unknownEnums"] == nil)
    let off = renewal(decoded[13])["commitmentInfo"] as? [String: Any]
    #expect(off?["commitmentAutoRenewStatus"] as? Int == 0, "\(String(describing: off))")
    #expect(renewal(decoded[25])["expirationIntent"] as? Int == 1)
  }

  func checkNotForSale(
    _ scratch: SigningScratch, options: [String], environment: String, root: URL?
  ) throws {
    let copy = scratch.folder.appendingPathComponent("sale.storekit")
    try FileManager.default.copyItem(at: URL(fileURLWithPath: Self.configuration), to: copy)
    let journal = scratch.folder.appendingPathComponent("sale.journal").path
    _ = try run(
      "buy asn.pro.monthly.alt", scratch, environment: options, journal: journal,
      configuration: copy.path)
    var text = try String(contentsOf: copy, encoding: .utf8)
    text = text.replacingOccurrences(
      of: "\"asn.pro.monthly.alt\"", with: "\"asn.pro.monthly.gone\"")
    try text.write(to: copy, atomically: true, encoding: .utf8)
    let expired = try run(
      "advance next", scratch, environment: options, journal: journal, configuration: copy.path)
    let decoded = try decode(expired, environment: environment, root: root)
    #expect(names(decoded) == ["EXPIRED-PRODUCT_NOT_FOR_SALE"])
    #expect(renewal(decoded[0])["expirationIntent"] as? Int == 4)
  }

  @Test func theSameJournalGivesTheSameNotifications() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let empty = scratch.folder.appendingPathComponent("empty.journal").path
    let made = try scratch.run(
      ["run", Self.configuration, "--journal", empty, "--start", Self.start], stdin: "")
    try #require(made.status == 0)
    var payloads: [[String]] = []
    var uuids: [[String]] = []
    for copy in ["a", "b"] {
      let journal = scratch.folder.appendingPathComponent("\(copy).journal").path
      try FileManager.default.copyItem(atPath: empty, toPath: journal)
      let outcome = try run(
        Self.scenarios[0].script, scratch, environment: [], journal: journal)
      uuids.append(outcome.announced.compactMap { $0["notificationUUID"] as? String })
      // The signatures differ each time (ECDSA); the signed payloads do not.
      payloads.append(
        try outcome.bodies.map { body in
          let object = try #require(
            JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
          var payload = try Self.payload(of: try #require(object["signedPayload"]))
          for key in ["signedTransactionInfo", "signedRenewalInfo"] {
            if let jws = payload.range(of: #""\#(key)":""#) {
              let start = jws.upperBound
              let end = try #require(payload[start...].firstIndex(of: "\""))
              let inner = try Self.payload(of: String(payload[start..<end]))
              payload.replaceSubrange(start..<end, with: inner)
            }
          }
          return payload
        })
    }
    #expect(uuids[0] == uuids[1])
    #expect(payloads[0] == payloads[1])
    // A session of its own (another journal) gets other UUIDs.
    let other = try run(Self.scenarios[0].script, scratch, environment: [])
    #expect(
      Set(other.announced.compactMap { $0["notificationUUID"] as? String })
        .isDisjoint(with: uuids[0]))
  }

  @Test func aPurchaseMadeAgainAfterUndoIsWrittenAgainWithANewUUIDAndTheSameOnReopening()
    throws
  {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let journal = scratch.folder.appendingPathComponent("undo.journal").path
    let outcome = try run(
      "buy asn.basic.monthly\nundo\nbuy asn.basic.monthly", scratch, environment: [],
      journal: journal)
    #expect(outcome.bodies.count == 2, "one file for each purchase")
    let uuids = outcome.announced.compactMap { $0["notificationUUID"] as? String }
    #expect(uuids.count == 2 && Set(uuids).count == 2)
    // Reopened, the session knows it stepped back: the next purchase after one more undo is
    // new again.
    let later = try run("undo\nbuy asn.basic.monthly", scratch, environment: [], journal: journal)
    let third = later.announced.compactMap { $0["notificationUUID"] as? String }
    #expect(later.bodies.count == 1 && !uuids.contains(third.first ?? ""))
  }

  /// The payload of a compact JWS, decoded (base64url).
  static func payload(of jws: String) throws -> String {
    var text = String(jws.split(separator: ".")[1]).replacingOccurrences(of: "-", with: "+")
      .replacingOccurrences(of: "_", with: "/")
    while text.count % 4 != 0 { text += "=" }
    return String(decoding: try #require(Data(base64Encoded: text)), as: UTF8.self)
  }
}
