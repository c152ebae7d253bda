import Foundation
import StoreJSON
import StoreSimulation
import Testing

@testable import StoreServer
@testable import StoreSigning

/// The App Store Server API endpoints that change or look up the session, in process.
@Suite struct ServedEndpointTests {
  /// The decoded payload of a JWS the server signed (checked against its certificate).
  func payload(_ jws: Any?) throws -> [String: Any] {
    let decoded = try JWS.decode(try #require(jws as? String))
    #expect(decoded.signatureIsValid)
    let data = Array(JSONWriter.compact(decoded.payload).utf8)
    return try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
  }

  @Test func callReceiptThroughTheControlEndpointAnswersTheSignedReceipt() async throws {
    let served = try makeServed()
    let answer = await served.call(
      "POST", "/storekeeper/v1/commands", body: "buy foodtruck.saleshistory\ncall receipt\n")
    let line = try #require(
      answer.text.split(separator: "\n").first { $0.contains(#""event":"receipt""#) })
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
    #expect(object["inApp"] as? [String] == ["0"])
    let text = try #require(object["receipt"] as? String)
    let receipt = try #require(Data(base64Encoded: text))
    let decoded = try Receipt.decode(Array(receipt))
    #expect(decoded.signatureIsValid)
  }

  @Test func lookUpOrderIDAnswersTheOrdersSignedTransactionOrStatusOne() async throws {
    let served = try makeServed()
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.donuts.box\nbuy socialfeed.monthly\nadvance 31s\n")
    #expect(applied.status == 200)
    let renewal = try #require(served.host.session.transaction(2))
    let order = try #require(renewal.orderID)
    #expect(applied.text.contains(#""orderID":"\#(order)""#), "the event stream shows it")
    let found = await served.call("GET", "/inApps/v1/lookup/\(order)")
    #expect(found.status == 200)
    #expect(found.object["status"] as? Int == 0)
    let signed = try #require(found.object["signedTransactions"] as? [Any])
    #expect(signed.count == 1)
    #expect(try payload(signed.first)["transactionId"] as? String == "2")
    for unknown in ["AAAAAAAAAA", OrderID.make(99), "not-an-order"] {
      let missing = await served.call("GET", "/inApps/v1/lookup/\(unknown)")
      #expect(missing.status == 200 && missing.object["status"] as? Int == 1, "\(unknown)")
      #expect((missing.object["signedTransactions"] as? [Any])?.isEmpty == true)
    }
  }
}

/// Family Sharing over the App Store Server API: a member's ids and `appTransactionId` name the
/// member, whose history, app transaction and transactions answer as Apple's do.
@Suite struct ServedFamilyTests {
  @Test func aMembersIDsAnswerWithTheMembersOwnTransactions() async throws {
    let served = try makeServed()
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.saleshistory\nfamily join Anna\nbuy foodtruck.donuts.box\n")
    #expect(applied.status == 200, "\(applied.text)")
    let member = try #require(served.host.session.familyMember(named: "Anna"))
    let shared = try #require(served.host.session.view(of: .member(member)).allTransactions().first)
    let history = ServedHistoryTests()
    // The purchaser's history holds only PURCHASED; Anna's only FAMILY_SHARED.
    #expect(try await history.ids(served, "/inApps/v2/history/0") == ["0", "1"])
    #expect(
      try await history.ids(served, "/inApps/v2/history/0?inAppOwnershipType=FAMILY_SHARED").isEmpty
    )
    for id in ["\(shared.id)", Account.member(member).appTransactionID] {
      #expect(
        try await history.ids(served, "/inApps/v2/history/\(id)") == ["\(shared.id)"], "\(id)")
      #expect(
        try await history.ids(served, "/inApps/v2/history/\(id)?inAppOwnershipType=FAMILY_SHARED")
          == ["\(shared.id)"])
      #expect(
        try await history.ids(served, "/inApps/v2/history/\(id)?inAppOwnershipType=PURCHASED")
          .isEmpty)
    }
    let info = await served.call("GET", "/inApps/v1/transactions/\(shared.id)")
    let payload = try ServedEndpointTests().payload(info.object["signedTransactionInfo"])
    #expect(payload["inAppOwnershipType"] as? String == "FAMILY_SHARED")
    #expect(payload["appTransactionId"] as? String == Account.member(member).appTransactionID)
    let app = await served.call("GET", "/inApps/v1/transactions/appTransactions/\(shared.id)")
    #expect(
      try ServedEndpointTests().payload(app.object["signedAppTransactionInfo"])["appTransactionId"]
        as? String == "704000000000000002")
    // Set App Account Token refuses a family-shared transaction (FamilyTransactionNotSupported).
    let token = await served.call(
      "PUT", "/inApps/v1/transactions/\(shared.id)/appAccountToken",
      body: #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#)
    #expect(token.status == 400 && token.object["errorCode"] as? Int == 4_000_185)
    // A member's revocation is not a refund: the refund history stays empty.
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "family leave Anna\n")
    #expect(try await history.ids(served, "/inApps/v2/refund/lookup/\(shared.id)").isEmpty)
    #expect(
      try await history.ids(served, "/inApps/v2/history/\(shared.id)?revoked=true") == [
        "\(shared.id)"
      ])
  }
}

