import Foundation
import StoreCommands
import StoreSimulation
import StoreTestSupport
import StorekeeperKitTest
import Testing

@testable import StorekeeperKit

/// A member's device refuses a purchase through the host, as any refused command: the
/// observers hear it (the event stream's error line, the inspector's log), not only the app.
@Suite struct MemberRefusalTests {
  final class Recorder: CommandObserver {
    var errors: [CommandError] = []
    func finished(_ outcome: CommandOutcome, session: Session) {
      if let error = outcome.error { errors.append(error) }
    }
  }

  @Test func aMembersPurchaseIsRefusedByTheEngineAndHeardByTheHostsObservers() throws {
    let session = try SKTestSession(contentsOf: bundledConfiguration("Everything"))
    try session.joinFamily("Anna")
    let anna = try session.familyMemberSession("Anna")
    let recorder = Recorder()
    session.store.host.attach(recorder)
    let performed = anna.store.perform(
      .buy(productID: "everything.lifetime", options: PurchaseOptions()))
    #expect(performed.error?.refusal == .purchase(.memberCannotBuy(member: "Anna")))
    #expect(recorder.errors.map(\.refusal) == [.purchase(.memberCannotBuy(member: "Anna"))])
    // A line from her device too.
    _ = anna.store.perform(line: "buy everything.lifetime")
    #expect(recorder.errors.count == 2)
    // What a member may ask acts on the purchaser's session.
    #expect(anna.store.perform(line: "advance 1s").error == nil)
  }

  @Test func aMemberNobodyWasIsTheEnginesRefusalNamingWhoWas() throws {
    let session = try SKTestSession(contentsOf: bundledConfiguration("Everything"))
    try session.joinFamily("Anna")
    let refused = #expect(throws: SKTestError.self) { try session.familyMemberSession("Zed") }
    #expect(refused?.code == .invalidAction)
    #expect(refused?.localizedDescription.contains("members: Anna") == true)
  }
}
