import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Family Sharing: members get transactions of their own for what the purchaser shares, follow
/// the purchaser's renewals, and lose them (`FAMILY_REVOKE`) when they leave, when sharing
/// stops or when the purchaser is refunded.
@Suite struct FamilySharingTests {
  static let configuration: StoreKitConfiguration = {
    func shared(_ json: String) -> String {
      json.replacingOccurrences(
        of: "\"familyShareable\" : false", with: "\"familyShareable\" : true")
    }
    let json = """
      {
        "identifier" : "FA000001", "nonRenewingSubscriptions" : [],
        "products" : [\(shared(product("lifetime", "NonConsumable", "19.99"))),
                      \(product("solo", "NonConsumable", "2.99")),
                      \(shared(product("gems", "Consumable", "0.99")))],
        "settings" : { "_storefront" : "USA", "_timeRate" : 0 },
        "subscriptionGroups" : [
          {"id" : "F", "localizations" : [], "name" : "Family",
           "subscriptions" : [\(shared(subscription("family.monthly", "F", 1, "P1M", "9.99"))),
                              \(subscription("single.monthly", "F", 2, "P1M", "4.99"))]}
        ],
        "version" : { "major" : 4, "minor" : 0 }
      }
      """
    let result = StoreKitConfiguration.load(Array(json.utf8))
    precondition(!result.hasErrors, "\(result.diagnostics)")
    return result.configuration!
  }()

  func makeFamilySession() -> Session {
    Session(configuration: Self.configuration, start: t0)
  }

  func anna(_ session: Session) throws -> Account {
    .member(try #require(session.familyMember(named: "Anna")))
  }

  @Test func aMemberWhoJoinsGetsTheirOwnTransactionOfEachSharedPurchase() throws {
    var session = makeFamilySession()
    try session.buy("lifetime", PurchaseOptions()) { _ in }
    try session.buy("solo", PurchaseOptions()) { _ in }
    try session.buy("family.monthly", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 3600)) { _ in }
    let joined = try events { try session.perform(.family(.join("Anna")), $0) }
    let member = try anna(session)
    let given = joined.transactions.map(\.0)
    #expect(given.map(\.productID) == ["lifetime", "family.monthly"])
    for transaction in given {
      #expect(transaction.owner == member && transaction.ownershipType == "familyShared")
      #expect(transaction.id >= FamilyState.idSpan && transaction.originalID == transaction.id)
      #expect(transaction.purchaseDate == t0.plus(seconds: 3600))
      #expect(transaction.originalPurchaseDate == t0)
      #expect(transaction.appAccountToken == nil && transaction.reason == .purchase)
    }
    #expect(joined.transactions.allSatisfy { $0.1 == .updates })
    #expect(given[1].expirationDate == session.transaction(2)?.expirationDate)
    let status = try #require(joined.statuses.last)
    #expect(status.owner == member && status.state == .subscribed)
    #expect(status.transactionID == given[1].id)
    #expect(status.renewalInfo.originalTransactionID == given[1].id)
    #expect(member.appTransactionID != Account.purchaser.appTransactionID)
    // The member's device: their transactions and entitlements; the purchaser's unchanged.
    let device = session.view(of: member)
    #expect(device.account == member)
    #expect(device.allTransactions().map(\.id) == given.map(\.id))
    #expect(device.currentEntitlements().map(\.productID) == ["lifetime", "family.monthly"])
    #expect(device.subscriptionStatuses().map(\.transactionID) == [given[1].id])
    #expect(session.allTransactions().allSatisfy { $0.owner == .purchaser })
    #expect(session.transaction(given[0].id) == given[0])
    #expect(session.account(ofTransaction: given[0].id) == member)
    #expect(session.account(ofTransaction: 0) == .purchaser)
  }

