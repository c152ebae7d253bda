import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreServer

/// An App Store Server API change about a customer's transaction is one journal line that names
/// the customer: no `customer` line before or after it, the session's current customer left
/// alone, and a replay that makes the same changes.
@Suite struct AddressedCallTests {
  func served() async throws -> (ServedSession, ann: UInt64, bob: UInt64) {
    let served = try makeServed()
    let script = [
      "customer ann", "buy socialfeed.monthly", "customer bob", "buy socialfeed.monthly",
      "customer",
    ]
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands", body: script.joined(separator: "\n"))
    try #require(applied.status == 200, "\(applied.text)")
    let session = served.host.session
    func original(_ name: String) throws -> UInt64 {
      let who = try #require(session.customer(named: name))
      return try #require(session.view(of: Account(customer: who)).allTransactions().first).id
    }
    return (served, try original("ann"), try original("bob"))
  }

  static func token(_ index: Int) -> String {
    String(format: "7e3fb20b-4cdb-47cc-936d-%012d", index)
  }

  @Test func twentyChangesForTwoCustomersJournalTwentyLines() async throws {
    let (served, ann, bob) = try await served()
    let before = served.host.journaled.timeline.count
    for index in 0..<20 {
      let id = index.isMultiple(of: 2) ? ann : bob
      let answer = await served.call(
        "PUT", "/inApps/v1/transactions/\(id)/appAccountToken",
        body: #"{"appAccountToken":"\#(Self.token(index))"}"#)
      #expect(answer.status == 200, "\(answer.text)")
    }
    let lines = served.host.journaled.timeline.dropFirst(before)
    #expect(lines.count == 20)
    for (offset, line) in lines.enumerated() {
      guard case .command(_, let text, let customer) = line else {
        Issue.record("not a command: \(line)")
        continue
      }
      #expect(customer == (offset.isMultiple(of: 2) ? "ann" : "bob"))
      #expect(text.hasPrefix("account-token "))
    }
    #expect(served.host.session.customer == .own)
  }

  @Test func anAddressedLineReplaysForItsCustomer() async throws {
    let (served, ann, bob) = try await served()
    for (index, id) in [ann, bob, ann].enumerated() {
      let answer = await served.call(
        "PUT", "/inApps/v1/transactions/\(id)/appAccountToken",
        body: #"{"appAccountToken":"\#(Self.token(index))"}"#)
      #expect(answer.status == 200, "\(answer.text)")
    }
    let bytes = try journalBytes(served.host.journaled.timeline)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains(#""customer":"bob","command":"account-token"#))
    #expect(text.components(separatedBy: #""command":"customer"#).count == 4, "the script's three")
    let replayed = try reopened(journal: bytes)
    func token(_ name: String, _ id: UInt64) throws -> String? {
      let who = try #require(replayed.session.customer(named: name))
      return try #require(replayed.session.acting(as: who)).transaction(id)?.appAccountToken
    }
    #expect(try token("ann", ann) == Self.token(2))
    #expect(try token("bob", bob) == Self.token(1))
    #expect(replayed.session.customer == .own)
  }

  @Test func aLineForNobodyIsRefusedByName() throws {
    let bytes = try journalBytes([
      .command(at: start, text: "buy foodtruck.donuts.box"),
      .command(at: start, text: "finish 0", customer: "zed"),
    ])
    do {
      _ = try reopened(journal: bytes)
      Issue.record("a line for a customer nobody made replayed")
    } catch {
      #expect("\(error)".contains("zed"), "\(error)")
    }
  }
}
