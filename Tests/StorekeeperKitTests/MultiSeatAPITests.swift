import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// Multiseat through StoreKit's API: `PurchaseOption.seats(_:)`, `Transaction.multiSeatInfo`,
/// the renewal's `renewalQuantity`, and the purchase errors Apple gives seats.
@Suite struct MultiSeatAPITests {
  @Test func aPurchaseWithFiveSeatsReadsItsSeatInformation() async throws {
    let session = try makeSession()
    try await session.bind {
      let product = try await product("socialfeed.premium.monthly")
      #expect(product.supportsMultiSeatPurchase)
      let bought = try await buy("socialfeed.premium.monthly", [.seats(5)])
      #expect(bought.purchasedQuantity == 5)
      #expect(bought.price == product.price, "the price is the average of a seat")
      let info = try #require(bought.multiSeatInfo)
      #expect(info.invitationManagement == .apple)
      #expect(info.priceTiers == info.priceTiers.filter { $0.price == product.price })
      #expect(info.priceTiers.map(\.quantity).reduce(0, +) == 5)
      #expect(info.revokedSeatQuantity == nil)
      #expect(bought.additionalTransactionReason == nil)
      #expect(bought.ownershipType == .purchased)
      let status = try #require(try await product.subscription?.status.first)
      let renewal = try status.renewalInfo.payloadValue
      #expect(renewal.renewalQuantity == 5)
      #expect(renewal.multiSeatInfo?.renewalPriceTiers.first?.quantity == 5)
      // More seats by buying again: a transaction for the added ones.
      let added = try await buy("socialfeed.premium.monthly", [.seats(7)])
      #expect(added.purchasedQuantity == 2)
      #expect(added.additionalTransactionReason == .seatAddition)
      #expect(added.originalID == bought.originalID)
      // The purchaser reduces seats for the next renewal; Apple refunds one.
      try session.perform("seats \(bought.id) 4")
      try session.perform("refund \(bought.id) seats=1")
      let renewing = try #require(try await product.subscription?.status.first)
      #expect(try renewing.renewalInfo.payloadValue.renewalQuantity == 4)
      var revoked: Int?
      for await result in Transaction.all where result.unsafePayloadValue.id == bought.id {
        revoked = result.unsafePayloadValue.multiSeatInfo?.revokedSeatQuantity
      }
      #expect(revoked == 1)
    }
  }

  @Test func seatsAreRefusedWithApplesPurchaseErrors() async throws {
    let session = try makeSession()
    try await session.bind {
      _ = try await buy("socialfeed.premium.monthly", [.seats(3)])
      await #expect(throws: Product.PurchaseError.seatReductionNotAllowed) {
        _ = try await product("socialfeed.premium.monthly").purchase(options: [.seats(2)])
      }
      await #expect(throws: Product.PurchaseError.multiSeatPurchaseDisabled) {
        _ = try await product("foodtruck.donuts.box").purchase(options: [.seats(2)])
      }
      try session.perform("set seat-pricing socialfeed.yearly off")
      await #expect(throws: Product.PurchaseError.multiSeatPurchaseDisabled) {
        _ = try await product("socialfeed.yearly").purchase(options: [.seats(2)])
      }
      let plain = try await buy("foodtruck.saleshistory")
      #expect(plain.multiSeatInfo == nil && plain.additionalTransactionReason == nil)
      #expect(try await !product("foodtruck.donuts.box").supportsMultiSeatPurchase)
    }
  }

  @Test func anInvitedMembersSessionSeesAnAssignedTransactionOfItsOwn() async throws {
    let session = try makeSession()
    let bought = try await session.bind {
      try await buy("socialfeed.premium.monthly", [.seats(3)])
    }
    try session.inviteGroupMember("ann")
    let ann = try session.customerSession("ann")
    let given = try await ann.bind {
      var owned: [Transaction] = []
      for await item in Transaction.currentEntitlements { owned.append(item.unsafePayloadValue) }
      // A member's seat is the purchaser's to change: their own purchase in the group is refused.
      await #expect(throws: (any Error).self) {
        _ = try await product("socialfeed.premium.monthly").purchase()
      }
      return owned
    }
    let seat = try #require(given.first)
    #expect(given.count == 1 && seat.ownershipType == .assigned)
    #expect(seat.id != bought.id && seat.appTransactionID != bought.appTransactionID)
    #expect(seat.multiSeatInfo?.invitationManagement == .apple)
    #expect(seat.purchasedQuantity == 3 && seat.expirationDate == bought.expirationDate)
    try session.removeGroupMember("ann")
    let lost = try #require(
      await ann.bind {
        var updates = Transaction.updates.makeAsyncIterator()
        return await updates.next()?.unsafePayloadValue
      })
    #expect(lost.id == seat.id && lost.revocationType == .assignmentRevocation)
    #expect(throws: SKTestError.self) { try session.removeGroupMember("ann") }
    #expect(throws: SKTestError.self) { try session.customerSession("zed") }
    // A subscription keeps the hosting it was bought with.
    try session.setInvitationManagement(.developer)
    try session.inviteGroupMember("cid")
  }
}

