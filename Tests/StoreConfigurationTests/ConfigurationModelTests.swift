import StoreJSON
import Testing

@testable import StoreConfiguration

@Suite struct ConfigurationModelTests {
  func configuration(_ json: String) -> StoreKitConfiguration? {
    let result = load(json)
    #expect(!result.hasErrors, "\(result.diagnostics.map { $0.formatted(file: "F") })")
    return result.configuration
  }

  @Test func readsProductsOfEveryType() throws {
    let json = """
      {
        "identifier" : "ABCD1234",
        "nonRenewingSubscriptions" : [\(product("season", type: "NonRenewingSubscription"))],
        "products" : [\(product("coins", type: "Consumable", price: "\"13900\"")),
                      \(product("pro", extra: "\"promotionalImageID\" : \"7E5A0001\","))],
        "settings" : {},
        "subscriptionGroups" : [],
        "version" : { "major" : 5, "minor" : 0 }
      }
      """
    let file = try #require(configuration(json))
    #expect(file.products?.map(\.type) == [.consumable, .nonConsumable])
    #expect(file.products?.first?.displayPrice.milliunits == 13_900_000)
    #expect(file.products?.last?.promotionalImageID == "7E5A0001")
    #expect(file.nonRenewingSubscriptions?.first?.type == .nonRenewingSubscription)
    #expect(file.version == FormatVersion(5, 0))
    #expect(file.identifier == "ABCD1234")
  }

  @Test func readsSubscriptionFields() throws {
    let file = try #require(configuration(fileWithSubscription()))
    let subscription = try #require(file.allSubscriptions.first)
    #expect(subscription.product.productID == "sub.monthly")
    #expect(subscription.groupNumber == 1)
    #expect(subscription.recurringSubscriptionPeriod == SubscriptionPeriod(1, .month))
    #expect(subscription.subscriptionGroupID == "G1")
    #expect(subscription.introductoryOffer == .absent)
    #expect(subscription.winbackOffers == nil)
    #expect(file.subscriptionGroups?.first?.name == "Group")
  }

