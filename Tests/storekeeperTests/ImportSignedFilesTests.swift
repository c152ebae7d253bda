import Foundation
import StoreConfiguration
import StoreImport
import StoreJSON
import StoreSigning
import StoreSimulation
import StoreTestSupport
import Testing

/// `storekeeper import --signed`'s first half: what a backend kept (notification bodies as
/// Apple POSTed them) read back, every signature verified, sorted into transactions, renewal
/// infos and notifications.
@Suite struct ImportSignedFilesTests {
  @Test func aFolderOfNotificationsBecomesTheirTransactionsAndRenewalInfos() throws {
    let scratch = try SigningScratch()
    defer { try? FileManager.default.removeItem(at: scratch.folder) }
    let run = try scratch.run(
      [
        "run", "Configs/FoodTruck.storekit", "-", "--chain", "--notifications",
        scratch.notifications.path,
      ],
      stdin: "buy socialfeed.monthly\nadvance next\nbuy foodtruck.saleshistory\nrefund last\n")
    try #require(run.status == 0, "\(run.stderr)")
    let root = try scratch.run(["certificate", "--root", "--der"]).stdoutBytes
    let verifier = try SignedDataVerifier(roots: [root])
    let history = try SignedFiles.read(scratch.notifications.path, verifier: verifier)
    let ids = history.transactions.compactMap { value -> String? in
      if case .string(let id)? = value["transactionId"] { id } else { nil }
    }
    #expect(ids == ["0", "1", "2"], "\(ids)")
    #expect(history.notifications?.count == 4)
    #expect(history.renewalInfos.count == 1)
    #expect(
      history.renewalInfos.first?["status"] == .number(JSONNumber(1)),
      "the status a notification's data gave is kept beside its renewal info")
    #expect(history.refunds.count == 1)
    #expect(history.latestSignedDate > 0)

    // One signature changed: the file that holds it is named.
    let files = try scratch.notificationFiles()
    let tampered = scratch.notifications.appendingPathComponent(files[1].name)
    try Data(files[1].body.replacingOccurrences(of: "\"}", with: "A\"}").utf8).write(to: tampered)
    let refused = failure { try SignedFiles.read(scratch.notifications.path, verifier: verifier) }
    #expect(refused?.description.contains(files[1].name) == true, "\(String(describing: refused))")
    let empty = try temporaryFolder()
    defer { try? FileManager.default.removeItem(at: empty) }
    let nothing = failure { try SignedFiles.read(empty.path, verifier: verifier) }
    #expect(nothing?.description.contains("holds no signed") == true)
    let missing = failure { try SignedFiles.read("/no/such/folder", verifier: nil) }
    #expect(missing?.description.contains("no such file") == true)
  }

  private func failure(_ body: () throws -> FetchedHistory) -> ImportError? {
    do {
      _ = try body()
      return nil
    } catch {
      return error as? ImportError
    }
  }
}

@Suite struct ImportCheckTests {
  @Test func aProductTheConfigurationLacksIsNamedWithSuggestions() throws {
    let bytes = try Data(contentsOf: bundledConfiguration("FoodTruck"))
    let configuration = try #require(StoreKitConfiguration.load(Array(bytes)).configuration)
    let catalog = Catalog(configuration)
    var history = FetchedHistory()
    history.transactions = [
      JSONObject([JSONMember("productId", .string("socialfeed.monthly"))]),
      JSONObject([JSONMember("productId", .string("socialfeed.montly"))]),
    ]
    #expect(history.missingProducts(in: catalog).map(\.productID) == ["socialfeed.montly"])
    let refusal = try #require(history.refusal(for: catalog, configurationPath: "Foo.storekit"))
    #expect(refusal.description.contains(#"Foo.storekit has no product "socialfeed.montly""#))
    #expect(refusal.description.contains("socialfeed.monthly"), "\(refusal)")
    history.transactions.removeLast()
    #expect(history.refusal(for: catalog, configurationPath: "Foo.storekit") == nil)
  }
}
