import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Many customers over one clock: each has an Apple Account of their own (ids, appTransactionId,
/// subscriptions, settings), the clock renews every one of them in time order, and what one
/// does never reaches another.
@Suite struct CustomerTests {
  /// A session at 30-second months with a customer called `name` made and selected.
  func session(with names: [String]) throws -> Session {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    for name in names { try session.selectCustomer(named: name) }
    return session
  }

  @Test func aCustomerGivenTheLastNumberLeavesTheOthersTheLowestFreeOnes() throws {
    var session = try session(with: [])
    try session.selectCustomer(named: "a", number: Customer.maximumNumber)
    try session.selectCustomer(named: "b")
    try session.selectCustomer(named: "c", number: 2)
    try session.selectCustomer(named: "d")
    #expect(session.customers.map(\.number) == [0, Customer.maximumNumber, 1, 2, 3])
  }

  @Test func twoCustomersBuyTheSameProductAndARefundReachesOnlyOne() throws {
    var session = try session(with: [])
    try session.selectCustomer(named: "alice")
    let alice = try events { try session.buy("monthly", PurchaseOptions(), $0) }
    try session.selectCustomer(named: "bob")
    let bob = try events { try session.buy("monthly", PurchaseOptions(), $0) }
    let aliceID = try #require(alice.transactions.first?.0.id)
    let bobID = try #require(bob.transactions.first?.0.id)
    #expect(aliceID != bobID)
    #expect(alice.allSatisfy { $0.customer?.name == "alice" })
    #expect(bob.allSatisfy { $0.customer?.name == "bob" })
    #expect(alice.transactions[0].0.owner.appTransactionID == "704000000000001001")
    #expect(bob.transactions[0].0.owner.appTransactionID == "704000000000002001")

    let refund = try events { try session.refund(bobID, reason: .other, share: nil, $0) }
    #expect(refund.allSatisfy { $0.customer?.name == "bob" })
    #expect(session.currentEntitlements().isEmpty)
    // Bob cannot act on Alice's transaction: it is not in his account.
    #expect(throws: SessionError.self) {
      try session.refund(aliceID, reason: .other, share: nil) { _ in }
    }
    try session.selectCustomer(named: "alice")
    #expect(session.currentEntitlements().map(\.id) == [aliceID])
    // The own customer bought nothing.
    try session.selectCustomer(named: nil)
    #expect(session.currentEntitlements().isEmpty && session.customer == .own)
  }

  @Test func theClockRenewsEveryCustomerInTimeOrderAndComesBackToTheCurrentOne() throws {
    var session = try session(with: [])
    try session.selectCustomer(named: "alice")
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.advance(to: session.now.plus(seconds: 10)) { _ in }
    try session.selectCustomer(named: "bob")
    try session.buy("monthly", PurchaseOptions()) { _ in }
    let start = session.now
    let renewals = try events { try session.advance(to: start.plus(seconds: 65), $0) }
    let order = renewals.transactions.map(\.0)
    #expect(order.map(\.owner.customer.name) == ["alice", "bob", "alice", "bob"])
    #expect(zip(renewals, renewals.dropFirst()).allSatisfy { $0.time <= $1.time })
    #expect(session.customer.name == "bob")
    #expect(session.now == start.plus(seconds: 65))
    #expect(session.nextScheduledEvent == t0.plus(seconds: 90))  // Alice's, not Bob's (100)
  }

  @Test func aVerbAddressedToAnotherCustomerLeavesTheCurrentOneCurrentAndScopesNest() throws {
    var session = try session(with: ["alice", "carol", "bob"])
    let alice = try #require(session.customer(named: "alice"))
    let carol = try #require(session.customer(named: "carol"))
    var inside: [String?] = []
    let bought = try session.addressing(alice) { (session) throws -> [StoreEvent] in
      let made = try events { try session.buy("monthly", PurchaseOptions(), $0) }
      inside.append(session.account.customer.name)
      session.addressing(carol) { inside.append($0.account.customer.name) }
      inside.append(session.account.customer.name)
      inside.append(session.customer.name)
      return made
    }
    #expect(inside == ["alice", "carol", "alice", "bob"], "the current customer stays bob")
    #expect(bought?.allSatisfy { $0.customer?.name == "alice" } == true)
    #expect(session.customer.name == "bob" && session.account.customer.name == "bob")
    #expect(session.currentEntitlements().isEmpty, "bob bought nothing")
    let alicesView = try #require(session.acting(as: alice))
    #expect(alicesView.currentEntitlements().map(\.owner.customer.name) == ["alice"])
    #expect(session.addressing(Customer(name: "nobody", number: 77)) { _ in 1 } == nil)
  }

  @Test func settingsAreEachCustomersOwnAndStartFromTheOwnCustomers() throws {
    var session = try session(with: ["alice"])
    session.updateSettings { $0.shouldEnterBillingRetryOnRenewal = true }
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.selectCustomer(named: "bob")
    #expect(session.settings.timeRate == .monthlyRenewalEveryThirtySeconds)
    #expect(!session.settings.shouldEnterBillingRetryOnRenewal)
    try session.buy("monthly", PurchaseOptions()) { _ in }
    try session.advance(to: session.now.plus(seconds: 31)) { _ in }
    #expect(session.subscriptionStatuses().map(\.state) == [.subscribed])
    try session.selectCustomer(named: "alice")
    #expect(session.subscriptionStatuses().map(\.state) == [.inBillingRetryPeriod])
  }

  @Test func aCustomersNumberPicksTheirIdsWhateverCameBefore() throws {
    var everyone = try session(with: ["a", "b", "c"])
    var alone = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    try alone.selectCustomer(named: "c", number: 3)
    var both: [[StoreEvent]] = []
    for var session in [everyone, alone] {
      try session.selectCustomer(named: "c")
      var made = try events { try session.buy("monthly", PurchaseOptions(), $0) }
      made += try events { try session.advance(to: t0.plus(seconds: 95), $0) }
      both.append(made.filter { $0.customer?.name == "c" })
      if session.customers.count == 4 { everyone = session } else { alone = session }
    }
    #expect(both[0] == both[1] && both[0].transactions.count == 4)
    #expect(everyone.customers.map(\.number) == [0, 1, 2, 3])
  }

  @Test func customerLinesAreRefusedWithReasons() throws {
    var session = try session(with: ["alice"])
    func refusal(_ name: String?, _ number: Int?) -> Refusal? {
      session.refusal(.selectCustomer(name: name, number: number))?.reason
    }
    #expect(refusal("al ice", nil) == .customer(.invalidCustomerName("al ice")))
    #expect(refusal("alice", 7) == .customer(.customerNumberNotTheirs(name: "alice", number: 1)))
    #expect(refusal("bob", 1) == .customer(.customerNumberTaken(1, by: "alice")))
    #expect(
      refusal("bob", 0) == .customer(.customerNumberOutOfRange(0, maximum: Customer.maximumNumber)))
    #expect(refusal(nil, 3) == .customer(.customerNumberWithoutName))
    #expect(refusal("bob", 5) == nil)
    #expect(session.noCustomer(named: "carol").message.contains("customers: alice"))
    try session.selectCustomer(named: "bob", number: 5)
    #expect(session.customer(owningID: session.ledger.firstID) == session.customer)
  }

  @Test func aViewOfAnotherCustomerSeesOnlyTheirs() throws {
    var session = try session(with: ["alice"])
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.selectCustomer(named: "bob")
    let alice = session.view(of: Account(customer: try #require(session.customer(named: "alice"))))
    #expect(alice.currentEntitlements().map(\.productID) == ["pro"])
    #expect(alice.customer.name == "alice")
    #expect(session.currentEntitlements().isEmpty)
  }

  @Test func aMassExtensionExtendsEveryCustomerAndCountsThem() throws {
    var session = makeSession()
    for name in ["alice", "bob", "carol"] {
      try session.selectCustomer(named: name)
      try session.buy("monthly", PurchaseOptions()) { _ in }
    }
    try session.selectCustomer(named: nil)
    let made = try events {
      try session.extendRenewalDates(of: "monthly", days: 3, requestIdentifier: "r1", $0)
    }
    let extended = made.compactMap { event -> String? in
      if case .renewalExtension(let e) = event.kind, e.failure == nil {
        return event.customer?.name
      }
      return nil
    }
    #expect(extended == ["alice", "bob", "carol"])
    #expect(
      session.massExtension(productID: "monthly", requestIdentifier: "r1")?.summary
        .succeededCount == 3)
    #expect(session.customer == .own)
  }
}