  @Test func readsIntroductoryOfferInItsThreeForms() throws {
    let null = try #require(configuration(fileWithSubscription("\"introductoryOffer\" : null,")))
    #expect(null.allSubscriptions.first?.introductoryOffer == .null)
    #expect(null.allSubscriptions.first?.effectiveIntroductoryOffer == nil)
    let object = try #require(
      configuration(
        fileWithSubscription(
          """
          "introductoryOffer" : {"displayPrice" : "0.99", "internalID" : "X",
            "numberOfPeriods" : 3, "paymentMode" : "payAsYouGo", "subscriptionPeriod" : "P1M"},
          """)))
    let offer = try #require(object.allSubscriptions.first?.introductoryOffer.wrapped)
    #expect(offer.paymentMode == .payAsYouGo)
    #expect(offer.periodCount == 3)
    #expect(offer.displayPrice == Price("0.99"))
  }

  @Test func prefersTheUpfrontEntryOfVersion5IntroductoryOffers() throws {
    let file = try #require(
      configuration(
        fileWithSubscription(
          """
          "introductoryOffers" : [
            {"billingPlanType" : "MONTHLY", "internalID" : "M", "paymentMode" : "free", "subscriptionPeriod" : "P1W"},
            {"billingPlanType" : "BILLED_UPFRONT", "internalID" : "U", "paymentMode" : "free", "subscriptionPeriod" : "P2W"}],
          "billingPlans" : [{"billingPlanType" : "MONTHLY", "commitmentDisplayPrice" : "6.00",
            "displayPrice" : "0.5", "internalID" : "B", "isEnabled" : true}],
          """)))
    let subscription = try #require(file.allSubscriptions.first)
    #expect(subscription.effectiveIntroductoryOffer?.internalID == "U")
    #expect(subscription.billingPlans?.first?.commitmentDisplayPrice == Price("6.00"))
    #expect(subscription.billingPlans?.first?.isEnabled == true)
  }

  @Test func readsPromotionalCodeAndWinBackOffers() throws {
    let json = fileWithSubscription(
      """
      "adHocOffers" : [{"displayPrice" : "1.99", "internalID" : "A", "numberOfPeriods" : 1,
        "offerID" : "promo.1", "paymentMode" : "payUpFront", "referenceName" : "Promo", "subscriptionPeriod" : "P3M"}],
      "codeOffers" : [{"eligibility" : ["new", "expired"], "internalID" : "C", "isStackable" : true,
        "paymentMode" : "free", "referenceName" : "FREEMONTH", "subscriptionPeriod" : "P1M"}],
      "winbackOffers" : [{"internalID" : "W", "isEligible" : true, "offerID" : "wb.1",
        "paymentMode" : "free", "referenceName" : "Back", "subscriptionPeriod" : "P1W"}],
      """
    ).replacingOccurrences(of: "\"adHocOffers\" : [],", with: "")
      .replacingOccurrences(of: "\"codeOffers\" : [],", with: "")
    let subscription = try #require(configuration(json)?.allSubscriptions.first)
    #expect(subscription.adHocOffers.first?.offerID == "promo.1")
    #expect(subscription.adHocOffers.first?.paymentMode == .payUpFront)
    #expect(subscription.codeOffers?.first?.eligibility == [.new, .expired])
    #expect(subscription.codeOffers?.first?.isStackable == true)
    #expect(subscription.winbackOffers?.first?.isEligible == true)
    #expect(subscription.winbackOffers?.first?.subscriptionPeriod == SubscriptionPeriod(1, .week))
  }

  @Test func readsEverySettingsKey() throws {
    let json = fileWithProducts(
      "",
      extraRoot: """
        "appPolicies" : {"eula" : "E", "policies" : [{"locale" : "en_US", "policyText" : "T", "policyURL" : "https://x/y"}]},
        "subscriptionOffersKeyPair" : {"id" : "AB12CD34", "privateKey" : "MIGTAgEAMBMG"},
        """
    ).replacingOccurrences(
      of: "\"settings\" : {}",
      with: """
        "settings" : {
          "_applicationInternalID" : "6670001001", "_askToBuyEnabled" : true,
          "_billingGracePeriodEnabled" : true, "_billingIssuesEnabled" : true,
          "_compatibilityTimeRate" : {"3" : 6, "5" : 1004}, "_developerTeamID" : "ABCDE12345",
          "_disableDialogs" : true, "_failTransactionsEnabled" : true, "_lastCheckoutTimestamp" : 0,
          "_lastSynchronizedDate" : 697955872.64341402, "_locale" : "ja", "_renewalBillingIssuesEnabled" : true,
          "_shouldSetupSyncOnLoad" : false, "_storefront" : "JPN", "_storeKitError" : 0,
          "_storeKitErrors" : [{"current" : {"index" : 2, "type" : "generic"}, "enabled" : true, "name" : "Load Products"},
                               {"current" : null, "enabled" : false, "name" : "Purchase"},
                               {"enabled" : false, "name" : "Verification"}],
          "_timeRate" : 1005
        }
        """)
    let file = try #require(configuration(json))
    let settings = try #require(file.settings)
    #expect(settings.applicationInternalID == "6670001001")
    #expect(settings.askToBuyEnabled == true)
    #expect(settings.billingGracePeriodEnabled == true)
    #expect(settings.billingIssuesEnabled == true)
    #expect(settings.compatibilityTimeRate == .byFormatMajor(["3": 6, "5": 1004]))
    #expect(settings.developerTeamID == "ABCDE12345")
    #expect(settings.disableDialogs == true)
    #expect(settings.failTransactionsEnabled == true)
    #expect(settings.lastCheckoutTimestamp == 0)
    #expect(settings.lastSynchronizedDate?.text == "697955872.64341402")
    #expect(settings.lastSynchronizedUnixTime.map { Int($0) } == 1_676_263_072)
    #expect(settings.locale == "ja")
    #expect(settings.renewalBillingIssuesEnabled == true)
    #expect(settings.shouldSetupSyncOnLoad == false)
    #expect(settings.storefront == "JPN")
    #expect(settings.storeKitError == 0)
    #expect(
      settings.storeKitErrors?.map(\.current) == [
        .value(ErrorSelection(index: 2, type: "generic")), .null, .absent,
      ])
    #expect(settings.timeRate == 1005)
    #expect(file.appPolicies?.policies.first?.policyURL == "https://x/y")
    #expect(file.subscriptionOffersKeyPair?.id == "AB12CD34")
  }

  @Test func readsVersion2CompatibilityTimeRateAsAnInteger() throws {
    let json = fileWithProducts("").replacingOccurrences(
      of: "\"settings\" : {}",
      with: "\"settings\" : {\"_compatibilityTimeRate\" : 6, \"_timeRate\" : 15}")
    #expect(configuration(json)?.settings?.compatibilityTimeRate == .rate(6))
  }

  @Test func keepsUnknownKeysEverywhere() throws {
    let json = fileWithSubscription(
      """
      "futureKey" : [1, 2.50],
      "introductoryOffer" : {"internalID" : "X", "paymentMode" : "free", "subscriptionPeriod" : "P1W", "offerFlag" : true},
      """
    ).replacingOccurrences(of: "\"settings\" : {}", with: "\"settings\" : {\"_newSwitch\" : 1.50}")
      .replacingOccurrences(of: "\"identifier\"", with: "\"zzz\" : {\"k\" : null}, \"identifier\"")
    let file = try #require(configuration(json))
    #expect(file.unknown["zzz"] == .object(JSONObject([JSONMember("k", .null)])))
    #expect(file.settings?.unknown["_newSwitch"] == .number(JSONNumber(text: "1.50")))
    let subscription = try #require(file.allSubscriptions.first)
    #expect(subscription.product.unknown.keys == ["futureKey"])
    #expect(subscription.introductoryOffer.wrapped?.unknown["offerFlag"] == .bool(true))
    let rewritten = String(decoding: file.xcodeFormattedBytes(), as: UTF8.self)
    #expect(rewritten.contains("\"futureKey\" : [\n            1,\n            2.50\n          ]"))
    #expect(rewritten.contains("\"_newSwitch\" : 1.50"))
    #expect(rewritten.contains("\"offerFlag\" : true"))
    #expect(rewritten.contains("\"zzz\" : {\n    \"k\" : null\n  }"))
  }

  @Test func writesBackTheSameModelItRead() throws {
    let file = try #require(configuration(fileWithSubscription("\"introductoryOffer\" : null,")))
    let again = StoreKitConfiguration.load(file.xcodeFormattedBytes())
    #expect(again.configuration == file)
    #expect(again.configuration?.xcodeFormattedBytes() == file.xcodeFormattedBytes())
  }

  @Test func editedSettingsAreWrittenInXcodeOrder() throws {
    var file = try #require(configuration(fileWithProducts("")))
    file.settings?.askToBuyEnabled = true
    file.settings?.storefront = "GBR"
    let text = String(decoding: file.xcodeFormattedBytes(), as: UTF8.self)
    #expect(
      text.contains(
        "\"settings\" : {\n    \"_askToBuyEnabled\" : true,\n    \"_storefront\" : \"GBR\"\n  }"))
  }
}