/// iOS 27.3's seat-based pricing terms and the two sheets: the multiseat invitation sheet and
/// the redemption sheet that returns its transaction.
@Suite struct MultiSeatSheetTests {
  func isCancelled(_ error: any Error) -> Bool {
    if case .userCancelled? = error as? StoreKitError { true } else { false }
  }

  @Test func pricingTermsGiveSeatBasedTiers() async throws {
    let session = try makeSession()
    try session.perform("set seat-pricing socialfeed.premium.monthly 5:14.99 10:10 *:5")
    try await session.bind {
      let terms = try #require(try await product("socialfeed.premium.monthly").subscription)
        .pricingTerms
      var single: Product.SubscriptionInfo.PricingTerms.SinglePrice?
      var seats: Product.SubscriptionInfo.PricingTerms.SeatBasedPricing?
      for term in terms {
        switch term.pricingModel {
        case .singlePrice(let price): single = price
        case .seatBased(let pricing): seats = pricing
        }
      }
      #expect(single?.billingInfo.price == Decimal(string: "14.99"))
      let tiers = try #require(seats?.priceTiers)
      #expect(tiers.map(\.minimumSeats) == [1, 6, 11])
      #expect(tiers.map(\.maximumSeats) == [5, 10, nil])
      #expect(tiers.map(\.billingInfo.price) == [Decimal(string: "14.99"), 10, 5])
      #expect(tiers.first?.billingInfo.period.unit == .month)
      try session.perform("set seat-pricing socialfeed.premium.monthly off")
      let off = try await product("socialfeed.premium.monthly")
      #expect(!off.supportsMultiSeatPurchase)
      #expect(off.subscription?.pricingTerms.count == 1)
    }
  }

  @Test func theInvitationSheetInvitesWhomTheTestNames() async throws {
    let session = try makeSession()
    let group = try await session.bind {
      let bought = try await buy("socialfeed.premium.monthly", [.seats(3)])
      // Nobody named: the purchaser dismisses the sheet.
      await #expect {
        try await AppStore.presentMultiSeatInvitationSheet(
          subscriptionGroupID: bought.subscriptionGroupID ?? "")
      } throws: { isCancelled($0) }
      return bought.subscriptionGroupID ?? ""
    }
    session.multiSeatInvitees = ["ann", "bob"]
    try await session.bind {
      try await AppStore.presentMultiSeatInvitationSheet(subscriptionGroupID: group)
      await #expect(throws: StoreKitError.self) {
        try await AppStore.presentMultiSeatInvitationSheet(subscriptionGroupID: "nope")
      }
    }
    let bob = try session.customerSession("bob")
    await bob.bind {
      var owned: [Transaction] = []
      for await item in Transaction.currentEntitlements { owned.append(item.unsafePayloadValue) }
      #expect(owned.map(\.ownershipType) == [.assigned])
    }
  }

  @Test func theRedemptionSheetReturnsItsTransaction() async throws {
    let session = try makeSession()
    try await session.bind {
      await #expect {
        _ = try await AppStore.presentOfferCodeRedeemSheet(options: [])
      } throws: { isCancelled($0) }
    }
    session.offerCodeToRedeem = "Free Month"
    try await session.bind {
      let redeemed = try await AppStore.presentOfferCodeRedeemSheet(options: []).payloadValue
      // A stackable code for a new subscriber: the introductory offer's periods come first.
      #expect(redeemed.productID == "socialfeed.monthly" && redeemed.offer?.type == .introductory)
    }
  }
}
