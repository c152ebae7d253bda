import StoreConfiguration
import Testing

@testable import StoreSimulation

@Suite struct PurchaseTests {
  @Test func consumablesGetANewIDEveryTimeAndChargePerUnit() throws {
    var session = makeSession()
    try session.buy("coins", PurchaseOptions(quantity: 3)) { _ in }
    try session.buy("coins", PurchaseOptions()) { _ in }
    let all = session.allTransactions()
    #expect(all.map(\.id) == [0, 1])
    #expect(all.map(\.purchasedQuantity) == [3, 1])
    #expect(all.map(\.price) == [2970, 990])
    #expect(all.allSatisfy { $0.expirationDate == nil && $0.productType == .consumable })
    #expect(session.currentEntitlements().isEmpty)
  }

  @Test func nonConsumablesAreBoughtOnceAndHandedBackAfter() throws {
    var session = makeSession()
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.advance(to: t0.plus(seconds: 100)) { _ in }
    let again = try events { try session.buy("pro", PurchaseOptions(), $0) }
    #expect(session.transactionCount == 1)
    #expect(again.purchaseResults.first?.transactionID == 0)
    #expect(again.transactions.first?.0.purchaseDate == t0)
    #expect(throws: SessionError.self) {
      try session.buy("pro", PurchaseOptions(origin: .store)) { _ in }
    }
    try session.delete(0) { _ in }
    try session.buy("pro", PurchaseOptions(origin: .store)) { _ in }
    #expect(session.allTransactions().map(\.id) == [1])
  }

  @Test func nonRenewingSubscriptionsHaveNoEndAndStack() throws {
    var session = makeSession()
    try session.buy("season", PurchaseOptions()) { _ in }
    try session.buy("season", PurchaseOptions()) { _ in }
    let all = session.allTransactions()
    #expect(all.count == 2)
    #expect(all.allSatisfy { $0.expirationDate == nil && $0.productType == .nonRenewable })
    #expect(session.currentEntitlements().count == 2)
    try session.refund(0) { _ in }
    #expect(session.currentEntitlements().map(\.id) == [1])
  }

  @Test func quantityAboveOneOnANonConsumableFailsWithInvalidQuantity() throws {
    var session = makeSession()
    let received = try events { try session.buy("pro", PurchaseOptions(quantity: 2), $0) }
    #expect(received.purchaseResults.first?.error == .purchase(.invalidQuantity))
    #expect(received.paymentQueue.last?.error == .paymentInvalid)
    #expect(session.transactionCount == 0)
  }

  @Test func failingTransactionsRecordTheAttemptWithTheChosenError() throws {
    var session = makeSession {
      $0.failTransactionsEnabled = true
      $0.failureError = .invalidOfferPrice
    }
    let received = try events { try session.buy("coins", PurchaseOptions(), $0) }
    #expect(received.paymentQueue.map(\.state) == [.purchasing, .failed])
    #expect(received.paymentQueue.last?.error == .invalidOfferPrice)
    #expect(received.purchaseResults.first?.outcome == .failed)
    #expect(received.purchaseResults.first?.error == .purchase(.invalidOfferPrice))
    let attempt = try #require(session.transaction(0))
    #expect(attempt.state == .failed)
    #expect(attempt.failure == .purchase(.invalidOfferPrice))
    #expect(session.unfinishedTransactions().isEmpty)
  }

  @Test func aSimulatedPurchaseErrorFailsThePurchase() throws {
    var session = makeSession { $0.simulatedErrors[.purchase] = .purchase(.productUnavailable) }
    let received = try events { try session.buy("pro", PurchaseOptions(), $0) }
    #expect(received.purchaseResults.first?.error == .purchase(.productUnavailable))
    #expect(received.paymentQueue.last?.error == .storeProductNotAvailable)
    #expect(session.transaction(0)?.state == .failed)
  }

  @Test func aSimulatedCancellationIsUserCancelled() throws {
    var session = makeSession { $0.simulatedErrors[.purchase] = .generic(.userCancelled) }
    let received = try events { try session.buy("pro", PurchaseOptions(), $0) }
    #expect(received.purchaseResults.first?.outcome == .userCancelled)
    #expect(received.paymentQueue.last?.error == .paymentCancelled)
  }

  @Test func aSimulatedVerificationErrorDeliversUnverified() throws {
    var session = makeSession {
      $0.simulatedErrors[.verification] = .verification(.invalidSignature)
    }
    let received = try events { try session.buy("pro", PurchaseOptions(), $0) }
    #expect(received.purchaseResults.first?.outcome == .success)
    #expect(received.purchaseResults.first?.error == .verification(.invalidSignature))
    #expect(received.transactions.first?.0.verificationError == .verification(.invalidSignature))
  }

  @Test func purchasesOutsideTheAppIgnoreTheAppsSwitches() throws {
    var session = makeSession {
      $0.askToBuyEnabled = true
      $0.simulatedErrors[.purchase] = .generic(.networkError)
    }
    let received = try events { try session.buy("pro", PurchaseOptions(origin: .store), $0) }
    #expect(received.transactions.map(\.1) == [.updates])
    #expect(received.paymentQueue.map(\.state) == [.purchased])
  }

  @Test func unknownProductsAreErrorsWithSuggestions() {
    var session = makeSession()
    #expect(throws: SessionError(.noProduct("anual"), suggestions: ["annual"])) {
      try session.buy("anual") { _ in }
    }
    #expect(
      SessionError(.noProduct("anual"), suggestions: ["annual"]).description
        == "there is no product \"anual\" in the configuration (did you mean \"annual\"?)")
  }

  @Test func purchasesUseTheStorefrontAndLocaleInForce() throws {
    var session = makeSession { $0.storefront = Storefront(countryCode: "JPN")! }
    try session.buy("coins", PurchaseOptions()) { _ in }
    session.updateSettings { $0.storefront = Storefront(countryCode: "GBR")! }
    try session.buy("coins", PurchaseOptions()) { _ in }
    #expect(session.allTransactions().map(\.storefront) == ["JPN", "GBR"])
    #expect(session.allTransactions().map(\.currency) == ["JPY", "GBP"])
    #expect(session.catalog.product("coins")?.displayName(locale: "ja_JP") == "coins 日本")
  }

  @Test func appAccountTokensAreKept() throws {
    var session = makeSession()
    let token = "f1c2e0b4-2d0e-4c2b-9a61-4c4b1c0a9d11"
    try session.buy("coins", PurchaseOptions(appAccountToken: token)) { _ in }
    #expect(session.transaction(0)?.appAccountToken == token)
  }

  @Test func apisFailWithTheirSimulatedErrors() throws {
    var session = makeSession { $0.simulatedErrors[.loadProducts] = .generic(.networkError) }
    let failed = try events { try session.call(.loadProducts, $0) }
    #expect(
      failed == [
        StoreEvent(
          time: t0, kind: .apiCall(.loadProducts, error: .generic(.networkError), detail: nil))
      ])
    let fine = try events { try session.call(.appStoreSync, $0) }
    #expect(fine.first?.kind == .apiCall(.appStoreSync, error: nil, detail: "synced"))
  }

  @Test func withRefundReviewTheRefundSheetSubmitsARequestThatWaitsAndRefusesDuplicates() throws {
    var session = makeSession { $0.refundReviewEnabled = true }
    try session.buy("pro", PurchaseOptions()) { _ in }
    let submitted = try events {
      try session.call(.refundRequest, transaction: 0, reason: .fulfillmentIssue, $0)
    }
    #expect(
      submitted.contains {
        $0.kind == .refundRequested(transactionID: 0, reason: .fulfillmentIssue)
      })
    #expect(session.transaction(0)?.revocationDate == nil)
    #expect(session.transaction(0)?.hasRefundRequest == true)
    let again = try events { try session.call(.refundRequest, transaction: 0, $0) }
    #expect(
      again.first?.kind
        == .apiCall(.refundRequest, error: .refundRequest(.duplicateRequest), detail: nil))
  }

  /// WWDC22: "when testing with Xcode or sandbox, the refund request refunds the transaction
  /// immediately", the issue picked mapping one-to-one to the revocation reason.
  @Test func theRefundSheetRefundsAtOnceWithTheReasonPicked() throws {
    var session = makeSession()
    try session.buy("pro", PurchaseOptions()) { _ in }
    try session.buy("coins", PurchaseOptions()) { _ in }
    let refunded = try events {
      try session.call(.refundRequest, transaction: 0, reason: .developerIssue, $0)
    }
    #expect(session.transaction(0)?.revocationReason == .developerIssue)
    #expect(session.transaction(0)?.revocationDate == t0)
    #expect(session.transaction(0)?.revocationType == .refundFull)
    #expect(session.transaction(0)?.hasRefundRequest == false)
    #expect(
      refunded.transactions.map(\.1) == [.updates], "the refund arrives on Transaction.updates")
    #expect(!refunded.contains { if case .refundRequested = $0.kind { true } else { false } })
    try session.call(.refundRequest, transaction: 1, reason: .unintendedPurchase) { _ in }
    #expect(session.transaction(1)?.revocationReason == .other)
    // A journal of the second format was written when the sheet waited for review.
    var options = SessionOptions()
    options.fidelity.refundSheetOutcome = .request
    var older = Session(configuration: testConfiguration, start: t0, options: options)
    try older.buy("pro", PurchaseOptions()) { _ in }
    try older.call(.refundRequest, transaction: 0, reason: .developerIssue) { _ in }
    #expect(older.transaction(0)?.hasRefundRequest == true)
    older.resetSettings()
    #expect(older.settings.refundReviewEnabled, "reset goes back to the session's default")
  }

  @Test func settingsComeFromTheFileAndResetBackToIt() {
    var configuration = testConfiguration
    configuration.settings?.askToBuyEnabled = true
    configuration.settings?.storefront = "FRA"
    configuration.settings?.storeKitErrors = [
      StoreKitErrorSetting(
        name: "Load Products", enabled: true,
        current: .value(ErrorSelection(index: 2, type: "generic"))),
      StoreKitErrorSetting(
        name: "Purchase", enabled: false,
        current: .value(ErrorSelection(index: 1, type: "purchase"))),
    ]
    var session = Session(configuration: configuration, start: t0)
    #expect(session.settings.askToBuyEnabled)
    #expect(session.settings.storefront.currency == "EUR")
    #expect(session.settings.simulatedErrors == [.loadProducts: .generic(.networkError)])
    session.updateSettings { $0.askToBuyEnabled = false }
    session.resetSettings()
    #expect(session.settings.askToBuyEnabled)
  }

  @Test func settingsWriteBackIntoTheFileAsXcodeStoresThem() {
    var settings = SessionSettings(testConfiguration.settings)
    settings.askToBuyEnabled = true
    settings.simulatedErrors[.purchase] = .purchase(.productUnavailable)
    let written = settings.applied(to: testConfiguration.settings)
    #expect(written.askToBuyEnabled == true)
    #expect(written.storeKitErrors?.count == 9)
    #expect(
      written.storeKitErrors?[1].current == .value(ErrorSelection(index: 1, type: "purchase")))
    #expect(written.storeKitErrors?[0].current == .null)
    #expect(SessionSettings(written) == settings)
  }
}
