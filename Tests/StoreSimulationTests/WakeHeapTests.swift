import Testing

@testable import StoreSimulation

/// The customers' wakes: the earliest is always the earliest of what was set, the wakes due by a
/// time are exactly those, and the clock looks only at the customers that are due.
@Suite struct WakeHeapTests {
  /// A deterministic stream of numbers (the tests never read a random source).
  struct Stream {
    var state: UInt64
    mutating func next(_ bound: Int) -> Int {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int((state >> 33) % UInt64(bound))
    }
  }

  @Test func theHeapAgreesWithAPlainListThroughTenThousandChanges() {
    var heap = WakeHeap()
    var plain: [Int: Int64] = [:]
    var stream = Stream(state: 7)
    for step in 0..<10_000 {
      let slot = stream.next(300)
      let due: Int64? = stream.next(4) == 0 ? nil : Int64(stream.next(50))
      heap.set(slot: slot, number: slot, due: due)
      plain[slot] = due
      let expected = plain.map { (due: $0.value, slot: $0.key) }
        .min { ($0.due, $0.slot) < ($1.due, $1.slot) }
      #expect(heap.min?.slot == expected?.slot, "step \(step)")
      #expect(heap.min?.due == expected?.due, "step \(step)")
      #expect(heap.count == plain.count)
      if step % 97 == 0 {
        let limit = Int64(stream.next(50))
        var seen: [Int] = []
        heap.forEach(dueBy: limit) { wake in
          seen.append(wake.slot)
          return true
        }
        let wanted = plain.filter { $0.value <= limit }.map(\.key)
        #expect(seen.sorted() == wanted.sorted(), "step \(step)")
      }
    }
  }

  @Test func theBudgetCheckLooksOnlyAtTheCustomersThatAreDue() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    for index in 0..<500 {
      try session.selectCustomer(named: "c\(index)")
      if index % 100 == 0 { _ = try events { try session.buy("monthly", PurchaseOptions(), $0) } }
    }
    var visited = 0
    session.eachCustomerDue(by: session.now.milliseconds + 1_000) { _, _, _ in
      visited += 1
      return true
    }
    #expect(visited == 0)
    session.eachCustomerDue(by: Int64.max) { _, _, _ in
      visited += 1
      return true
    }
    #expect(visited == 5)
    #expect(session.transitionsDue(until: session.now.plus(seconds: 31), atMost: 100) == 5)
  }

  @Test func customersDueAtTheSameMomentRenewInTheirNumbersOrder() throws {
    var session = makeSession(rate: .monthlyRenewalEveryThirtySeconds)
    for name in ["z", "y", "x"] {
      try session.selectCustomer(named: name)
      _ = try events { try session.buy("monthly", PurchaseOptions(), $0) }
    }
    try session.selectCustomer(named: nil)
    let renewals = try events { try session.advance(to: session.now.plus(seconds: 30), $0) }
    let order = renewals.transactions.compactMap { $0.0.owner.customer.name }
    #expect(order == ["z", "y", "x"])
    #expect(session.customer == .own)
  }
}
