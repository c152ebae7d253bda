import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// The scenarios of WWDC22's "What's new in StoreKit testing", completed, through the API an
/// app and its tests write against.
@Suite struct ScenarioTests {
  @Test func aRefundForADeveloperIssueArrivesOnTransactionUpdates() async throws {
    let session = try makeSession()
    session.refundSheetChoice = .developerIssue
    try await session.bind {
      let transaction = try await buy("foodtruck.saleshistory")
      var updates = Transaction.updates.makeAsyncIterator()
      #expect(try await transaction.beginRefundRequest() == .success)
      let refunded = try #require(await updates.next()).unsafePayloadValue
      #expect(refunded.id == transaction.id)
      #expect(refunded.revocationReason == .developerIssue)
      #expect(refunded.revocationDate != nil)
      var entitled: [String] = []
      for await item in Transaction.currentEntitlements {
        entitled.append(item.unsafePayloadValue.productID)
      }
      #expect(entitled.isEmpty, "a refunded purchase entitles to nothing")
      session.refundSheetChoice = .cancel
      let again = try await buy("foodtruck.donuts.box")
      #expect(try await again.beginRefundRequest() == .userCancelled)
    }
  }

  @Test func aRefundFromTheTransactionManagerIsSeenAsOther() async throws {
    let session = try makeSession()
    try await session.bind {
      let transaction = try await buy("foodtruck.saleshistory")
      var updates = Transaction.updates.makeAsyncIterator()
      try session.refundTransaction(identifier: Int(transaction.id))
      let refunded = try #require(await updates.next()).unsafePayloadValue
      #expect(refunded.revocationReason == .other)
      #expect(session.allTransactions().first?.cancelDate != nil)
    }
  }

  @Test func aQueuedOfferCodeIsSeenInTheRenewalInfo() async throws {
    let session = try makeSession()
    try await session.bind {
      _ = try await buy("socialfeed.monthly")
      // The introductory offer's three periods first: a code waits behind a running one.
      for _ in 0..<3 { session.advanceToNextEvent() }
      session.offerCodeToRedeem = "Free Month"
      try await AppStore.presentOfferCodeRedeemSheet()
      let status = try #require(try await Product.SubscriptionInfo.status(for: "5F0CA1F0").first)
      let renewal = try status.renewalInfo.payloadValue
      #expect(renewal.offer?.type == .code, "\(renewal.debugDescription)")
      #expect(renewal.offer?.id == "Free Month")
    }
  }

