import Crypto
import Foundation
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// Every declaration of ../shared/spec/storekit2-api.md used once, with Apple's labels, types,
/// `async`/`throws`: what app code and its tests write compiles here and does what it says.
@Suite struct APISurfaceTests {
  @Test func productsAndTheirSubscriptionsSayWhatTheConfigurationSays() async throws {
    let session = try makeSession()
    try await session.bind {
      let products = try await Product.products(for: ["socialfeed.monthly", "nope"])
      let monthly = try #require(products.first)
      #expect(products.count == 1)
      let id: Product.ID = monthly.id
      #expect(id == "socialfeed.monthly")
      #expect(monthly.type == .autoRenewable && monthly.type.localizedDescription != "")
      #expect(!monthly.displayName.isEmpty && !monthly.description.isEmpty)
      #expect(monthly.price == Decimal(string: "9.99") && monthly.displayPrice == "$9.99")
      #expect(monthly.isFamilyShareable == false)
      #expect(!monthly.jsonRepresentation.isEmpty && !monthly.debugDescription.isEmpty)
      #expect(monthly == monthly && monthly.hashValue == monthly.hashValue)
      _ = monthly.priceFormatStyle
      let info = try #require(monthly.subscription)
      #expect(info.subscriptionGroupID == "5F0CA1F0")
      #expect(info.subscriptionPeriod == .monthly && info.subscriptionPeriod.unit == .month)
      #expect(info.groupLevel == 2 && !info.groupDisplayName.isEmpty)
      let intro = try #require(info.introductoryOffer)
      #expect(intro.id == nil && intro.type == .introductory && intro.paymentMode == .payAsYouGo)
      #expect(intro.displayPrice == "$0.99" && intro.period == .monthly && intro.periodCount == 3)
      #expect(info.promotionalOffers.first?.type == .promotional)
      #expect(info.winBackOffers.isEmpty)
      #expect(await info.isEligibleForIntroOffer)
      #expect(await Product.SubscriptionInfo.isEligibleForIntroOffer(for: "5F0CA1F0"))
      #expect(try await info.status.isEmpty)
      #expect(info.subscriptionPeriod.formatted(monthly.subscriptionPeriodFormatStyle) == "1 month")
      #expect(
        info.subscriptionPeriod.unit.formatted(monthly.subscriptionPeriodUnitFormatStyle) == "month"
      )
      _ = info.subscriptionPeriod.formatted(.units(allowed: [.hours], width: .wide))
      #expect(DateComponents(subscriptionPeriod: .yearly).year == 1)
      let periods: [SubscriptionPeriod] = [
        .weekly, .monthly, .yearly, .everyThreeDays, .everyTwoWeeks, .everyTwoMonths,
        .everyThreeMonths, .everySixMonths,
      ]
      #expect(Set(periods).count == 8)
      #expect(Product.SubscriptionPeriod.Unit.day < .year)
      let range = SubscriptionPeriod.monthly.dateRange(
        referenceDate: Date(timeIntervalSince1970: 0))
      #expect(range.upperBound == Date(timeIntervalSince1970: 31 * 86_400))
      #expect(await monthly.latestTransaction == nil)
      var entitled = 0
      for await _ in monthly.currentEntitlements { entitled += 1 }
      #expect(entitled == 0)
    }
  }

  @Test func purchaseOptionsAreMadeByTheirFactoriesAndCompare() throws {
    let token = UUID()
    let options: Set<Product.PurchaseOption> = [
      .appAccountToken(token), .quantity(2), .simulatesAskToBuyInSandbox(false),
      .onStorefrontChange { _ in true }, .custom(key: "k", value: "v"),
      .custom(key: "d", value: 1.5), .custom(key: "b", value: true),
      .custom(key: "data", value: Data([1])), .introductoryOfferEligibility(compactJWS: "a.b.c"),
      .promotionalOffer(id: "promo"), .codeOffer(referenceName: "code"),
      .purchaseDate(Date(timeIntervalSince1970: 0), renewalBehavior: .cancelImmediately),
    ]
    #expect(options.count == 12)
    #expect(Product.PurchaseOption.quantity(2) == .quantity(2))
    #expect(Product.PurchaseOption.promotionalOffer("offer", compactJWS: "a.b.c").count == 2)
    #expect(!Product.PurchaseOption.quantity(1).debugDescription.isEmpty)
    let behaviors: [Product.PurchaseOption.SubscriptionRenewalBehavior] = [
      .renewUntilNow, .cancelImmediately,
    ]
    #expect(Set(behaviors).count == 2)
  }

  @Test func transactionsCarryEveryFieldOfTheirPayload() async throws {
    let session = try makeSession()
    try await session.bind {
      let token = UUID()
      let result = try await product("socialfeed.monthly").purchase(options: [
        .appAccountToken(token)
      ])
      guard case .success(let verification) = result else {
        Issue.record("\(result)")
        return
      }
      let t = try verification.payloadValue
      let id: Transaction.ID = t.id
      #expect(id == t.originalID && t.webOrderLineItemID != nil)
      #expect(t.subscriptionGroupID == "5F0CA1F0" && t.appBundleID == "com.example.storekeeper")
      #expect(t.originalPurchaseDate == t.purchaseDate && t.expirationDate! > t.purchaseDate)
      #expect(t.purchasedQuantity == 1 && !t.isUpgraded && t.revocationDate == nil)
      #expect(t.revocationReason == nil && t.productType == .autoRenewable)
      #expect(t.appAccountToken == token && t.ownershipType == .purchased)
      #expect(t.signedDate >= t.purchaseDate && t.deviceVerification.count == 48)
      #expect(
        t.deviceVerificationNonce != UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)))
      #expect(t.offer?.type == .introductory && t.offer?.paymentMode == .payAsYouGo)
      #expect(t.offer?.period == .everyThreeMonths)
      #expect(t.environment == .xcode && t.reason == .purchase)
      #expect(t.storefront.countryCode == "USA" && t.storefront.id == "143441")
      #expect(t.price == Decimal(string: "0.99") && t.currency?.identifier == "USD")
      #expect(t.appTransactionID == "704000000000000001" && t.advancedCommerceInfo == nil)
      // A subscription without billing plans: no plan, no commitment, not revoked.
      #expect(t.billingPlanType == nil && t.commitmentInfo == nil && t.revocationType == nil)
      #expect(t.ownershipType == .purchased)
      #expect(!t.jsonRepresentation.isEmpty && !t.debugDescription.isEmpty)
      #expect(
        verification.headerData.count > 10 && verification.payloadData == t.jsonRepresentation)
      #expect(verification.signatureData.count == 64 && verification.signedData.count > 10)
      let key = try #require(
        try? P256.Signing.ECDSASignature(rawRepresentation: verification.signatureData))
      #expect(key.rawRepresentation == verification.signature.rawRepresentation)
      #expect(verification.signedDate == t.signedDate)
      #expect(verification.deviceVerification == t.deviceVerification)
      #expect(verification.deviceVerificationNonce == t.deviceVerificationNonce)
      #expect(verification.unsafePayloadValue == t && !verification.debugDescription.isEmpty)
      let status = try #require(await t.subscriptionStatus)
      #expect(status.state == .subscribed && status.transaction.unsafePayloadValue.id == t.id)
      let renewal = try status.renewalInfo.payloadValue
      #expect(renewal.originalTransactionID == t.id && renewal.currentProductID == t.productID)
      #expect(renewal.willAutoRenew && renewal.autoRenewPreference == t.productID)
      #expect(renewal.expirationReason == nil && renewal.priceIncreaseStatus == .noIncreasePending)
      #expect(!renewal.isInBillingRetry && renewal.gracePeriodExpirationDate == nil)
      #expect(renewal.offer?.type == .introductory && renewal.environment == .xcode)
      #expect(renewal.eligibleWinBackOfferIDs.isEmpty && renewal.deviceVerification.count == 48)
      #expect(renewal.recentSubscriptionStartDate == t.purchaseDate)
      #expect(
        renewal.renewalDate == t.expirationDate && renewal.renewalPrice == Decimal(string: "0.99"))
      #expect(renewal.currency?.identifier == "USD" && renewal.appAccountToken == token)
      #expect(
        renewal.appTransactionID == "704000000000000001" && renewal.advancedCommerceInfo == nil)
      #expect(renewal.commitmentInfo == nil)
      #expect(status.renewalInfo.jwsRepresentation.split(separator: ".").count == 3)
      #expect(try await Product.SubscriptionInfo.status(transactionID: t.id)?.state == .subscribed)
      #expect(await Transaction.latest(for: t.productID)?.unsafePayloadValue.id == t.id)
      var all = 0
      for await _ in Transaction.all(for: t.productID) { all += 1 }
      for await _ in Transaction.currentEntitlements(for: t.productID) { all += 1 }
      #expect(all == 2)
      let states: [Product.SubscriptionInfo.RenewalState] = [
        .subscribed, .expired, .inBillingRetryPeriod, .inGracePeriod, .revoked,
      ]
      #expect(Set(states.map(\.localizedDescription)).count == 5)
      let reasons: [Product.SubscriptionInfo.RenewalInfo.ExpirationReason] = [
        .autoRenewDisabled, .billingError, .didNotConsentToPriceIncrease, .productUnavailable,
        .unknown, .unbundled,
      ]
      #expect(Set(reasons).count == 6)
      #expect(
        Transaction.OfferType.winBack.rawValue == 4
          && Transaction.Offer.PaymentMode.oneTime.rawValue == "ONE_TIME")
      #expect(Transaction.RevocationReason.developerIssue != .other)
      #expect(Transaction.OwnershipType.familyShared != .purchased)
      #expect(Transaction.Reason.renewal.rawValue == "RENEWAL")
    }
  }

  @Test func theAppStoreTheAppTransactionAndTheStorefront() async throws {
    let session = try makeSession()
    session.storefront = "JPN"
    try await session.bind {
      #expect(AppStore.canMakePayments)
      #expect(AppStore.deviceVerificationID != nil)
      try await AppStore.sync()
      try await AppStore.showManageSubscriptions()
      try await AppStore.presentOfferCodeRedeemSheet()
      AppStore.requestReview()
      let shared = try await AppTransaction.shared
      let app = try shared.payloadValue
      #expect(app.bundleID == "com.example.storekeeper" && app.environment == .xcode)
      #expect(app.appVersion == "1" && app.originalAppVersion == "1" && app.appID == nil)
      #expect(app.originalPlatform == .iOS && app.appTransactionID == "704000000000000001")
      #expect(shared.jwsRepresentation.split(separator: ".").count == 3)
      #expect(try await AppTransaction.refresh().unsafePayloadValue.bundleID == app.bundleID)
      #expect(app.revocationDate == nil && app.storeType == .consumer)
      #expect(Set([AppTransaction.StoreType.education, .enterprise, .consumer]).count == 3)
      var all: [AppTransaction] = []
      for await item in AppTransaction.all { all.append(try item.payloadValue) }
      #expect(all.map(\.bundleID) == [app.bundleID])
      #expect(await AppStore.ageRatingCode == nil)
      let storefront = try #require(await Storefront.current)
      #expect(storefront.countryCode == "JPN" && storefront.currency?.identifier == "JPY")
      let donuts = try await product("foodtruck.donuts.box")
      #expect(donuts.displayPrice.contains("2.99") || donuts.displayPrice.contains("3"))
      let environments: [AppStore.Environment] = [.production, .sandbox, .xcode]
      #expect(environments.map(\.rawValue) == ["Production", "Sandbox", "Xcode"])
      let platforms: [AppStore.Platform] = [.iOS, .macOS, .tvOS, .visionOS, .managed]
      #expect(Set(platforms).count == 5)
      let messages: [Message.Reason] = [
        .generic, .priceIncreaseConsent, .billingIssue, .winBackOffer,
      ]
      #expect(Set(messages).count == 4)
    }
  }

  @Test func periodsDescribeThemselvesWithoutCallingThemselves() {
    // The unit's debug description interpolated itself: a stack overflow whenever swift-testing
    // printed a product in a failed expectation.
    #expect("\(Product.SubscriptionPeriod.Unit.month)" == "month")
    #expect(String(reflecting: Product.SubscriptionPeriod.Unit.year) == "year")
  }

  @Test func errorsAreStoreKitsTypes() {
    let errors: [any Error] = [
      StoreKitError.unknown, StoreKitError.userCancelled,
      StoreKitError.networkError(URLError(.notConnectedToInternet)),
      StoreKitError.systemError(URLError(.unknown)), StoreKitError.notAvailableInStorefront,
      StoreKitError.notEntitled, StoreKitError.unsupported, Product.PurchaseError.invalidQuantity,
      VerificationResult<Transaction>.VerificationError.invalidSignature,
      Transaction.RefundRequestError.duplicateRequest, SKTestError(.fileNotFound),
      Product.PurchaseError.paymentMethodBindingConfigurationRequired,
    ]
    let types: [Product.ProductType] = [
      .consumable, .nonConsumable, .nonRenewable, .autoRenewable, .subscriptionBundle,
      .subscriptionSuite,
    ]
    #expect(Set(types).count == 6)
    #expect(errors.allSatisfy { !"\($0.localizedDescription)".isEmpty })
    #expect(
      SKTestErrorDomain == "SKTestErrorDomain" && SKTestError.errorDomain == SKTestErrorDomain)
    let code: SKTestError.Code = SKTestError.noTransactionFound
    #expect(code.rawValue == 6)
    #expect(SKTestSession.TimeRate(rawValue: 1005) == .oneRenewalEveryTwoSeconds)
    #expect(SKTestSession.TimeRate.monthlyRenewalEveryThirtySeconds.rawValue == 15)
    #expect(SKPaymentTransactionState.deferred.rawValue == 4)
    #expect(SKError.Code.invalidOfferPrice.rawValue == 14)
  }

  @Test func theTestSessionsSwitchesReadBackWhatWasSet() throws {
    let session = try makeSession()
    session.askToBuyEnabled = true
    session.interruptedPurchasesEnabled = true
    session.shouldEnterBillingRetryOnRenewal = true
    session.billingGracePeriodIsEnabled = true
    session.storefront = "FRA"
    session.locale = Locale(identifier: "fr_FR")
    session.timeRate = .oneRenewalEveryTenSeconds
    #expect(session.askToBuyEnabled && session.interruptedPurchasesEnabled)
    #expect(session.shouldEnterBillingRetryOnRenewal && session.billingGracePeriodIsEnabled)
    #expect(session.storefront == "FRA" && session.locale.identifier == "fr_FR")
    #expect(session.timeRate == .oneRenewalEveryTenSeconds && session.disableDialogs)
    session.resetToDefaultState()
    #expect(!session.askToBuyEnabled && session.storefront == "USA")
    #expect(throws: SKTestError.self) { try session.refundTransaction(identifier: 42) }
    do {
      try session.refundTransaction(identifier: 42)
    } catch SKTestError.noTransactionFound {
    } catch {
      Issue.record("\(error)")
    }
  }

  @Test func aMissingOrInvalidConfigurationThrowsNamingTheFile() throws {
    do {
      _ = try SKTestSession(configurationFileNamed: "NoSuchProducts")
      Issue.record("opened")
    } catch let error as SKTestError {
      #expect(error.code == .fileNotFound && error.message.contains("NoSuchProducts.storekit"))
    }
    let broken = FileManager.default.temporaryDirectory.appendingPathComponent(
      "broken-\(UUID()).storekit")
    try Data(#"{"products": 3}"#.utf8).write(to: broken)
    defer { try? FileManager.default.removeItem(at: broken) }
    do {
      _ = try SKTestSession(contentsOf: broken)
      Issue.record("opened")
    } catch let error as SKTestError {
      #expect(error.code == .invalidURL && error.message.contains(broken.path))
      #expect(error.message.contains("products"), "the JSON path: \(error.message)")
    }
    #expect(try SKTestSession(configurationFileNamed: "FoodTruck").allTransactions().isEmpty)
  }
}

