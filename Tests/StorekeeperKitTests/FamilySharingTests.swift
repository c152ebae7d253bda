import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// Family Sharing through StoreKit's API: a member's session sees transactions of its own,
/// `familyShared`, and loses them with `familyRevocation`.
@Suite struct FamilySharingAPITests {
  func entitlements() async -> [Transaction] {
    var found: [Transaction] = []
    for await item in Transaction.currentEntitlements { found.append(item.unsafePayloadValue) }
    return found
  }

  @Test func aMembersSessionSeesFamilySharedTransactionsOfItsOwn() async throws {
    let session = try makeSession("Everything")
    try await session.setSimulatedError(nil, forAPI: .appTransaction)  // on in the file
    try session.joinFamily("Anna")
    let anna = try session.familyMemberSession("Anna")
    // Anna listens on her device before the purchaser buys.
    let heard = Task {
      await anna.bind {
        var updates = Transaction.updates.makeAsyncIterator()
        return await updates.next()?.unsafePayloadValue
      }
    }
    let bought = try await session.bind { try await buy("everything.family.monthly") }
    let given = try #require(await heard.value)
    #expect(given.ownershipType == .familyShared && given.productID == bought.productID)
    #expect(given.id != bought.id && given.originalPurchaseDate == bought.originalPurchaseDate)
    try await anna.bind {
      let owned = await entitlements()
      #expect(owned.map(\.id) == [given.id])
      #expect(owned.first?.appTransactionID != bought.appTransactionID)
      let app = try await AppTransaction.shared.payloadValue
      #expect(app.appTransactionID == owned.first?.appTransactionID)
      let status = try #require(try await Product.SubscriptionInfo.status(for: "B2C3D4E5").first)
      #expect(status.state == .subscribed)
      #expect(try status.transaction.payloadValue.ownershipType == .familyShared)
      #expect(try status.renewalInfo.payloadValue.originalTransactionID == given.id)
      // A member's device cannot buy: purchases are the purchaser's.
      await #expect(throws: (any Error).self) { try await buy("everything.lifetime") }
    }
    await session.bind {
      #expect(await entitlements().map(\.ownershipType) == [.purchased])
    }
    // Leaving revokes it, on her device (kept for her app until it listens, as StoreKit does).
    try session.leaveFamily("Anna")
    let lost = try #require(
      await anna.bind {
        var updates = Transaction.updates.makeAsyncIterator()
        return await updates.next()?.unsafePayloadValue
      })
    #expect(lost.id == given.id && lost.revocationType == .familyRevocation)
    #expect(lost.revocationReason == .other && lost.revocationDate != nil)
    await anna.bind { #expect(await entitlements().isEmpty) }
    #expect(throws: SKTestError.self) { try session.familyMemberSession("Zed") }
    #expect(throws: SKTestError.self) {
      try session.setFamilySharing(false, productIdentifier: "everything.coins.100")
    }
  }
}