  @Test func priceIncreaseConsentAndDecline() async throws {
    let session = try makeSession()
    try await session.bind {
      let transaction = try await buy("socialfeed.premium.monthly")
      let id = Int(transaction.id)
      try session.requestPriceIncreaseConsentForTransaction(identifier: id)
      #expect(session.allTransactions().first?.isPendingPriceIncreaseConsent == true)
      var statuses = Product.SubscriptionInfo.Status.updates.makeAsyncIterator()
      try session.consentToPriceIncreaseForTransaction(identifier: id)
      let agreed = try #require(await statuses.next())
      #expect(try agreed.renewalInfo.payloadValue.priceIncreaseStatus == .agreed)

      let other = try makeSession()
      try await other.bind {
        let bought = try await buy("socialfeed.premium.monthly")
        try other.requestPriceIncreaseConsentForTransaction(identifier: Int(bought.id))
        try other.declinePriceIncreaseForTransaction(identifier: Int(bought.id))
        try other.expireSubscription(productIdentifier: "socialfeed.premium.monthly")
        let status = try #require(await bought.subscriptionStatus)
        #expect(status.state == .expired)
        #expect(
          try status.renewalInfo.payloadValue.expirationReason == .didNotConsentToPriceIncrease)
      }
    }
  }

  @Test func billingRetryWithGraceKeepsAccessUntilTheIssueIsResolved() async throws {
    let session = try makeSession()
    session.billingGracePeriodIsEnabled = true
    session.shouldEnterBillingRetryOnRenewal = true
    try await session.bind {
      let transaction = try await buy("socialfeed.premium.monthly")
      session.advanceToNextEvent()
      let test = try #require(session.allTransactions().last)
      #expect(test.hasPurchaseIssue)
      let status = try #require(await transaction.subscriptionStatus)
      #expect(status.state == .inGracePeriod)
      let renewal = try status.renewalInfo.payloadValue
      #expect(renewal.isInBillingRetry)
      #expect(renewal.gracePeriodExpirationDate != nil)
      var entitled: [UInt64] = []
      for await item in Transaction.currentEntitlements {
        entitled.append(item.unsafePayloadValue.originalID)
      }
      #expect(entitled == [transaction.originalID], "access is kept during the grace period")
      session.shouldEnterBillingRetryOnRenewal = false
      try session.resolveIssueForTransaction(identifier: test.identifier)
      let resolved = try #require(await transaction.subscriptionStatus)
      #expect(resolved.state == .subscribed)
      #expect(try resolved.renewalInfo.payloadValue.isInBillingRetry == false)
    }
  }

  @Test func askToBuyIsPendingThenTheApprovedTransactionArrivesOnUpdates() async throws {
    let session = try makeSession()
    session.askToBuyEnabled = true
    try await session.bind {
      let result = try await product("foodtruck.saleshistory").purchase()
      guard case .pending = result else {
        Issue.record("not pending: \(result)")
        return
      }
      let waiting = try #require(session.allTransactions().first)
      #expect(waiting.pendingAskToBuyConfirmation)
      var updates = Transaction.updates.makeAsyncIterator()
      try session.approveAskToBuyTransaction(identifier: waiting.identifier)
      let approved = try #require(await updates.next())
      #expect(try approved.payloadValue.productID == "foodtruck.saleshistory")
    }
  }

  @Test func anInterruptedPurchaseIsPendingUntilResolved() async throws {
    let session = try makeSession()
    session.interruptedPurchasesEnabled = true
    try await session.bind {
      let result = try await product("foodtruck.saleshistory").purchase()
      guard case .pending = result else {
        Issue.record("not pending: \(result)")
        return
      }
      let interrupted = try #require(session.allTransactions().first)
      #expect(interrupted.hasPurchaseIssue)
      var updates = Transaction.updates.makeAsyncIterator()
      try session.resolveIssueForTransaction(identifier: interrupted.identifier)
      let resolved = try #require(await updates.next())
      #expect(try resolved.payloadValue.productID == "foodtruck.saleshistory")
    }
  }

  @Test func aSimulatedNetworkErrorIsThrownFromLoadingProducts() async throws {
    let session = try makeSession()
    try await session.setSimulatedError(
      .generic(.networkError(URLError(.notConnectedToInternet))), forAPI: .loadProducts)
    #expect(await session.simulatedError(forAPI: .loadProducts) != nil)
    try await session.bind {
      do {
        _ = try await Product.products(for: ["foodtruck.donuts.box"])
        Issue.record("products loaded")
      } catch let error as StoreKitError {
        guard case .networkError = error else {
          Issue.record("\(error)")
          return
        }
      }
      try await session.setSimulatedError(nil, forAPI: .loadProducts)
      #expect(try await Product.products(for: ["foodtruck.donuts.box"]).count == 1)
    }
  }

  @Test func aSimulatedPurchaseErrorIsThrownAsProductPurchaseError() async throws {
    let session = try makeSession()
    try await session.setSimulatedError(.purchase(.productUnavailable), forAPI: .purchase)
    try await session.bind {
      await #expect(throws: Product.PurchaseError.productUnavailable) {
        _ = try await product("foodtruck.donuts.box").purchase()
      }
    }
  }

  @Test func aTestCanMakeTheNextTransactionsArriveUnverified() async throws {
    let session = try makeSession()
    try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
    try await session.bind {
      let result = try await product("foodtruck.donuts.box").purchase()
      guard case .success(.unverified(let transaction, let error)) = result else {
        Issue.record("not unverified: \(result)")
        return
      }
      #expect(error == .invalidSignature)
      #expect(transaction.productID == "foodtruck.donuts.box")
    }
  }
}
