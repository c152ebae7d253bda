import Foundation
import StoreConfiguration
import Testing

@testable import StoreConfiguration

@Suite struct ValidationTests {
  func errors(_ json: String) -> [String] {
    load(json).diagnostics.filter { $0.severity == .error }.map { $0.formatted(file: "F") }
  }

  func warnings(_ json: String) -> [String] {
    load(json).diagnostics.filter { $0.severity == .warning }.map { $0.formatted(file: "F") }
  }

  @Test func aValidFileHasNoDiagnostics() {
    #expect(diagnostics(fileWithSubscription("\"introductoryOffer\" : null,")) == [])
  }

  @Test func syntaxErrorsNameLineAndColumn() {
    #expect(
      diagnostics("{\n  \"products\" : [,]\n}")
        == ["F:2:17: error: not valid JSON: expected a value but found ','"])
  }

  @Test func notAnObjectIsNotAConfiguration() {
    #expect(
      diagnostics("[1]")
        == [
          "F: error: not a StoreKit configuration: the top level is an array, and Xcode writes an object"
        ])
  }

  @Test func anInventedSchemaIsNotAConfiguration() {
    let invented =
      #"{"nonConsumables" : [{"productID" : "x", "type" : "nonConsumable"}], "version" : {"major" : 1, "minor" : 0}}"#
    #expect(
      diagnostics(invented)
        == [
          "F: error: not a StoreKit configuration: none of \"products\", \"subscriptionGroups\" or \"nonRenewingSubscriptions\" is present"
        ])
  }

  @Test func anIntegerVersionIsNotAConfiguration() {
    let json = fileWithProducts("").replacingOccurrences(
      of: "\"version\" : { \"major\" : 4, \"minor\" : 0 }", with: "\"version\" : 1")
    #expect(
      errors(json)
        == [
          "F: error: version: not a StoreKit configuration: \"version\" must be an object such as {\"major\" : 4, \"minor\" : 0}, found a number"
        ])
  }

  @Test func propertyListsAreRecognised() {
    let plist =
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE plist PUBLIC>\n<plist version=\"1.0\"><dict/></plist>"
    #expect(
      diagnostics(plist).first?.hasPrefix("F: error: this is an XML property list, not JSON")
        == true)
    let binary = StoreKitConfiguration.load(Array("bplist00".utf8) + [0, 1, 2])
    #expect(binary.diagnostics.first?.message.hasPrefix("this is a binary property list") == true)
  }

  @Test func wrongTypesAreErrors() {
    #expect(
      errors(fileWithProducts(product("a", price: "0.99")))
        == [
          "F: error: products[0].displayPrice: expected a decimal number in a string, such as \"0.99\", found the number 0.99"
        ])
    #expect(
      errors(
        fileWithSubscription().replacingOccurrences(
          of: "\"groupNumber\" : 1", with: "\"groupNumber\" : \"1\""))
        == [
          "F: error: subscriptionGroups[0].subscriptions[0].groupNumber: expected an integer, found the string \"1\""
        ])
    #expect(
      errors(
        fileWithProducts(
          product("a", extra: "\"familyShareable\" : 1,").replacingOccurrences(
            of: "\"familyShareable\" : false,", with: "")))
        == ["F: error: products[0].familyShareable: expected true or false, found the number 1"])
  }

  @Test func unknownProductTypeIsAnError() {
    #expect(
      errors(fileWithProducts(product("a", type: "nonConsumable")))
        == [
          "F: error: products[0].type: expected one of \"Consumable\", \"NonConsumable\", \"NonRenewingSubscription\", \"RecurringSubscription\", found the string \"nonConsumable\""
        ])
  }

  @Test func productsInTheWrongSectionAreErrors() {
    #expect(
      errors(fileWithProducts(product("a", type: "NonRenewingSubscription")))
        == [
          "F: error: products[0].type: a \"NonRenewingSubscription\" product does not belong in products"
        ])
  }

  @Test func duplicateProductIDsAcrossSectionsAreErrors() {
    let json = fileWithSubscription().replacingOccurrences(
      of: "\"products\" : []", with: "\"products\" : [\(product("sub.monthly"))]")
    #expect(
      errors(json)
        == [
          "F: error: subscriptionGroups[0].subscriptions[0].productID: the product ID \"sub.monthly\" is already used at products[0]"
        ])
  }

  @Test func periodsMustBeISO8601() {
    let json = fileWithSubscription().replacingOccurrences(of: "\"P1M\"", with: "\"1 month\"")
    #expect(
      errors(json)
        == [
          "F: error: subscriptionGroups[0].subscriptions[0].recurringSubscriptionPeriod: \"1 month\" is not an ISO-8601 period such as P3D, P1W, P1M, P6M or P1Y"
        ])
    let offer = fileWithSubscription(
      "\"introductoryOffer\" : {\"internalID\" : \"X\", \"paymentMode\" : \"free\", \"subscriptionPeriod\" : \"P1Q\"},"
    )
    #expect(
      errors(offer)
        == [
          "F: error: subscriptionGroups[0].subscriptions[0].introductoryOffer.subscriptionPeriod: \"P1Q\" is not an ISO-8601 period such as P3D, P1W, P1M, P6M or P1Y"
        ])
  }

  @Test func subscriptionGroupIDMustBeItsGroupsID() {
    let json = fileWithSubscription().replacingOccurrences(
      of: "\"subscriptionGroupID\" : \"G1\"", with: "\"subscriptionGroupID\" : \"G2\"")
    #expect(
      errors(json)
        == [
          "F: error: subscriptionGroups[0].subscriptions[0].subscriptionGroupID: \"G2\" is not its group's id \"G1\""
        ])
  }

  @Test func missingRequiredKeysAreErrors() {
    let json = fileWithProducts(
      product("a").replacingOccurrences(of: "\"productID\" : \"a\",", with: ""))
    #expect(errors(json) == ["F: error: products[0]: missing \"productID\" (a string)"])
  }

  @Test func duplicateKeysAreErrorsAndDuplicateOfferNamesWarnings() {
    #expect(
      errors(fileWithProducts(product("a", extra: "\"internalID\" : \"J\",")))
        == ["F: error: products[0].internalID: the key \"internalID\" appears twice"])
    let offers = fileWithSubscription().replacingOccurrences(
      of: "\"codeOffers\" : []",
      with: """
        "codeOffers" : [
          {"eligibility" : ["new"], "internalID" : "1", "isStackable" : true, "paymentMode" : "free", "referenceName" : "X", "subscriptionPeriod" : "P1M"},
          {"eligibility" : ["new"], "internalID" : "2", "isStackable" : true, "paymentMode" : "free", "referenceName" : "X", "subscriptionPeriod" : "P1M"}]
        """)
    #expect(errors(offers) == [])
    #expect(
      warnings(offers) == [
        "F: warning: subscriptionGroups[0].subscriptions[0].codeOffers[1]: a second offer named \"X\": a purchase naming it gets the first"
      ])
  }

  @Test func oddButRealThingsAreWarnings() {
    let json = fileWithSubscription(
      "\"introductoryOffer\" : {\"displayPrice\" : \"\", \"internalID\" : \"X\", \"paymentMode\" : \"none\"},"
    ).replacingOccurrences(of: "\"referenceName\" : \"Monthly\"", with: "\"referenceName\" : null")
      .replacingOccurrences(
        of:
          "\"localizations\" : [{\"description\" : \"d\", \"displayName\" : \"n\", \"locale\" : \"en_US\"}]",
        with: "\"localizations\" : []"
      )
      .replacingOccurrences(of: "\"settings\" : {},", with: "")
      .replacingOccurrences(of: "\"identifier\" : \"ABCD1234\",", with: "")
    let path = "subscriptionGroups[0].subscriptions[0]"
    #expect(errors(json) == [])
    #expect(
      Set(warnings(json))
        == [
          "F: warning: missing \"identifier\"; Xcode writes one from format 1.1 on",
          "F: warning: \(path).referenceName: the reference name is null",
          "F: warning: \(path).localizations: no localizations: StoreKit shows an empty name and description",
          "F: warning: \(path).introductoryOffer.displayPrice: the price is empty (\"\"); it is treated as 0",
          "F: warning: \(path).introductoryOffer.paymentMode: paymentMode \"none\": the offer never applies",
          "F: warning: missing \"settings\"; Xcode always writes it",
        ])
  }

  @Test func aVersionOlderThanItsKeysIsAWarning() {
    let json = fileWithSubscription(
      "\"billingPlans\" : [], \"introductoryOffer\" : null,"
    ).replacingOccurrences(of: "\"major\" : 4", with: "\"major\" : 3")
    #expect(
      warnings(json)
        == [
          "F: warning: version: the file declares format 3.0 but subscriptionGroups[0].subscriptions[0].billingPlans first appears in format 5.0; keys decide how it is read"
        ])
  }

  @Test func unknownSettingsValuesAreWarnings() {
    let json = fileWithProducts("").replacingOccurrences(
      of: "\"settings\" : {}", with: "\"settings\" : {\"_storefront\" : \"US\", \"_timeRate\" : 14}"
    )
    #expect(
      warnings(json)
        == [
          "F: warning: settings._storefront: \"US\" is not an ISO 3166-1 alpha-3 code such as \"USA\"",
          "F: warning: settings._timeRate: 14 is not a known SKTestSession.TimeRate raw value",
        ])
  }

  @Test func aStorefrontAppleDoesNotHaveIsAWarning() {
    let json = fileWithProducts("").replacingOccurrences(
      of: "\"settings\" : {}", with: "\"settings\" : {\"_storefront\" : \"XYZ\"}")
    #expect(
      warnings(json) == [
        "F: warning: settings._storefront: \"XYZ\" is not one of the App Store's storefronts; "
          + "the session uses USA"
      ])
  }

  @Test func fileLevelProblemsAreReportedNotThrown() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sk-\(UUID().uuidString).storekit")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let directory = StoreKitConfiguration.load(contentsOf: folder.path)
    #expect(directory.diagnostics.map(\.message) == ["is a directory, not a .storekit file"])
    let inner = folder.appendingPathComponent("Configuration.storekit")
    try Data("{}".utf8).write(to: inner)
    let hinted = StoreKitConfiguration.load(contentsOf: folder.path)
    #expect(hinted.diagnostics.first?.message.hasSuffix("did you mean \(inner.path)?") == true)
    let missing = StoreKitConfiguration.load(contentsOf: folder.path + "/nope.storekit")
    #expect(missing.diagnostics.map(\.message) == ["no such file"])
    let empty = folder.appendingPathComponent("empty.storekit")
    try Data().write(to: empty)
    #expect(
      StoreKitConfiguration.load(contentsOf: empty.path).diagnostics.map { $0.formatted(file: "E") }
        == ["E:1:1: error: not valid JSON: the file holds no JSON value (it is empty)"])
  }

  @Test func randomBytesNeverCrashTheLoader() {
    var generator = SystemRandomNumberGenerator()
    for length in [1, 2, 7, 64, 1000] {
      for _ in 0..<200 {
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let result = StoreKitConfiguration.load(bytes)
        #expect(result.hasErrors)
      }
    }
  }

  @Test func truncatedFilesAreSyntaxErrorsAtTheEnd() throws {
    let bytes = Array(fileWithSubscription().utf8)
    for cut in stride(from: 1, to: bytes.count - 1, by: 7) {
      let result = StoreKitConfiguration.load(Array(bytes[..<cut]))
      #expect(result.hasErrors)
      #expect(result.diagnostics.first?.line != nil)
    }
  }
}

