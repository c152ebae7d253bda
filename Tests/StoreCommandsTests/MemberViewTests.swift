import StoreConfiguration
import StoreTestSupport
import Testing

@testable import StoreCommands
@testable import StoreSimulation

/// A member's device view through the host: made once per change of the session, not once per
/// read (the inspector reads it every frame, StorekeeperKit on every call).
@Suite struct MemberViewTests {
  @Test func aMembersViewIsMadeOncePerRevisionAndFollowsTheClock() throws {
    let host = try ScriptLoopTests().host()
    host.perform(line: "buy foodtruck.saleshistory")
    host.perform(line: "family join Anna")
    let anna = Account.member(try #require(host.session.familyMember(named: "Anna")))
    let first = host.view(of: anna)
    #expect(first.account == anna && first.allTransactions().count == 1)
    #expect(host.view(of: anna).storage === first.storage, "read again, not rebuilt")
    #expect(host.view(of: .purchaser).storage === host.session.storage)
    host.perform(line: "advance 1h")
    let later = host.view(of: anna)
    #expect(later.now == host.session.now, "a quiet advance moves the member's present too")
    host.perform(line: "refund last")
    let refunded = host.view(of: anna)
    #expect(refunded.storage !== later.storage)
    #expect(refunded.allTransactions().first?.revocationDate != nil, "the change is seen")
  }
}
