import Foundation
import StoreCommands
import StoreJSON
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreServer

/// Multiseat through `serve`: a developer-hosted subscription's seats read, claimed
/// (idempotently), unclaimed and associated at Apple's paths with Apple's error objects; seats
/// added now and reduced at the renewal (claims kept); payloads with `quantity`, the average
/// `price` and `multiSeatInfo`; and a replayed journal answering the same.
@Suite struct SeatEndpointTests {
  static let requests = (1...4).map { String(format: "00000000-0000-4000-8000-%012d", $0) }
  static let seats = "/inApps/groups/v1/transactions"

  func served(_ script: [String]) async throws -> ServedSession {
    let served = try makeServed()
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands", body: script.joined(separator: "\n"))
    try #require(applied.status == 200, "\(applied.text)")
    return served
  }

  func claim(_ served: ServedSession, _ id: UInt64, _ request: String) async -> ServerResponse {
    await served.call(
      "POST", "\(Self.seats)/\(id)/seats", body: #"{"requestIdentifier":"\#(request)"}"#)
  }

  @Test func claimsAreCountedIdempotentAndRefusedWhenFull() async throws {
    let served = try await served([
      "set time-rate realTime", "set invitations developer", "buy socialfeed.monthly seats=3",
    ])
    var info = await served.call("GET", "\(Self.seats)/0/seats")
    #expect(info.status == 200, "\(info.text)")
    #expect(info.object["totalSeatCount"] as? Int == 3)
    #expect(info.object["availableSeatCount"] as? Int == 3)
    #expect((info.object["assignedSeatClaimIds"] as? [String])?.isEmpty == true)
    let first = await claim(served, 0, Self.requests[0])
    #expect(first.status == 200, "\(first.text)")
    let claimID = try #require(first.object["seatClaimId"] as? String)
    #expect(UUID(uuidString: claimID) != nil)
    let again = await claim(served, 0, Self.requests[0])
    #expect(again.object["seatClaimId"] as? String == claimID, "a retry claims again")
    for request in Self.requests[1...2] {
      #expect(await claim(served, 0, request).status == 200)
    }
    let full = await claim(served, 0, Self.requests[3])
    #expect(full.status == 403 && full.object["errorCode"] as? Int == 4_030_020, "\(full.text)")
    let removed = await served.call("DELETE", "\(Self.seats)/0/seats/\(claimID)")
    #expect(removed.status == 200, "\(removed.text)")
    let gone = await served.call("DELETE", "\(Self.seats)/0/seats/\(claimID)")
    #expect(gone.status == 404 && gone.object["errorCode"] as? Int == 4_040_030, "\(gone.text)")
    info = await served.call("GET", "\(Self.seats)/0/seats")
    #expect(info.object["availableSeatCount"] as? Int == 1)
    #expect((info.object["assignedSeatClaimIds"] as? [String])?.contains(claimID) == false)
  }

  @Test func associateTakesAKnownAppTransactionID() async throws {
    let served = try await served([
      "set invitations developer", "buy socialfeed.monthly seats=2", "customer ann",
    ])
    let claimID = try #require(
      await claim(served, 0, Self.requests[0]).object["seatClaimId"] as? String)
    let ann = served.host.session.appTransactionID(
      of: Account(customer: try #require(served.host.session.customer(named: "ann"))))
    let associated = await served.call(
      "POST", "\(Self.seats)/0/seats/\(claimID)/associate", body: #"{"appTransactionId":"\#(ann)"}"#
    )
    #expect(associated.status == 200, "\(associated.text)")
    let unknown = await served.call(
      "POST", "\(Self.seats)/0/seats/\(claimID)/associate",
      body: #"{"appTransactionId":"704000000000999001"}"#)
    #expect(unknown.status == 404 && unknown.object["errorCode"] as? Int == 4_040_031)
    let own = try #require(served.host.session.acting(as: .own))
    #expect(own.seatGroup(ofTransaction: 0)?.claims.first?.appTransactionID == ann)
  }

  @Test func anAppleHostedOrSingleSubscriptionIsNotTheDevelopers() async throws {
    let served = try await served([
      "buy socialfeed.monthly seats=2", "customer bob", "buy socialfeed.monthly",
    ])
    for id in [0, served.host.session.lastTransactionID() ?? 0] {
      let info = await served.call("GET", "\(Self.seats)/\(id)/seats")
      #expect(info.status == 400 && info.object["errorCode"] as? Int == 4_000_230, "\(info.text)")
      let claimed = await claim(served, UInt64(id), Self.requests[0])
      #expect(claimed.object["errorCode"] as? Int == 4_000_230, "\(claimed.text)")
    }
    let missing = await served.call("GET", "\(Self.seats)/999/seats")
    #expect(missing.status == 404)
  }

  @Test func moreSeatsNowFewerAtTheRenewalAndClaimsStay() async throws {
    let served = try await served([
      "set time-rate realTime", "set invitations developer", "buy socialfeed.monthly seats=2",
    ])
    for request in Self.requests[0...1] { _ = await claim(served, 0, request) }
    let added = await served.call(
      "POST", "/storekeeper/v1/commands", body: "advance 15d\nseats 0 4\nseats 0 1\n")
    #expect(added.status == 200, "\(added.text)")
    let during = await served.call("GET", "\(Self.seats)/0/seats")
    #expect(during.object["totalSeatCount"] as? Int == 4)
    #expect(during.object["availableSeatCount"] as? Int == 2)
    _ = await served.call("POST", "/storekeeper/v1/commands", body: "advance 1mo\n")
    let after = await served.call("GET", "\(Self.seats)/0/seats")
    #expect(after.object["totalSeatCount"] as? Int == 1)
    #expect(after.object["availableSeatCount"] as? Int == 0)
    #expect((after.object["assignedSeatClaimIds"] as? [String])?.count == 2, "claims are kept")
    let refused = await claim(served, 0, Self.requests[2])
    #expect(refused.object["errorCode"] as? Int == 4_030_020)
  }

  @Test func payloadsCarryQuantityTheAverageAndMultiSeatInfo() async throws {
    let served = try await served([
      "set time-rate realTime", "set invitations developer", "buy socialfeed.monthly seats=3",
      "advance 15d", "seats 0 5", "refund 0 seats=1",
    ])
    let info = await served.call("GET", "/inApps/v1/transactions/0")
    let period = try ServedEndpointTests().payload(info.object["signedTransactionInfo"])
    #expect(period["quantity"] as? Int == 3)
    #expect(period["price"] as? Int == 990)
    #expect(period["additionalTransactionReason"] as? String == "SEAT_ADDITION")
    let multi = try #require(period["multiSeatInfo"] as? [String: Any])
    #expect(multi["invitationManagement"] as? String == "DEVELOPER")
    #expect(multi["revokedSeatQuantity"] as? Int == 1)
    let tiers = try #require(multi["priceTiers"] as? [[String: Any]])
    #expect(tiers.first?["tierPrice"] as? Int == 990 && tiers.first?["tierQuantity"] as? Int == 3)
    let addition = await served.call("GET", "/inApps/v1/transactions/1")
    let added = try ServedEndpointTests().payload(addition.object["signedTransactionInfo"])
    #expect(added["quantity"] as? Int == 2)
    #expect(added["additionalTransactionReason"] as? String == "SEAT_ADDITION")
    #expect(added["originalTransactionId"] as? String == "0")
    let statuses = await served.call("GET", "/inApps/v1/subscriptions/0")
    let renewal = try #require(
      ((statuses.object["data"] as? [[String: Any]])?.first?["lastTransactions"]
        as? [[String: Any]])?.first?["signedRenewalInfo"])
    let renewalInfo = try ServedEndpointTests().payload(renewal)
    #expect(renewalInfo["renewalQuantity"] as? Int == 5)
    #expect(renewalInfo["renewalPrice"] as? Int == 990)
  }

  /// The notifications a script's lines announce, as `TYPE-SUBTYPE`.
  func notified(_ lines: [String]) async throws -> [String] {
    let backend = try Backend()
    let served = try makeServed(notifyingURL: backend.url)
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands", body: lines.joined(separator: "\n") + "\n")
    return applied.text.split(separator: "\n").compactMap { line in
      guard
        let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
        event["event"] as? String == "notification", let type = event["notificationType"]
      else { return nil }
      return "\(type)" + ((event["subtype"] as? String).map { "-\($0)" } ?? "")
    }
  }

  /// Volume pricing: each seat costs its own tier's price (1–5 at 14.99, 6–10 at 10: eight
  /// seats are 5 × 14.99 + 3 × 10); the signed `price` is their average; added seats fill the
  /// next tiers; a product set off refuses seats.
  @Test func volumeTiersPriceEachSeatAtItsTier() async throws {
    let served = try await served([
      "set time-rate realTime", "set seat-pricing socialfeed.premium.monthly 5:14.99 10:10 *:5",
      "buy socialfeed.premium.monthly seats=8", "advance 15d", "seats 0 12",
    ])
    let info = await served.call("GET", "/inApps/v1/transactions/0")
    let period = try ServedEndpointTests().payload(info.object["signedTransactionInfo"])
    #expect(period["price"] as? Int == 104_950 / 8)
    let tiers = try #require(
      (period["multiSeatInfo"] as? [String: Any])?["priceTiers"] as? [[String: Any]])
    #expect(tiers.map { $0["tierPrice"] as? Int } == [14_990, 10_000])
    #expect(tiers.map { $0["tierQuantity"] as? Int } == [5, 3])
    let addition = await served.call("GET", "/inApps/v1/transactions/1")
    let added = try ServedEndpointTests().payload(addition.object["signedTransactionInfo"])
    let addedTiers = try #require(
      (added["multiSeatInfo"] as? [String: Any])?["priceTiers"] as? [[String: Any]])
    #expect(addedTiers.map { $0["tierQuantity"] as? Int } == [2, 2])
    let statuses = await served.call("GET", "/inApps/v1/subscriptions/0")
    let renewal = try ServedEndpointTests().payload(
      ((statuses.object["data"] as? [[String: Any]])?.first?["lastTransactions"]
        as? [[String: Any]])?.first?["signedRenewalInfo"])
    let renewing = try #require(
      (renewal["multiSeatInfo"] as? [String: Any])?["renewalPriceTiers"] as? [[String: Any]])
    #expect(renewing.map { $0["tierQuantity"] as? Int } == [5, 5, 2])
    #expect(renewal["renewalPrice"] as? Int == (5 * 14_990 + 5 * 10_000 + 2 * 5_000) / 12)
    let lines = [
      (
        "set seat-pricing socialfeed.yearly off\nbuy socialfeed.yearly seats=2",
        "multiSeatPurchaseDisabled"
      ),
      ("set seat-pricing socialfeed.yearly 10:5 5:4", "seat tiers go up"),
      ("set seat-pricing socialfeed.yearly 1:1 2:1 3:1 4:1 5:1 *:1", "1 to 5 seat tiers"),
      ("set seat-pricing foodtruck.donuts.box 5:1", "sells no seats"),
      ("set seat-pricing socialfeed.yearly 5:abc", "a seat tier is"),
    ]
    for (script, words) in lines {
      let answer = await served.call("POST", "/storekeeper/v1/commands", body: script + "\n")
      #expect(answer.text.contains(words), "\(script): \(answer.text)")
    }
  }

  @Test func seatChangesAndRefundsNotify() async throws {
    let names = try await notified([
      "set time-rate realTime", "buy socialfeed.monthly seats=2", "advance 3d", "seats 0 4",
      "seats 0 3", "refund 0 seats=1",
    ])
    #expect(
      names == [
        "SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF-INCREASE_QUANTITY",
        "DID_CHANGE_RENEWAL_PREF-DECREASE_QUANTITY", "REFUND-SEATS",
      ])
  }

  /// A purchase with more seats while subscribed adds them, as `seats <txn> N` does: the
  /// added seats' transaction is told as an increase, not as an upgrade or a first purchase
  /// (nor again at the next launch).
  @Test func buyingMoreSeatsNotifiesAnIncrease() async throws {
    let names = try await notified([
      "set time-rate realTime", "buy socialfeed.monthly seats=2", "advance 3d",
      "buy socialfeed.monthly seats=5", "launch",
    ])
    #expect(names == ["SUBSCRIBED-INITIAL_BUY", "DID_CHANGE_RENEWAL_PREF-INCREASE_QUANTITY"])
  }

  /// A seat refund that leaves more claims than seats unclaims the latest and says which in
  /// `UNCLAIM_SEATS`'s `unclaimInfo`, beside the purchaser's `data`.
  @Test func aSeatRefundUnclaimsTheLatestClaimsAndSaysWhich() async throws {
    let backend = try Backend()
    let served = try makeServed(notifyingURL: backend.url)
    _ = await served.call(
      "POST", "/storekeeper/v1/commands",
      body: "set time-rate realTime\nset invitations developer\nbuy socialfeed.monthly seats=3\n")
    var claims: [String] = []
    for request in Self.requests[0...2] {
      claims.append(try #require(await claim(served, 0, request).object["seatClaimId"] as? String))
    }
    let refunded = await served.call(
      "POST", "/storekeeper/v1/commands", body: "refund 0 seats=2\n")
    #expect(refunded.text.contains(#""notificationType":"UNCLAIM_SEATS""#), "\(refunded.text)")
    let info = await served.call("GET", "\(Self.seats)/0/seats")
    #expect(info.object["assignedSeatClaimIds"] as? [String] == [claims[0]])
    #expect(info.object["totalSeatCount"] as? Int == 1)
    #expect(eventually(served) { backend.bodies.contains { $0.contains("signedPayload") } })
    #expect(eventually(served) { backend.bodies.count == 3 })
    let unclaim = try backend.bodies.map {
      try ServedEndpointTests().payload(
        (try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["signedPayload"])
    }.first { $0["notificationType"] as? String == "UNCLAIM_SEATS" }
    let info2 = try #require(unclaim?["unclaimInfo"] as? [String: Any])
    #expect(info2["unclaimSeatIds"] as? [String] == [claims[2], claims[1]])
    #expect((unclaim?["data"] as? [String: Any])?["signedTransactionInfo"] != nil)
  }

  @Test func aReplayedJournalAnswersTheSame() async throws {
    let served = try await served([
      "set time-rate realTime", "set invitations developer", "buy socialfeed.monthly seats=3",
      "customer ann", "customer",
    ])
    for request in Self.requests[0...1] { _ = await claim(served, 0, request) }
    let before = await served.call("GET", "\(Self.seats)/0/seats")
    let replayed = try reopened(journal: try journalBytes(served.host.journaled.timeline))
    let group = try #require(replayed.session.seatGroup(ofTransaction: 0))
    #expect(group.claims.map(\.id) == before.object["assignedSeatClaimIds"] as? [String])
    #expect(group.inForce == 3)
  }

  /// Apple-hosted members: a member's transaction id answers with the member's own data
  /// (`ASSIGNED`), a removal notifies `REVOKE` with `ASSIGNMENT_REVOKE`, the seat endpoints
  /// refuse the group (Apple's), and a replayed journal holds the same members.
  @Test func appleHostedMembersAnswerWithTheirOwnData() async throws {
    let served = try await served([
      "set time-rate realTime", "buy socialfeed.monthly seats=3", "group invite ann",
      "group invite bob", "group remove bob",
    ])
    let session = served.host.session
    let ann = try #require(session.customer(named: "ann"))
    let annID = try #require(session.acting(as: ann)?.currentEntitlements().first?.id)
    let info = await served.call("GET", "/inApps/v1/transactions/\(annID)")
    #expect(info.status == 200, "\(info.text)")
    let seat = try ServedEndpointTests().payload(info.object["signedTransactionInfo"])
    #expect(seat["inAppOwnershipType"] as? String == "ASSIGNED")
    #expect(seat["quantity"] as? Int == 3)
    #expect(seat["appTransactionId"] as? String == Account(customer: ann).appTransactionID)
    let multi = try #require(seat["multiSeatInfo"] as? [String: Any])
    #expect(multi["invitationManagement"] as? String == "APPLE")
    let statuses = await served.call("GET", "/inApps/v1/subscriptions/\(annID)")
    #expect(statuses.status == 200, "\(statuses.text)")
    #expect(statuses.text.contains("\"originalTransactionId\":\"\(annID)\""))
    let seats = await served.call("GET", "\(Self.seats)/0/seats")
    #expect(seats.status == 400 && seats.object["errorCode"] as? Int == 4_000_230)
    let replayed = try reopened(journal: try journalBytes(served.host.journaled.timeline))
    #expect(replayed.session.seatGroup(ofTransaction: 0)?.members.count == 1)
    #expect(replayed.session.acting(as: ann)?.currentEntitlements().first?.id == annID)
    let told = try await notified([
      "buy socialfeed.monthly seats=2", "group invite ann", "group remove ann",
    ])
    #expect(told == ["SUBSCRIBED-INITIAL_BUY", "SUBSCRIBED-INITIAL_BUY", "REVOKE"])
  }

  @Test func badSeatLinesAreRefusedNamingTheRule() async throws {
    let served = try await served(["buy socialfeed.monthly seats=2"])
    let lines = [
      ("buy foodtruck.donuts.box seats=2", "not an auto-renewable subscription"),
      ("buy socialfeed.yearly seats=0", "at least 1 seat"),
      ("buy socialfeed.monthly seats=2", "seatReductionNotAllowed"),
      ("seats 0 0", "at least 1 seat"),
    ]
    await expectRefused(served, lines)
  }
}