@Suite struct OneTimeOfferCodeFormatTests {
  func errors(_ json: String) -> [String] {
    load(json).diagnostics.filter { $0.severity == .error }.map { $0.formatted(file: "F") }
  }

  @Test func aOneTimeProductsOfferCodesAreReadAndWrittenBack() throws {
    let codes =
      #""codeOffers" : [{"displayPrice" : "0.49", "internalID" : "C1", "paymentMode" : "oneTime", "referenceName" : "Half"}],"#
    let file = fileWithProducts(product("coins", type: "Consumable", extra: codes))
    let result = load(file)
    #expect(result.diagnostics.isEmpty, "\(result.diagnostics)")
    let offers = try #require(result.configuration?.products?.first?.oneTimeCodeOffers)
    #expect(offers.map(\.referenceName) == ["Half"] && offers[0].paymentMode == .oneTime)
    #expect(offers[0].displayPrice?.text == "0.49")
    let written = String(
      decoding: try #require(result.configuration).xcodeFormattedBytes(), as: UTF8.self)
    #expect(
      written.contains(#""referenceName" : "Half""#)
        && written.contains(#""paymentMode" : "oneTime""#))
  }

  @Test func aOneTimeOfferCodeNeedsANameAndAPriceAndIsPaidOnce() {
    let bad =
      #""codeOffers" : [{"internalID" : "C1", "paymentMode" : "payUpFront", "referenceName" : "Half"}, {"displayPrice" : "1", "internalID" : "C2"}],"#
    let found = errors(fileWithProducts(product("coins", type: "Consumable", extra: bad)))
    #expect(
      found.contains {
        $0.contains("products[0].codeOffers[0].paymentMode") && $0.contains("\"oneTime\"")
      }, "\(found)")
    #expect(
      found.contains { $0.contains("products[0].codeOffers[0]: missing \"displayPrice\"") },
      "\(found)")
    #expect(
      found.contains { $0.contains("products[0].codeOffers[1]: missing \"referenceName\"") },
      "\(found)")
  }

  @Test func oneTimeIsNotASubscriptionOffersPaymentMode() {
    let found = errors(
      fileWithSubscription(
        #""introductoryOffer" : {"internalID" : "I1", "paymentMode" : "oneTime", "subscriptionPeriod" : "P1W"},"#
      ))
    #expect(
      found.contains { $0.contains("introductoryOffer.paymentMode") && $0.contains("one-time") },
      "\(found)")
  }
}