  @Test func aMemberRenewsExpiresAndIsExtendedWithThePurchaser() throws {
    var session = makeFamilySession()
    try session.perform(.family(.join("Anna")), { _ in })
    let bought = try events {
      try session.perform(.buy(productID: "family.monthly", options: PurchaseOptions()), $0)
    }
    let first = try #require(bought.transactions.last { $0.0.owner != .purchaser }?.0)
    #expect(first.purchaseDate == t0 && first.reason == .purchase)
    let renewed = try events { try session.perform(.advanceToNextEvent, $0) }
    let renewal = try #require(renewed.transactions.last { $0.0.owner != .purchaser }?.0)
    #expect(renewal.reason == .renewal && renewal.originalID == first.id)
    #expect(renewal.id == first.id + 1)
    #expect(renewal.purchaseDate == session.transaction(1)?.purchaseDate)
    #expect(renewed.statuses.last?.transactionID == renewal.id)
    // Extended with the purchaser's: the member's expiration moves too.
    try session.perform(.extendRenewalDate(1, days: 10, reason: .other), { _ in })
    #expect(
      session.transaction(renewal.id)?.expirationDate == session.transaction(1)?.expirationDate)
    // Expired with the purchaser's: the member's status says so, nothing is revoked.
    let expired = try events {
      try session.perform(.expireSubscription(productID: "family.monthly"), $0)
    }
    let status = try #require(expired.statuses.last)
    #expect(status.owner != .purchaser && status.state == .expired)
    #expect(session.transaction(renewal.id)?.revocationDate == nil)
    #expect(session.view(of: try anna(session)).currentEntitlements().isEmpty)
  }

  @Test func leavingRevokesWithFamilyRevokeAndTheReasonOther() throws {
    var session = makeFamilySession()
    try session.perform(.buy(productID: "lifetime", options: PurchaseOptions()), { _ in })
    try session.perform(.buy(productID: "family.monthly", options: PurchaseOptions()), { _ in })
    try session.perform(.family(.join("Anna")), { _ in })
    try session.perform(.advance(to: t0.plus(seconds: 60)), { _ in })
    let left = try events { try session.perform(.family(.leave("Anna")), $0) }
    #expect(left.first?.kind == .family(.leave("Anna")))
    #expect(left.transactions.count == 2)
    for (transaction, delivery) in left.transactions {
      #expect(transaction.revocationDate == t0.plus(seconds: 60) && delivery == .updates)
      #expect(transaction.revocationType == .familyRevoke)
      #expect(transaction.revocationReason == .other && transaction.revocationPercentage == nil)
    }
    #expect(left.statuses.last?.state == .revoked)
    // The purchaser keeps everything; the member sees nothing current.
    #expect(session.currentEntitlements().count == 2)
    #expect(session.view(of: try anna(session)).currentEntitlements().isEmpty)
    #expect(session.familyMembers.isEmpty && session.everyFamilyMember.map(\.name) == ["Anna"])
    // Joining again gives new transactions (new ids), under the same account.
    let back = try events { try session.perform(.family(.join("Anna")), $0) }
    #expect(back.transactions.map(\.0.id) == [FamilyState.idSpan + 2, FamilyState.idSpan + 3])
    #expect(back.transactions[1].0.originalID == FamilyState.idSpan + 1)
    #expect(session.familyMember(named: "Anna")?.number == 1)
  }

  @Test func aRefundToThePurchaserRevokesWithThePurchasersReason() throws {
    var session = makeFamilySession()
    try session.perform(.family(.join("Anna")), { _ in })
    try session.perform(.family(.join("Ben")), { _ in })
    try session.perform(.buy(productID: "lifetime", options: PurchaseOptions()), { _ in })
    let refunded = try events {
      try session.perform(.refund(0, reason: .developerIssue, share: nil), $0)
    }
    let purchaser = try #require(refunded.transactions.first?.0)
    #expect(purchaser.owner == .purchaser && purchaser.revocationType == .refundFull)
    let members = refunded.transactions.dropFirst().map(\.0)
    #expect(members.map(\.owner.name) == ["Anna", "Ben"])
    #expect(members.allSatisfy { $0.revocationType == .familyRevoke })
    #expect(members.allSatisfy { $0.revocationReason == .developerIssue })
  }

  @Test func sharingOffRevokesAndSharingOnGivesItBack() throws {
    var session = makeFamilySession()
    try session.perform(.family(.join("Anna")), { _ in })
    try session.perform(.buy(productID: "family.monthly", options: PurchaseOptions()), { _ in })
    try session.perform(.buy(productID: "lifetime", options: PurchaseOptions()), { _ in })
    let off = try events {
      try session.perform(.family(.sharing(productID: "family.monthly", enabled: false)), $0)
    }
    #expect(off.transactions.map(\.0.productID) == ["family.monthly"])
    #expect(off.transactions.first?.0.revocationType == .familyRevoke)
    #expect(!session.isShared("family.monthly") && session.isShared("lifetime"))
    // Renewals while it is not shared give the member nothing.
    let renewed = try events { try session.perform(.advanceToNextEvent, $0) }
    #expect(renewed.transactions.allSatisfy { $0.0.owner == .purchaser })
    let on = try events {
      try session.perform(.family(.sharing(productID: "family.monthly", enabled: true)), $0)
    }
    let again = try #require(on.transactions.first?.0)
    #expect(again.owner != .purchaser && again.reason == .purchase && again.revocationDate == nil)
    #expect(on.statuses.last?.state == .subscribed)
  }

  @Test func theFamilyRefusesWhatAppleDoesNotAllow() throws {
    var session = makeFamilySession()
    for name in ["", "has space", "purchaser", String(repeating: "x", count: 33), "ümlaut"] {
      #expect(session.refusal(.family(.join(name)))?.message.contains("cannot name") == true)
    }
    for name in ["A", "B", "C", "D", "E"] { try session.perform(.family(.join(name)), { _ in }) }
    #expect(session.refusal(.family(.join("F")))?.message.contains("at most 5") == true)
    #expect(session.refusal(.family(.join("A")))?.message == "A is already in the family")
    #expect(session.refusal(.family(.leave("Zed")))?.message.contains("not in the family") == true)
    #expect(
      session.refusal(.family(.sharing(productID: "solo", enabled: false)))?.message.contains(
        "not family-shareable") == true)
    #expect(
      session.refusal(.family(.sharing(productID: "gems", enabled: false)))?.message.contains(
        "only non-consumables") == true)
    #expect(session.refusal(.family(.sharing(productID: "lifetime", enabled: true))) != nil)
    #expect(
      session.refusal(.family(.sharing(productID: "nope", enabled: true)))?.reason
        == .lookup(.noProduct("nope")))
  }

  @Test func aMemberFinishesTheirOwnAndDeletionsTakeTheirsAlong() throws {
    var session = makeFamilySession()
    try session.perform(.family(.join("Anna")), { _ in })
    try session.perform(.buy(productID: "lifetime", options: PurchaseOptions()), { _ in })
    let id = FamilyState.idSpan
    #expect(session.transaction(id)?.isFinished == false)
    try session.perform(.finish(id), { _ in })
    #expect(session.transaction(id)?.isFinished == true)
    #expect(session.transaction(0)?.isFinished == false)
    #expect(session.refusal(.finish(id)) != nil)
    let deleted = try events { try session.perform(.delete(0), $0) }
    #expect(deleted.contains { $0.kind == .transactionRemoved(id: id, owner: try! anna(session)) })
    #expect(session.transaction(id) == nil)
    #expect(session.view(of: try anna(session)).allTransactions().isEmpty)
  }

  @Test func withoutAFamilyNothingChanges() throws {
    var plain = makeFamilySession()
    var withFamily = makeFamilySession()
    try withFamily.perform(.family(.join("Anna")), { _ in })
    try withFamily.perform(.family(.leave("Anna")), { _ in })
    let a = try events { try plain.perform(.buy(productID: "lifetime", options: .init()), $0) }
    let b = try events {
      try withFamily.perform(.buy(productID: "lifetime", options: .init()), $0)
    }
    #expect(a == b)
  }

  @Test func onlyThePurchasersTransactionTakesAnExtensionOrAnAccountToken() throws {
    var session = makeFamilySession()
    try session.buy("family.monthly", PurchaseOptions()) { _ in }
    try session.perform(.family(.join("Anna")), { _ in })
    let shared = try #require(session.view(of: try anna(session)).allTransactions().first).id
    let extended = session.refusal(.extendRenewalDate(shared, days: 3, reason: .undeclared))
    #expect(extended?.reason == .refund(.familySharedTransaction(transaction: shared)))
    #expect(
      extended?.message
        == "transaction \(shared) is a family member's, obtained through Family Sharing: only "
        + "the purchaser's transaction takes this")
    let token = session.refusal(
      .setAppAccountToken(shared, token: "7e3fb20b-4cdb-47cc-936d-99d65866a248"))
    #expect(token?.reason == .refund(.familySharedTransaction(transaction: shared)))
    #expect(session.refusal(.extendRenewalDate(0, days: 3, reason: .undeclared)) == nil)
    let buy = SessionVerb.buy(productID: "lifetime", options: PurchaseOptions())
    #expect(Account.purchaser.refusal(of: buy) == nil)
    #expect(try anna(session).refusal(of: buy) == .purchase(.memberCannotBuy(member: "Anna")))
    #expect(try anna(session).refusal(of: .finishAll) == nil)
    #expect(try anna(session).ownership == .familyShared)
  }
}

