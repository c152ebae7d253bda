// What Storekeeper adds for tests that Xcode's environment cannot do: a clock the test moves
// (a year of renewals in milliseconds), sessions of their own for parallel tests, the refund
// sheet's reason and the offer code chosen by the test.
#if !canImport(StoreKit)
  import FoodTruckStore
  import Foundation
  import StorekeeperKit
  import StorekeeperKitTest
  import Testing

  @Suite struct StorekeeperTests {
    /// A session of this test's own, its clock in the test's hands.
    func session() throws -> SKTestSession {
      let session = try SKTestSession(configurationFileNamed: "Products")
      session.clock = .manual
      session.disableDialogs = true
      return session
    }

    @Test func aYearOfMonthlyRenewalsArrivesOnTransactionUpdatesInMilliseconds() async throws {
      let session = try session()
      try await session.bind {
        let store = await Store(productIDs: productIDs)
        try await store.requestProducts()
        let monthly = try #require(
          await store.subscriptions.first { $0.id == "socialfeed.monthly" })
        let first = try #require(try await store.purchase(monthly))
        var updates = Transaction.updates.makeAsyncIterator()
        var renewals: [Transaction] = []
        for _ in 0..<12 {
          session.advanceToNextEvent()
          renewals.append(try #require(await updates.next()).payloadValue)
        }
        #expect(renewals.allSatisfy { $0.originalID == first.id && $0.reason == .renewal })
        #expect(Set(renewals.map(\.id)).count == 12)
      }
    }

    @Test func aRefundForADeveloperIssueReachesTheStore() async throws {
      let session = try session()
      session.refundSheetChoice = .developerIssue
      try await session.bind {
        let store = await Store(productIDs: productIDs)
        try await store.requestProducts()
        let history = try #require(await store.nonConsumables.first)
        let transaction = try #require(try await store.purchase(history))
        #expect(try await transaction.beginRefundRequest() == .success)
        for _ in 0..<1000 where await store.revocations[transaction.id] == nil {
          try await Task.sleep(nanoseconds: 10_000_000)
        }
        #expect(await store.revocations[transaction.id] == .developerIssue)
      }
    }

    @Test func aQueuedOfferCodeShowsInTheRenewalInfo() async throws {
      let session = try session()
      try await session.bind {
        let store = await Store(productIDs: productIDs)
        try await store.requestProducts()
        let monthly = try #require(
          await store.subscriptions.first { $0.id == "socialfeed.monthly" })
        let transaction = try #require(try await store.purchase(monthly))
        for _ in 0..<3 { session.advanceToNextEvent() }  // through the introductory offer
        session.offerCodeToRedeem = "Free Month"
        try await AppStore.presentOfferCodeRedeemSheet()
        let status = try #require(await transaction.subscriptionStatus)
        let renewal = try status.renewalInfo.payloadValue
        #expect(renewal.offer?.type == .code && renewal.offer?.id == "Free Month")
      }
    }
  }
#endif
