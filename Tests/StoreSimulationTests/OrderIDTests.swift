import Testing

@testable import StoreSimulation

@Suite struct OrderIDTests {
  @Test func orderIDsAreTenCapitalsOrDigitsAndReadBackToTheirTransaction() {
    var seen = Set<String>()
    for id in Array(0..<5_000) + [1 << 32, (1 << 50) - 1] as [UInt64] {
      let order = OrderID.make(id)
      #expect(order.count == 10)
      #expect(order.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) })
      #expect(OrderID.transactionID(order) == id)
      seen.insert(order)
    }
    #expect(seen.count == 5_002, "no two transactions share an order")
    #expect(OrderID.make(0) != OrderID.make(1))
  }

  @Test func anythingElseIsNoOrder() {
    for text in ["", "MK5TTTVWJ", "MK5TTTVWJHX", "mk5tttvwjh", "MK5TTT-WJH", "ZZZZZZZZZZ"] {
      #expect(OrderID.transactionID(text) == nil, "\(text)")
    }
  }
}
