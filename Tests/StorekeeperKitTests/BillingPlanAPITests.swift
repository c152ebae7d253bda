import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// Buying a billing plan through StoreKit's API: `PurchaseOption.billingPlanType(_:)`, and the
/// plan's fields of `Transaction` and `RenewalInfo`.
@Suite struct BillingPlanAPITests {
  @Test func aMonthlyPlanIsBoughtAndSaysWhereItsCommitmentStands() async throws {
    let session = try makeSession("Everything")
    try await session.bind {
      let product = try await product("everything.pro.max.yearly")
      let monthly = try #require(
        product.subscription?.pricingTerms.first { $0.billingPlanType == .monthly })
      let bought = try await buy("everything.pro.max.yearly", [.billingPlanType(.monthly)])
      #expect(bought.billingPlanType == .monthly)
      #expect(bought.price == monthly.billingPrice)
      let commitment = try #require(bought.commitmentInfo)
      #expect(commitment.billingPeriodNumber == 1 && commitment.totalBillingPeriods == 12)
      #expect(commitment.price == monthly.commitmentInfo.price)
      #expect(commitment.expirationDate > bought.expirationDate ?? .distantFuture)
      let status = try #require(try await product.subscription?.status.first)
      let renewal = try status.renewalInfo.payloadValue
      #expect(renewal.commitmentInfo?.renewalBillingPlanType == .monthly)
      #expect(renewal.commitmentInfo?.renewalDate == commitment.expirationDate)
      #expect(renewal.commitmentInfo?.willAutoRenew == true)
      session.advanceToNextEvent()
      var latest: Transaction?
      for await result in Transaction.all { latest = result.unsafePayloadValue }
      #expect(latest?.commitmentInfo?.billingPeriodNumber == 2)
      // A subscription without billing plans says nothing of one.
      let plain = try await buy("everything.family.monthly")
      #expect(plain.billingPlanType == nil && plain.commitmentInfo == nil)
    }
  }
}
