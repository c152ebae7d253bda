import StoreTestSupport
import StorekeeperKit
import StorekeeperKitTest
import Testing

/// An app's own type named as StoreKit's (as SwiftData's `Transaction` is).
private struct Transaction {}

/// Qualified names resolve as on Apple's platforms: `StoreKit.Transaction` where the app has a
/// `Transaction` of its own, and every public type of the ports is in its module's namespace.
@Suite struct StoreKitNamespaceTests {
  @Test func qualifiedNamesAreStoreKitsTypes() async throws {
    let session = try SKTestSession(
      contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"))
    session.disableDialogs = true
    let products: [StoreKit.Product] = try await StoreKit.Product.products(for: [
      "foodtruck.saleshistory"
    ])
    let result = try await products[0].purchase()
    guard case .success(let verification) = result else {
      Issue.record("\(result)")
      return
    }
    let bought: StoreKit.Transaction = try verification.payloadValue
    #expect(bought.productID == "foodtruck.saleshistory")
    #expect(Transaction.self != StoreKit.Transaction.self as Any.Type)
    let _: StoreKit.VerificationResult<StoreKit.Transaction> = verification
    let _: StoreKit.SKPaymentQueue = StoreKit.SKPaymentQueue.default()
    let _: StoreKitTest.SKTestSession = session
    #expect(StoreKit.AppStore.Environment.xcode.rawValue == "Xcode")
  }

  @Test(arguments: [
    ("StorekeeperKit", "StoreKitNamespace.swift"),
    ("StorekeeperKitTest", "StoreKitTestNamespace.swift"),
  ])
  func everyPublicTypeIsInItsNamespace(module: String, file: String) throws {
    let folder = packageRoot.appendingPathComponent("Sources/\(module)")
    let namespace = try String(
      contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
    let files = try #require(FileManager.default.enumerator(atPath: folder.path))
    var missing: [String] = []
    var found = 0
    let declaration =
      #/^(?:@\w+ )*(?:public|open) (?:final )?(?:struct|enum|class|protocol|typealias|actor) ([A-Za-z]\w*)/#
    for case let path as String in files where path.hasSuffix(".swift") && path != file {
      let text = try String(contentsOf: folder.appendingPathComponent(path), encoding: .utf8)
      for line in text.split(separator: "\n") {
        guard let match = line.firstMatch(of: declaration) else { continue }
        let name = String(match.1)
        found += 1
        if !namespace.contains("public typealias \(name)") { missing.append(name) }
      }
    }
    #expect(found >= 15, "the check reads the declarations")
    #expect(missing.isEmpty, "not in \(file): \(missing)")
  }
}
