import Foundation
import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// A test session's journal is a journal like the inspector's: `transactions` and the inspector
/// open it to show what the test did.
@Suite struct TestSessionJournalTests {
  @Test func aTestSessionsJournalOpensInTheTransactionsCommand() async throws {
    let folder = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: folder) }
    let journal = folder.appendingPathComponent("test.journal")
    let configuration = packageRoot.appendingPathComponent("Configs/FoodTruck.storekit")
    let session = try SKTestSession(contentsOf: configuration, journal: journal)
    session.clock = .manual
    session.disableDialogs = true
    try await session.bind {
      let monthly = try #require(try await Product.products(for: ["socialfeed.monthly"]).first)
      guard case .success(let bought) = try await monthly.purchase() else {
        Issue.record("not bought")
        return
      }
      var updates = Transaction.updates.makeAsyncIterator()
      session.advanceToNextEvent()
      let renewal = try #require(await updates.next()).unsafePayloadValue
      #expect(renewal.originalID == bought.unsafePayloadValue.id)
      try session.refundTransaction(identifier: Int(renewal.id))
    }
    let listing = try storekeeper([
      "transactions", configuration.path, "--journal", journal.path, "--format", "csv",
    ])
    #expect(listing.status == 0, "\(listing.stderr)")
    let rows = listing.stdout.split(separator: "\n").dropFirst()
    #expect(rows.count == 2, "\(listing.stdout)")
    #expect(rows.allSatisfy { $0.contains("socialfeed.monthly") }, "\(listing.stdout)")
    let states = rows.map { $0.split(separator: ",", omittingEmptySubsequences: false)[6] }
    #expect(states == ["purchased", "refunded"], "\(listing.stdout)")
  }
}
