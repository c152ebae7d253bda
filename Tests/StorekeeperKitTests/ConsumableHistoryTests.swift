import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// iOS 18's `SKIncludeConsumableInAppPurchaseHistory`: finished consumables leave the history
/// unless refunded, or unless the app opts in.
@Suite struct ConsumableHistoryTests {
  func history() async -> [UInt64] {
    var ids: [UInt64] = []
    for await result in Transaction.all { ids.append(try! result.payloadValue.id) }
    return ids
  }

  @Test func finishedConsumablesStayWhenTheAppOptsIn() async throws {
    let session = try makeSession()
    try await session.bind {
      let first = try await buy("foodtruck.donuts.box")
      let second = try await buy("foodtruck.donuts.box")
      #expect(await history() == [first.id, second.id], "unfinished consumables are history")
      await first.finish()
      await second.finish()
      #expect(await history().isEmpty)
      #expect(await Transaction.latest(for: "foodtruck.donuts.box") == nil)
      try session.refundTransaction(identifier: Int(first.id))
      #expect(await history() == [first.id], "a refunded one stays")
      session.includeConsumableInAppPurchaseHistory = true
      #expect(await history() == [first.id, second.id])
      let latest = try #require(await Transaction.latest(for: "foodtruck.donuts.box"))
      #expect(try latest.payloadValue.id == second.id)
      let product = try await product("foodtruck.donuts.box")
      #expect(try #require(await product.latestTransaction).payloadValue.id == second.id)
      try session.perform("set consumable-history off")
      #expect(!session.includeConsumableInAppPurchaseHistory)
      #expect(
        try #require(await Transaction.latest(for: "foodtruck.donuts.box")).payloadValue.id
          == first.id, "latest skips what left the history")
    }
  }
}