/// Transaction and refund history read from the ledger's rows in an order kept between
/// requests: it must follow every change.
@Suite struct ServedHistoryTests {
  func ids(_ served: ServedSession, _ path: String) async throws -> [String] {
    let answer = await served.call("GET", path)
    #expect(answer.status == 200, "\(answer.text)")
    return try (answer.object["signedTransactions"] as? [Any] ?? []).map {
      try ServedEndpointTests().payload($0)["transactionId"] as? String ?? "?"
    }
  }

  @Test func historyIsInPurchaseDateOrderAndFollowsEveryChange() async throws {
    let served = try makeServed()
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.donuts.box\nbuy foodtruck.saleshistory date=2026-01-01T00:00:00Z\n")
    #expect(try await ids(served, "/inApps/v2/history/0") == ["1", "0"], "the backdated one first")
    #expect(try await ids(served, "/inApps/v2/history/0?sort=DESCENDING") == ["0", "1"])
    #expect(try await ids(served, "/inApps/v2/history/0?revoked=true").isEmpty)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "refund 1\nfinish 0\n")
    #expect(
      try await ids(served, "/inApps/v2/history/0?revoked=true") == ["1"], "the refund is seen")
    #expect(
      try await ids(served, "/inApps/v1/history/0") == ["1"], "v1 drops the finished consumable")
    #expect(try await ids(served, "/inApps/v2/refund/lookup/0") == ["1"])
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "buy foodtruck.donuts.box\n")
    #expect(try await ids(served, "/inApps/v2/history/0") == ["1", "0", "2"], "a new one is seen")
    let types = try await ids(served, "/inApps/v2/history/0?productType=NON_CONSUMABLE")
    #expect(types == ["1"])
  }

  @Test func theAppTransactionIDNamesTheCustomerWhereAppleTakesAnyOfTheirIDs() async throws {
    let served = try makeServed()
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.donuts.box\nbuy socialfeed.monthly\nrefund 0\n")
    let app = "704000000000000001"
    #expect(try await ids(served, "/inApps/v2/history/\(app)") == ["0", "1"])
    #expect(try await ids(served, "/inApps/v2/refund/lookup/\(app)") == ["0"])
    let statuses = await served.call("GET", "/inApps/v1/subscriptions/\(app)")
    #expect(statuses.status == 200 && (statuses.object["data"] as? [Any])?.count == 1)
    let info = await served.call("GET", "/inApps/v1/transactions/appTransactions/\(app)")
    let signed = try ServedEndpointTests().payload(info.object["signedAppTransactionInfo"])
    #expect(signed["appTransactionId"] as? String == app)
    let transaction = await served.call("GET", "/inApps/v1/transactions/1")
    #expect(
      try ServedEndpointTests().payload(transaction.object["signedTransactionInfo"])[
        "appTransactionId"] as? String == app
    )
    // Get Transaction Info and the deprecated v1 history take transaction ids only.
    for path in ["/inApps/v1/transactions/\(app)", "/inApps/v1/history/\(app)"] {
      #expect(await served.call("GET", path).object["errorCode"] as? Int == 4_040_010, "\(path)")
    }
    let other = await served.call("GET", "/inApps/v2/history/704000000000000002")
    #expect(other.object["errorCode"] as? Int == 4_040_010, "another account's id names nobody")
  }
}