/// A renewal costs the same with a family as without one: each member's status is told from
/// what the member's shares keep, not by counting them.
@Suite struct FamilyRenewalCostTests {
  @Test(.timeLimit(.minutes(1)))
  func fiveMembersFollowFiveDaysOfThirtySecondRenewalsInLinearTime() throws {
    var session = Session(configuration: FamilySharingTests.configuration, start: t0)
    session.updateSettings { $0.timeRate = .monthlyRenewalEveryThirtySeconds }
    for name in ["Anna", "Ben", "Cleo", "Dan", "Eve"] {
      try session.perform(.family(.join(name))) { _ in }
    }
    try session.buy("family.monthly", PurchaseOptions()) { _ in }
    var statuses = 0
    // 14,400 renewals each for the purchaser and five members (quadratic before: about two
    // minutes in a debug build).
    try session.advance(to: t0.plus(seconds: 5 * 86_400)) { event in
      if case .status = event.kind { statuses += 1 }
    }
    for name in ["Anna", "Eve"] {
      let member = try #require(session.familyMember(named: name))
      let view = session.view(of: .member(member))
      #expect(view.allTransactions().count == 14_401)
      #expect(view.subscriptionStatuses().first?.state == .subscribed)
    }
    #expect(session.allTransactions().count == 14_401)
    #expect(statuses >= 6 * 14_400)
  }
}

