import Foundation
import StoreCommands
import StoreJSON
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreSigning

/// App receipts: which transactions they list, every field of each in-app record, the hash,
/// the signature, and the per-transaction receipt of SK1.
@Suite struct ReceiptTests {
  /// A session with every kind of record: a finished and an unfinished consumable, a refunded
  /// non-consumable, a free trial, renewals and a promotional offer.
  static let script = """
    buy foodtruck.donuts.box
    buy foodtruck.saleshistory
    buy socialfeed.yearly
    advance next
    buy socialfeed.monthly offer=promo:socialfeed.monthly.loyalty
    advance next
    advance next
    refund last:foodtruck.saleshistory
    finish 0
    buy foodtruck.donuts.box quantity=3
    """

  func session(_ script: String = Self.script) throws -> Session {
    var session = Session(configuration: foodTruck(), start: start)
    for line in script.split(separator: "\n") {
      try Command.parse(String(line))!.apply(to: &session) { _ in }
    }
    return session
  }

  func inApps(_ decoded: Receipt.Decoded) -> [String: [String: JSONValue]] {
    guard case .object(let receipt) = decoded.fields, case .array(let records)? = receipt["in_app"]
    else { return [:] }
    var byID: [String: [String: JSONValue]] = [:]
    for case .object(let record) in records {
      guard case .string(let id)? = record["transaction_id"] else { continue }
      byID[id] = Dictionary(uniqueKeysWithValues: record.members.map { ($0.key, $0.value) })
    }
    return byID
  }

  @Test func aReceiptListsConsumablesUntilFinishedAndEverythingElseAlways() throws {
    let session = try session()
    let listed = session.receiptContents().purchases.map(\.id)
    #expect(!listed.contains(0), "the finished consumable left the receipt")
    #expect(listed.contains(6), "the unfinished one is in it")
    #expect(listed.contains(1), "a refunded non-consumable stays, with its cancellation date")
    #expect(Set(listed).isSuperset(of: [2, 3, 4, 5]), "every subscription transaction")
    var waiting = Session(configuration: foodTruck(), start: start)
    try Command.parse("set ask-to-buy on")!.apply(to: &waiting) { _ in }
    try Command.parse("buy foodtruck.saleshistory")!.apply(to: &waiting) { _ in }
    #expect(waiting.receiptContents().purchases.isEmpty, "a purchase waiting for approval")
  }