/// Extensions, consumption information, app account tokens and finishing, in process.
@Suite struct ServedChangeTests {
  func payload(_ jws: Any?) throws -> [String: Any] {
    try ServedEndpointTests().payload(jws)
  }

  func run(_ served: ServedSession, _ lines: String) async {
    let applied = await served.call("POST", "/storekeeper/v1/commands", body: lines)
    #expect(applied.status == 200, "\(applied.text)")
  }

  @Test func extendMovesTheRenewalAndAnswersApplesShapeWithinApplesLimits() async throws {
    let served = try makeServed()
    await run(served, "buy socialfeed.monthly\n")
    let before = try #require(served.host.session.transaction(0)?.expirationDate)
    let body = #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"r-1"}"#
    let answer = await served.call("PUT", "/inApps/v1/subscriptions/extend/0", body: body)
    #expect(answer.status == 200, "\(answer.text)")
    #expect(answer.object["originalTransactionId"] as? String == "0")
    #expect(answer.object["webOrderLineItemId"] as? String == "0")
    #expect(answer.object["success"] as? Bool == true)
    let after = try #require(served.host.session.transaction(0)?.expirationDate)
    #expect(answer.object["effectiveDate"] as? Int == Int(after.milliseconds))
    #expect(after > before)
    #expect(await served.call("PUT", "/inApps/v1/subscriptions/extend/0", body: body).status == 200)
    let third = await served.call("PUT", "/inApps/v1/subscriptions/extend/0", body: body)
    #expect(third.status == 403 && third.object["errorCode"] as? Int == 4_030_005, "twice a year")
    await run(served, "set billing-retry on\nadvance next\n")
    let inRetry = await served.call("PUT", "/inApps/v1/subscriptions/extend/0", body: body)
    #expect(inRetry.object["errorCode"] as? Int == 4_030_005, "the yearly limit comes first")
    let bad: [(String, String, Int)] = [
      ("0", #"{"extendByDays":91,"extendReasonCode":1,"requestIdentifier":"r"}"#, 4_000_009),
      ("0", #"{"extendByDays":0,"extendReasonCode":1,"requestIdentifier":"r"}"#, 4_000_009),
      ("0", #"{"extendByDays":"3","extendReasonCode":1,"requestIdentifier":"r"}"#, 4_000_009),
      ("0", #"{"extendByDays":3,"extendReasonCode":4,"requestIdentifier":"r"}"#, 4_000_010),
      ("0", #"{"extendByDays":3,"extendReasonCode":1}"#, 4_000_011),
      ("0", "not json", 4_000_000),
      ("abc", body, 4_000_008),
      ("77", body, 4_040_005),
    ]
    for (id, text, code) in bad {
      let refused = await served.call("PUT", "/inApps/v1/subscriptions/extend/\(id)", body: text)
      #expect(refused.object["errorCode"] as? Int == code, "\(text): \(refused.text)")
      #expect(refused.status == code / 10_000, "\(text)")
    }
  }

  @Test func anIneligibleSubscriptionIsRefusedWithTheReason() async throws {
    let served = try makeServed()
    await run(served, "buy socialfeed.monthly\nauto-renew 0 off\nadvance 1d\n")
    let answer = await served.call(
      "PUT", "/inApps/v1/subscriptions/extend/0",
      body: #"{"extendByDays":3,"extendReasonCode":0,"requestIdentifier":"r"}"#)
    #expect(answer.status == 403 && answer.object["errorCode"] as? Int == 4_030_004)
    #expect((answer.object["errorMessage"] as? String)?.contains("expired") == true)
  }

  @Test func aMassExtensionRunsAtOnceAndItsStatusIsKept() async throws {
    let served = try makeServed()
    await run(served, "buy socialfeed.monthly\n")
    let body =
      #"{"extendByDays":5,"extendReasonCode":3,"requestIdentifier":"mass-1","#
      + #""productId":"socialfeed.monthly","storefrontCountryCodes":["USA"]}"#
    let answer = await served.call("POST", "/inApps/v1/subscriptions/extend/mass", body: body)
    #expect(answer.status == 200 && answer.object["requestIdentifier"] as? String == "mass-1")
    let status = await served.call(
      "GET", "/inApps/v1/subscriptions/extend/mass/socialfeed.monthly/mass-1")
    #expect(status.object["complete"] as? Bool == true)
    #expect(status.object["succeededCount"] as? Int == 1)
    #expect(status.object["failedCount"] as? Int == 0)
    #expect(status.object["completeDate"] as? Int == Int(start.milliseconds))
    let unknown = await served.call(
      "GET", "/inApps/v1/subscriptions/extend/mass/socialfeed.monthly/x")
    #expect(unknown.status == 404 && unknown.object["errorCode"] as? Int == 4_040_009)
    let notSubscription = await served.call(
      "POST", "/inApps/v1/subscriptions/extend/mass",
      body: body.replacingOccurrences(of: "socialfeed.monthly", with: "foodtruck.donuts.box"))
    #expect(notSubscription.object["errorCode"] as? Int == 4_000_023)
    let badStorefront = await served.call(
      "POST", "/inApps/v1/subscriptions/extend/mass",
      body: body.replacingOccurrences(of: "USA", with: "XX"))
    #expect(badStorefront.object["errorCode"] as? Int == 4_000_028)
  }

  @Test func consumptionIsTakenOnlyAfterARefundRequestAndWithin12Hours() async throws {
    let served = try makeServed()
    await run(served, "buy foodtruck.donuts.box\nbuy foodtruck.donuts.box\n")
    let v2 =
      #"{"customerConsented":true,"deliveryStatus":"DELIVERED","sampleContentProvided":false,"#
      + #""consumptionPercentage":25000,"refundPreference":"GRANT_PRORATED"}"#
    let early = await served.call("PUT", "/inApps/v2/transactions/consumption/0", body: v2)
    #expect(early.status == 400)
    #expect((early.object["errorMessage"] as? String)?.contains("refund-request") == true)
    await run(served, "refund-request 0 reason=unsatisfiedWithPurchase\nadvance 1h\n")
    let answer = await served.call("PUT", "/inApps/v2/transactions/consumption/0", body: v2)
    #expect(answer.status == 202 && answer.body.isEmpty, "\(answer.text)")
    let kept = try #require(served.host.session.consumption(of: 0))
    #expect(
      kept.fields.map { "\($0.name)=\($0.value)" } == [
        "customerConsented=true", "consumptionPercentage=25000", "sampleContentProvided=false",
        "deliveryStatus=DELIVERED", "refundPreference=GRANT_PRORATED",
      ])
    await run(served, "refund-request 1\nadvance 13h\n")
    let late = await served.call("PUT", "/inApps/v2/transactions/consumption/1", body: v2)
    #expect(late.status == 400 && (late.object["errorMessage"] as? String)?.contains("12") == true)
    let wrong: [(String, String, Int)] = [
      ("v2", #"{"customerConsented":false,"sampleContentProvided":true}"#, 4_000_035),
      ("v2", #"{"sampleContentProvided":true}"#, 4_000_035),
      (
        "v2", #"{"customerConsented":true,"sampleContentProvided":true,"deliveryStatus":"LOST"}"#,
        4_000_036
      ),
      ("v1", #"{"customerConsented":true,"sampleContentProvided":true,"platform":3}"#, 4_000_039),
      ("v1", #"{"customerConsented":true,"sampleContentProvided":true,"userStatus":5}"#, 4_000_042),
      (
        "v1", #"{"customerConsented":true,"sampleContentProvided":true,"appAccountToken":"x"}"#,
        4_000_033
      ),
      ("v1", #"{"customerConsented":true,"sampleContentProvided":1}"#, 4_000_041),
    ]
    for (version, body, code) in wrong {
      let refused = await served.call(
        "PUT", "/inApps/\(version)/transactions/consumption/1", body: body)
      #expect(refused.status == 400 && refused.object["errorCode"] as? Int == code, "\(body)")
    }
  }

  @Test func anAppAccountTokenReachesEveryTransactionOfThePurchaseAndTheRenewalsToCome()
    async throws
  {
    let served = try makeServed()
    await run(served, "buy socialfeed.monthly\nadvance 31s\n")
    let token = "7E3FB20B-4CDB-47CC-936D-99D65F608138"
    let answer = await served.call(
      "PUT", "/inApps/v1/transactions/0/appAccountToken", body: #"{"appAccountToken":"\#(token)"}"#)
    #expect(answer.status == 200, "\(answer.text)")
    await run(served, "advance 31s\n")
    for id in [0, 1, 2] {
      let info = await served.call("GET", "/inApps/v1/transactions/\(id)")
      #expect(
        try payload(info.object["signedTransactionInfo"])["appAccountToken"] as? String
          == token.lowercased(), "transaction \(id)")
    }
    let renewal = await served.call(
      "PUT", "/inApps/v1/transactions/1/appAccountToken", body: #"{"appAccountToken":"\#(token)"}"#)
    #expect(renewal.status == 400 && renewal.object["errorCode"] as? Int == 4_000_187)
    let bad = await served.call(
      "PUT", "/inApps/v1/transactions/0/appAccountToken", body: #"{"appAccountToken":"nope"}"#)
    #expect(bad.status == 400 && bad.object["errorCode"] as? Int == 4_000_183)
  }

  @Test func finishFinishesOnceAndAgainIsStillOK() async throws {
    let served = try makeServed()
    await run(served, "buy foodtruck.donuts.box\n")
    #expect(served.host.session.transaction(0)?.isFinished == false)
    #expect(await served.call("POST", "/inApps/v1/transactions/0/finish").status == 200)
    #expect(served.host.session.transaction(0)?.isFinished == true)
    #expect(await served.call("POST", "/inApps/v1/transactions/0/finish").status == 200)
    #expect(await served.call("POST", "/inApps/v1/transactions/9/finish").status == 404)
    #expect(await served.call("GET", "/inApps/v1/transactions/0/finish").status == 405)
  }

  /// One control request does bounded work: past its budget of commands and events the rest is
  /// refused (422), naming the first line not applied, and a stop asked for from another thread
  /// ends it between two commands (503).
  @Test func aControlRequestsWorkIsBoundedAndAStopEndsItBetweenCommands() async throws {
    let served = try makeServed(requestBudget: 10)
    let lines = Array(repeating: "buy foodtruck.donuts.box", count: 8).joined(separator: "\n")
    let answer = await served.call("POST", "/storekeeper/v1/commands", body: lines)
    #expect(answer.status == 422)
    let applied = served.host.session.transactionCount
    #expect(applied > 0 && applied < 8, "each purchase spends a command and its events")
    #expect(answer.text.contains(#""line":\#(applied + 1)"#))
    #expect(answer.text.contains("lines \(applied + 1) and after were not applied"))
    served.requestStop()
    let stopped = await served.call("POST", "/storekeeper/v1/commands", body: "launch\nlaunch")
    #expect(stopped.status == 503 && stopped.text.contains("the server is stopping"))
    #expect(served.host.session.transactionCount == applied)
  }
}

/// A control request's budget counts the work each line does: a step back makes no events, but
/// its replay is work.
@Suite struct RequestBudgetTests {
  @Test func stepsBackSpendTheBudgetByWhatTheyReplay() async throws {
    let served = try makeServed(requestBudget: 20_000)
    let setup = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "set time-rate monthlyRenewalEveryThirtySeconds\nbuy socialfeed.monthly\nadvance 1d\n")
    #expect(setup.status == 200)
    let backs = String(repeating: "back\n", count: 20_000)
    let answer = await served.call("POST", "/storekeeper/v1/commands", body: backs)
    #expect(answer.status == 422)
    let text = String(decoding: answer.body, as: UTF8.self)
    let last = try #require(text.split(separator: "\n").last)
    #expect(last.contains("reached its budget of 20000 commands and events"), "\(last)")
    #expect(last.contains(#""command":"back""#), "the line's command, not an empty one")
    // Counted one apiece, 20,000 steps back would have fitted.
    let line = try #require(
      last.split(separator: ",").first { $0.hasPrefix(#""line":"#) }.flatMap {
        Int($0.dropFirst(7))
      })
    #expect(line < 10_000, "\(last)")
  }

  @Test func aStoppingServerNamesTheLineItDidNotApply() async throws {
    let served = try makeServed()
    served.requestStop()
    let answer = await served.call(
      "POST", "/storekeeper/v1/commands", body: "buy socialfeed.monthly\n")
    #expect(answer.status == 503)
    let text = String(decoding: answer.body, as: UTF8.self)
    #expect(text.contains(#""command":"buy socialfeed.monthly""#), "\(text)")
  }
}