/// `--member` and every front end find a member's device by name through the engine.
@Suite struct MemberLookupTests {
  @Test func aMemberIsFoundByNameAndAnUnknownNameListsWhoWasInTheFamily() throws {
    var session = Session(configuration: FamilySharingTests.configuration, start: t0)
    #expect(throws: SessionError.self) { try session.memberAccount(named: "Anna") }
    do {
      _ = try session.memberAccount(named: "Anna")
    } catch {
      #expect(error.message.contains("nobody was: family join <name> adds one"))
    }
    try session.perform(.family(.join("Anna"))) { _ in }
    try session.perform(.family(.leave("Anna"))) { _ in }
    // A member who left keeps their device.
    #expect(try session.memberAccount(named: "Anna").member?.name == "Anna")
    do {
      _ = try session.memberAccount(named: "Zed")
      Issue.record("Zed was found")
    } catch {
      #expect(error.message == "nobody of that name was ever in the family (members: Anna)")
    }
  }

}

/// Join and leave churn never gives a member ids of another customer's range or another
/// account's `appTransactionId`: once a family has had as many members as its ids have room
/// for, a new name is refused with why, and one who was in it may join again.
@Suite struct FamilyChurnTests {
  func churn(_ session: inout Session, members count: Int) throws {
    for number in 1...count {
      try session.perform(.family(.join("m\(number)"))) { _ in }
      try session.perform(.family(.leave("m\(number)"))) { _ in }
    }
  }

  @Test func aNamedCustomersSixtyFourthMemberIsRefusedAndNoIDsAreBobs() throws {
    var session = Session(configuration: FamilySharingTests.configuration, start: t0)
    try session.selectCustomer(named: "alice")
    try session.buy("lifetime", PurchaseOptions()) { _ in }
    try session.selectCustomer(named: "bob")
    try session.buy("lifetime", PurchaseOptions()) { _ in }
    let bobsIDs = Set(session.allTransactions().map(\.id))
    try session.selectCustomer(named: "alice")
    try churn(&session, members: 63)
    #expect {
      try session.perform(.family(.join("m64"))) { _ in }
    } throws: { ($0 as? SessionError)?.reason == .family(.familyNamesUsedUp(maximum: 63)) }
    let again = try events { try session.perform(.family(.join("m63")), $0) }
    let given = again.transactions.map(\.0)
    #expect(given.map(\.productID) == ["lifetime"])
    #expect(given.allSatisfy { !bobsIDs.contains($0.id) })
    #expect(given.allSatisfy { session.customer(owningID: $0.id)?.name == "alice" })
    let accounts = given.map(\.owner.appTransactionID)
    let bob = Account(customer: try #require(session.customer(named: "bob")))
    #expect(!accounts.contains(bob.appTransactionID))
  }

  @Test func theOwnCustomersFamilyStopsBeforeItsIDsReachNamedCustomers() throws {
    var session = Session(configuration: FamilySharingTests.configuration, start: t0)
    try session.buy("lifetime", PurchaseOptions()) { _ in }
    try churn(&session, members: 139)
    #expect(throws: SessionError.self) {
      try session.perform(.family(.join("m140"))) { _ in }
    }
    let again = try events { try session.perform(.family(.join("m139")), $0) }
    let id = try #require(again.transactions.first?.0.id)
    #expect(session.customer(owningID: id) == .own)
    // Customer 1's appTransactionId is the own customer's plus 1,000: no member reaches it.
    #expect(again.transactions[0].0.owner.appTransactionID != "704000000000001001")
  }
}