@Suite struct PricingTermsTests {
  /// A product's single-price terms (a subscription that sells seats has seat-based ones after
  /// them).
  func singlePrice(_ product: Product) -> [Product.SubscriptionInfo.PricingTerms] {
    (product.subscription?.pricingTerms ?? []).filter {
      if case .singlePrice = $0.pricingModel { true } else { false }
    }
  }

  @Test func aSubscriptionWithBillingPlansHasTheTermsOfEach() async throws {
    let session = try makeSession("Everything")
    try await session.bind {
      let yearly = try await product("everything.pro.max.yearly")
      let terms = singlePrice(yearly)
      try #require(terms.count == 2)
      #expect(terms.map(\.billingPlanType) == [.upFront, .monthly])
      #expect(yearly.subscription?.pricingTerms.count == 3, "and the seat-based terms")
      let upFront = terms[0]
      #expect(upFront.billingPrice == 15000 && upFront.billingPeriod == .yearly)
      #expect(upFront.commitmentInfo.price == 15000 && upFront.commitmentInfo.period == .yearly)
      #expect(upFront[offers: .introductory].count == 1, "the up-front plan's introductory offer")
      let monthly = terms[1]
      #expect(monthly.billingPrice == 1300 && monthly.billingPeriod == .monthly)
      #expect(monthly.commitmentInfo.price == 15600 && monthly.commitmentInfo.period == .yearly)
      #expect(monthly.billingDisplayPrice.contains("1,300") && monthly.subscriptionOffers.isEmpty)
      let plans: [Product.SubscriptionInfo.BillingPlanType] = [.monthly, .upFront]
      #expect(plans.map(\.rawValue) == ["MONTHLY", "BILLED_UPFRONT"])
      let period: Product.SubscriptionInfo.BillingPeriod = monthly.billingPeriod
      #expect(period.unit == .month)
    }
  }

  @Test func aSubscriptionWithoutBillingPlansIsPaidUpFrontAtItsPrice() async throws {
    let session = try makeSession()
    try await session.bind {
      let monthly = try await product("socialfeed.monthly")
      let terms = singlePrice(monthly)
      try #require(terms.count == 1)
      #expect(terms[0].billingPlanType == .upFront)
      #expect(
        terms[0].billingPrice == monthly.price
          && terms[0].billingDisplayPrice == monthly.displayPrice)
      #expect(terms[0].billingPeriod == monthly.subscription?.subscriptionPeriod)
    }
  }
}
