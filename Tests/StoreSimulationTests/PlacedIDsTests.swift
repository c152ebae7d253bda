import Foundation
import StoreConfiguration
import Testing

@testable import StoreSimulation

/// A customer whose transactions carry ids the engine did not make (Apple's, for an imported
/// customer): found by id, owned by them, followed by ids of their own, finished, checked.
@Suite struct PlacedIDsTests {
  func session() throws -> Session {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
    let bytes = try Data(contentsOf: root.appendingPathComponent("Configs/FoodTruck.storekit"))
    let configuration = try #require(StoreKitConfiguration.load(Array(bytes)).configuration)
    return Session(configuration: configuration, start: Instant(iso8601: "2026-11-22T02:00:00Z")!)
  }

  @Test func aPlacedIDIsFoundOwnedAndFollowedByTheCustomersNextIDs() throws {
    var session = try session()
    try session.perform(.buy(productID: "foodtruck.donuts.box", options: .init())) { _ in }
    let template = session.ledger[0]
    try session.perform(.selectCustomer(name: "imported", number: nil)) { _ in }
    let apple: UInt64 = 2_000_000_123_456_789
    #expect(!session.holdsTransaction(apple))
    _ = session.place(template, id: apple)
    #expect(session.holdsTransaction(apple))
    #expect(session.transaction(apple)?.productID == "foodtruck.donuts.box")
    #expect(session.customer(owningID: apple)?.name == "imported")
    #expect(session.customer(owningID: 0)?.name == nil, "the own customer's id 0 stays theirs")

    try session.perform(.buy(productID: "foodtruck.donuts.box", options: .init())) { _ in }
    let next = apple + 1
    #expect(session.lastTransactionID() == next)
    #expect(session.customer(owningID: next)?.name == "imported")
    #expect(session.invariantViolation() == nil)

    var finished: [UInt64] = []
    session.finishAll { event in
      if case .transaction(let transaction, _) = event.kind { finished.append(transaction.id) }
    }
    #expect(finished == [apple, next])
    try session.perform(.refund(next, reason: .other, share: nil)) { _ in }
    #expect(session.transaction(next)?.revocationDate != nil)

    try session.perform(.selectCustomer(name: nil, number: nil)) { _ in }
    #expect(session.transaction(apple) == nil, "another customer's id is not the own's")
    #expect(session.transaction(0) != nil)
  }

  @Test func aLedgerPlacingIDsKeepsPositionsAndRefusesNoneItHolds() {
    var ledger = Ledger(firstID: 100)
    let record = TransactionRecord(
      id: 0, originalID: 0, purchaseDate: 0, originalPurchaseDate: 0, price: 0, product: 0,
      storefront: 0, state: .purchased)
    #expect(ledger.append(record) == 100)
    #expect(ledger.append(record, id: 900) == 900)
    #expect(ledger.append(record) == 901)
    #expect(ledger.append(record, id: 500) == 500)
    #expect(ledger.nextID == 902)
    #expect([100, 900, 901, 500].map { ledger.position(of: $0) } == [0, 1, 2, 3])
    #expect(ledger.position(of: 101) == nil && !ledger.holds(101) && ledger.holds(500))
    ledger.update(1) { $0.flags.insert(.deleted) }
    #expect(ledger.position(of: 900) == nil && ledger.holds(900), "a deleted id stays taken")
  }
}
