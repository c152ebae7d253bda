import Foundation
import StoreServer
import StoreSimulation
import Testing

/// Apple's error objects are written once, in `AppleErrors.swift`: each code there is one
/// Apple's own library names, and each of Retention Messaging's rules in the engine
/// answers the object of its name.
@Suite struct AppleErrorTableTests {
  /// Every code of both tables.
  static let codes =
    AppStoreServerAPIError.allCases.map(\.rawValue)
    + RetentionMessagingError.allCases.map(\.rawValue)

  @Test func everyCodeIsTheOneApplesLibraryNames() throws {
    let python = try appleLibrary()
    let listed = try runProcess(
      python,
      [
        "-c",
        "from appstoreserverlibrary.api_client import APIError\n"
          + "for e in APIError: print(e.name, e.value)",
      ])
    try #require(listed.status == 0, "\(listed.stderr)")
    var apple: [Int: String] = [:]
    for line in listed.stdout.split(separator: "\n") {
      let parts = line.split(separator: " ")
      if parts.count == 2, let code = Int(parts[1]) { apple[code] = String(parts[0]) }
    }
    #expect(Set(Self.codes).count == Self.codes.count, "a code written twice")
    let chosen = Set(AppStoreServerAPIError.chosenCodes.map(\.rawValue))
    #expect(chosen.isDisjoint(with: apple.keys), "Apple's library has a code chosen here")
    #expect(
      Set(apple.keys) == Set(Self.codes).subtracting(chosen),
      "the tables and Apple's library differ")
  }

  /// The Advanced Commerce API's objects (its page of error codes; Apple's library 3.1.2 has
  /// no client for it yet): one code each, named as Apple names them.
  @Test func everyAdvancedCommerceRuleHasOneObjectOfItsOwn() {
    let codes = CommerceRule.allCases.map(\.appleCode)
    #expect(Set(codes).count == codes.count, "a code written twice")
    #expect(CommerceRule.allCases.allSatisfy { $0.appleName.hasSuffix("Error") })
    #expect(CommerceRule.invalidConsistencyToken.appleCode == 4_000_082)
    #expect(CommerceRule.invalidConsistencyToken.status == 400)
    #expect(CommerceRule.notEligible.status == 403)
    let error = AppStoreError(.invalidRequestReferenceID)
    #expect(error.code == 4_000_081 && error.message == "The requestReferenceId value is invalid.")
  }

  @Test func aStatusIsTheCodesFirstThreeDigits() {
    #expect(AppStoreServerAPIError.invalidProductID.status == 400)
    #expect(AppStoreServerAPIError.transactionIDNotFound.status == 404)
    #expect(RetentionMessagingError.imageAlreadyExists.status == 409)
    #expect(RetentionMessagingError.imageInUse.status == 403)
    let error = AppStoreError(.invalidProductID)
    #expect(error.statusCode == 400 && error.code == 4_000_023)
    #expect(error.message == AppStoreServerAPIError.invalidProductID.appleMessage)
  }
}
