import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

@Suite struct PurchaseTests {
  @Test func aPurchaseReturnsAVerifiedTransactionSignedAsXcodeSignsIt() async throws {
    let session = try makeSession()
    try await session.bind {
      let donuts = try await product("foodtruck.donuts.box")
      #expect(donuts.type == .consumable)
      #expect(donuts.displayPrice == "$2.99")
      #expect(donuts.price == Decimal(string: "2.99"))
      let result = try await donuts.purchase(options: [.quantity(2)])
      guard case .success(let verification) = result else {
        Issue.record("not bought: \(result)")
        return
      }
      let transaction = try verification.payloadValue
      #expect(transaction.productID == "foodtruck.donuts.box")
      #expect(transaction.purchasedQuantity == 2)
      #expect(transaction.environment == .xcode)
      #expect(transaction.price == Decimal(string: "5.98"))
      #expect(verification.jwsRepresentation.split(separator: ".").count == 3)
      var unfinished: [UInt64] = []
      for await item in Transaction.unfinished { unfinished.append(item.unsafePayloadValue.id) }
      #expect(unfinished == [transaction.id])
      await transaction.finish()
      unfinished = []
      for await item in Transaction.unfinished { unfinished.append(item.unsafePayloadValue.id) }
      #expect(unfinished.isEmpty)
    }
  }

  @Test func renewalsArriveOnTransactionUpdatesAsTheManualClockMoves() async throws {
    let session = try makeSession()
    try await session.bind {
      let monthly = try await product("socialfeed.monthly")
      guard case .success = try await monthly.purchase() else {
        Issue.record("not bought")
        return
      }
      var updates = Transaction.updates.makeAsyncIterator()
      session.advanceToNextEvent()
      let renewal = try #require(await updates.next())
      #expect(renewal.unsafePayloadValue.reason == .renewal)
      #expect(renewal.unsafePayloadValue.productID == "socialfeed.monthly")
    }
  }

  @Test func twoSessionsBoundInParallelNeverSeeEachOthersTransactions() async throws {
    try await withThrowingTaskGroup(of: Int.self) { group in
      for count in 1...2 {
        group.addTask {
          let session = try makeSession()
          return try await session.bind {
            let box = try await product("foodtruck.donuts.box")
            for _ in 0..<count { _ = try await box.purchase() }
            var seen = 0
            for await _ in Transaction.all { seen += 1 }
            return seen * 10 + count
          }
        }
      }
      var results: [Int] = []
      for try await result in group { results.append(result) }
      #expect(results.sorted() == [11, 22])
    }
  }
}

@Suite struct PurchaseIntentTests {
  @Test func aPurchaseStartedOnTheAppStoreReachesTheAppAndTheAppCompletesIt() async throws {
    let session = try makeSession()
    try await session.bind {
      // Sent while the app is launching: kept for the first listener, as StoreKit keeps it.
      try session.sendPurchaseIntent(
        productIdentifier: "socialfeed.monthly", offerID: "socialfeed.monthly.loyalty")
      var intents = PurchaseIntent.intents.makeAsyncIterator()
      let intent = try #require(await intents.next())
      #expect(intent.id == "socialfeed.monthly" && intent.product.id == intent.id)
      #expect(
        intent.offer?.id == "socialfeed.monthly.loyalty" && intent.offer?.type == .promotional)
      // A promoted product without an offer: the app completes the purchase.
      try session.sendPurchaseIntent(productIdentifier: "foodtruck.saleshistory")
      let promoted = try #require(await intents.next())
      #expect(promoted.offer == nil)
      let result = try await promoted.product.purchase()
      guard case .success(let verification) = result else {
        Issue.record("not bought: \(result)")
        return
      }
      #expect(try verification.payloadValue.productID == "foodtruck.saleshistory")
      #expect(throws: SKTestError.self) {
        try session.sendPurchaseIntent(productIdentifier: "socialfeed.monthly", offerID: "nope")
      }
      #expect(throws: SKTestError.self) { try session.sendPurchaseIntent(productIdentifier: "x") }
    }
  }
}

@Suite struct OneTimeOfferCodeAPITests {
  @Test func aOneTimeProductsOfferCodeRedeemedInTheSheetArrivesWithAOneTimeOffer() async throws {
    let session = try makeSession("Everything")
    session.offerCodeToRedeem = "Coins Half Price"
    try await session.bind {
      var updates = Transaction.updates.makeAsyncIterator()
      try await AppStore.presentOfferCodeRedeemSheet()
      let redeemed = try #require(await updates.next()).unsafePayloadValue
      #expect(redeemed.productID == "everything.coins.100")
      #expect(redeemed.offer?.type == .code && redeemed.offer?.id == "Coins Half Price")
      #expect(redeemed.offer?.paymentMode == .oneTime && redeemed.offer?.period == nil)
      #expect(redeemed.price == Decimal(string: "0.49"))
      // StoreKitTest's option applies it to a purchase made outside the app too.
      let pass = try await session.buyProduct(
        identifier: "everything.season.pass",
        options: [.codeOffer(referenceName: "Season Discount")])
      #expect(pass.offer?.paymentMode == .oneTime && pass.price == Decimal(string: "1.99"))
      let bought = try #require(await updates.next()).unsafePayloadValue
      #expect(bought.id == pass.id)
    }
  }
}