  @Test func everyInAppFieldIsTheTransactions() throws {
    let session = try session()
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    let contents = session.receiptContents()
    let decoded = try Receipt.decode(try signer.receipt(contents), deviceID: signer.deviceID)
    #expect(decoded.signatureIsValid)
    #expect(decoded.hashMatches == true)
    guard case .object(let app) = decoded.fields else { return }
    #expect(app["bundle_id"] == .string(signer.bundleID))
    #expect(app["application_version"] == .string("1"))
    #expect(app["original_application_version"] == .string("1"))
    #expect(app["receipt_creation_date"] == .string(Receipt.date(session.now)))
    let records = inApps(decoded)
    #expect(records.count == contents.purchases.count)
    for transaction in contents.purchases {
      let record = try #require(records[String(transaction.id)])
      let number = { (value: Int64) in JSONValue.number(JSONNumber(text: String(value))) }
      #expect(record["quantity"] == number(Int64(transaction.purchasedQuantity)))
      #expect(record["product_id"] == .string(transaction.productID))
      #expect(record["original_transaction_id"] == .string(String(transaction.originalID)))
      #expect(record["purchase_date"] == .string(Receipt.date(transaction.purchaseDate)))
      #expect(
        record["original_purchase_date"] == .string(Receipt.date(transaction.originalPurchaseDate)))
      #expect(
        record["cancellation_date"] == transaction.revocationDate.map { .string(Receipt.date($0)) })
      guard transaction.productType == .autoRenewable else {
        #expect(record["expires_date"] == nil && record["web_order_line_item_id"] == nil)
        continue
      }
      #expect(record["expires_date"] == .string(Receipt.date(transaction.expirationDate!)))
      #expect(record["web_order_line_item_id"] == number(Int64(transaction.id)))
      let trial = transaction.offer?.paymentMode == .freeTrial
      #expect(record["is_trial_period"] == number(trial ? 1 : 0))
      let intro = transaction.offer?.type == .introductory && !trial
      #expect(record["is_in_intro_offer_period"] == number(intro ? 1 : 0))
      #expect(
        record["promotional_offer_id"]
          == (transaction.offer?.type == .promotional
            ? transaction.offer?.id.map { .string($0) } : nil))
    }
    #expect(records["6"]?["quantity"] == .number(JSONNumber(text: "3")))
    #expect(records["1"]?["cancellation_date"] != nil, "the refund")
    #expect(records["2"]?["is_trial_period"] == .number(JSONNumber(text: "1")), "the free week")
    #expect(
      records.values.contains {
        $0["promotional_offer_id"] == .string("socialfeed.monthly.loyalty")
      })
  }

  @Test func anotherDeviceOrATamperedReceiptDoesNotCheckOut() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    var receipt = try signer.receipt(try session().receiptContents())
    let other = try Receipt.decode(receipt, deviceID: "00000000-0000-4000-8000-000000000000")
    #expect(other.hashMatches == false)
    #expect(other.signatureIsValid)
    let at = try #require(
      receipt.indices.first { receipt[$0...].starts(with: Array("socialfeed".utf8)) })
    receipt[at] = UInt8(ascii: "S")
    #expect(try Receipt.decode(receipt).signatureIsValid == false)
    #expect(throws: SigningError.self) { try Receipt.decode(Array("not a receipt".utf8)) }
  }

  @Test func theSK1TransactionReceiptCarriesItsTransaction() throws {
    let signer = Signer(identity: try SigningIdentity.makeSelfSigned(), environment: .xcode)
    let transaction = try #require(try session().transaction(6))
    let outer = String(
      decoding: try #require(Data(base64Encoded: try signer.transactionReceipt(transaction))),
      as: UTF8.self)
    let info = try #require(
      outer.split(separator: "\"").drop { $0 != "purchase-info" }.dropFirst(2).first)
    let inner = String(decoding: try #require(Data(base64Encoded: String(info))), as: UTF8.self)
    #expect(inner.contains(#""transaction-id" = "6";"#))
    #expect(inner.contains(#""quantity" = "3";"#))
    #expect(inner.contains(#""product-id" = "foodtruck.donuts.box";"#))
  }

  @Test func aPurchaseCarriesItsReceiptsWhenAskedAndCallReceiptAlways() throws {
    var options = SessionOptions()
    options.receiptsOnPurchase = true
    var session = Session(configuration: foodTruck(), start: start, options: options)
    var events: [StoreEvent] = []
    try Command.parse("buy foodtruck.saleshistory")!.apply(to: &session) { events.append($0) }
    let receipts = events.compactMap { event -> ReceiptContents? in
      if case .receipt(let contents) = event.kind { contents } else { nil }
    }
    #expect(receipts.map(\.transactionID) == [0])
    #expect(receipts.first?.purchase?.productID == "foodtruck.saleshistory")
    var plain = Session(configuration: foodTruck(), start: start)
    events = []
    try Command.parse("buy foodtruck.saleshistory")!.apply(to: &plain) { events.append($0) }
    try Command.parse("call receipt")!.apply(to: &plain) { events.append($0) }
    let refreshed = events.compactMap { event -> ReceiptContents? in
      if case .receipt(let contents) = event.kind { contents } else { nil }
    }
    #expect(refreshed.count == 1 && refreshed[0].transactionID == nil)
    #expect(refreshed[0].purchases.map(\.id) == [0])
  }
}
