import ArgumentParser
import Foundation
import StoreCommands
import StoreJSON
import StoreSigning
import StoreSimulation

/// Advanced Commerce subscriptions: customers each buying one with a signed request, a year of
/// renewals of all of them, a server change of each, and the ledger read back; and one
/// subscription of growing numbers of items. Each cost should stay flat per subscription and
/// per item.
struct CommerceBenchmark: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "commerce",
    abstract: "Buy, renew for a year, re-price and read back 1,000 and 10,000 Advanced Commerce "
      + "subscriptions; one of 10, 100 and 1,000 items.")

  @Option(parsing: .upToNextOption, help: "The numbers of subscriptions (one customer each).")
  var subscriptions = [1_000, 10_000]

  @Option(parsing: .upToNextOption, help: "The numbers of items of one subscription.")
  var items = [10, 100, 1_000]

  func run() throws {
    for count in subscriptions { try runSubscriptions(count) }
    for count in items { try runItems(count) }
  }

  static let start = Instant(iso8601: "2026-01-01T00:00:00Z")!

  /// A session whose configuration has an in-app key, and a signer of it.
  static func session() -> (Session, OfferSigner) {
    var configuration = Renewals.configuration(groups: 1)
    configuration.subscriptionOffersKeyPair = OfferSigner.generateKeyPair()
    var session = Session(configuration: configuration, start: start, options: .unbounded)
    try! session.perform(.declareCommerce(productID: "bench.aca", .subscription)) { _ in }
    return (session, try! OfferSigner(configuration.subscriptionOffersKeyPair))
  }

  static func request(items: Int, reference: Int) -> String {
    let list = (0..<items).map {
      #"{"SKU":"sku.\#($0)","description":"Item \#($0)","displayName":"Item","price":990}"#
    }
    return #"{"operation":"CREATE_SUBSCRIPTION","version":"1","requestInfo":{"#
      + #""requestReferenceId":"\#(String(format: "00000000-0000-4000-8000-%012d", reference))"},"#
      + #""currency":"USD","taxCode":"C003-00-1","period":"P1M","descriptors":{"#
      + #""description":"Bench","displayName":"Bench"},"items":[\#(list.joined(separator: ","))]}"#
  }

  static func signed(_ signer: OfferSigner, _ json: String, _ nonce: Int) throws -> String {
    try signer.advancedCommerceJWS(
      request: json, bundleID: PurchaseOptions.defaultBundleID,
      nonce: String(format: "00000000-0000-4000-9000-%012d", nonce),
      issuedAt: start.milliseconds / 1000, issuer: "bench")
  }

  private func runSubscriptions(_ count: Int) throws {
    var (session, signer) = Self.session()
    let requests = try (0..<count).map {
      try Self.signed(signer, Self.request(items: 3, reference: $0), $0)
    }
    let clock = ContinuousClock()
    let buying = try clock.measure {
      for (index, jws) in requests.enumerated() {
        try session.selectCustomer(named: "c\(index)")
        var options = PurchaseOptions()
        options.advancedCommerce = SignedCommerceRequest(compactJWS: jws)
        try session.buy("bench.aca", options) { _ in }
      }
    }
    var renewals = 0
    let renewing = try clock.measure {
      try session.advance(to: Self.start.adding(milliseconds: 365 * 86_400_000)) { event in
        if case .transaction(let t, _) = event.kind, t.reason == .renewal { renewals += 1 }
      }
    }
    let repricing = try clock.measure {
      for index in 0..<count {
        try session.selectCustomer(named: "c\(index)")
        guard let id = session.subscriptionStatuses().first?.transactionID else { continue }
        let body = try CommerceServerRequest(
          .changePrice,
          json: JSONObject([
            JSONMember(
              "requestInfo",
              .object(
                JSONObject([
                  JSONMember(
                    "requestReferenceId",
                    .string(String(format: "00000000-0000-4000-a000-%012d", index)))
                ]))),
            JSONMember(
              "items",
              .array([
                .object(
                  JSONObject([
                    JSONMember("SKU", .string("sku.0")),
                    JSONMember("price", .number(JSONNumber(1290))),
                  ]))
              ])),
          ]))
        try session.performCommerce(CommerceAction(id, body)) { _ in }
      }
    }
    var read = 0
    let reading = clock.measure {
      let snapshot = session.ledgerSnapshot()
      var bytes: [UInt8] = []
      snapshot.encoded { bytes += $0 }
      if let back = LedgerSnapshot(decoding: bytes, catalog: session.catalog) {
        for index in 0..<back.count where back.transaction(index).advancedCommerce != nil {
          read += 1
        }
      }
    }
    func each(_ duration: Duration, _ n: Int) -> String {
      String(format: "%.1f µs", duration.seconds * 1e6 / Double(max(1, n)))
    }
    print(
      "commerce: \(count) subscriptions: buy \(each(buying, count)), renewal "
        + "\(each(renewing, renewals)) (\(renewals) renewed), change price "
        + "\(each(repricing, count)) each; the last customer's ledger read back \(read) "
        + "transactions in \(String(format: "%.2f", reading.seconds * 1000)) ms")
  }

  private func runItems(_ count: Int) throws {
    var (session, signer) = Self.session()
    let jws = try Self.signed(signer, Self.request(items: count, reference: 1), 1)
    let clock = ContinuousClock()
    var options = PurchaseOptions()
    options.advancedCommerce = SignedCommerceRequest(compactJWS: jws)
    let buying = try clock.measure { try session.buy("bench.aca", options) { _ in } }
    var renewals = 0
    let renewing = try clock.measure {
      try session.advance(to: Self.start.adding(milliseconds: 365 * 86_400_000)) { event in
        if case .transaction(let t, _) = event.kind, t.reason == .renewal { renewals += 1 }
      }
    }
    func each(_ duration: Duration, _ n: Int) -> String {
      String(format: "%.2f µs", duration.seconds * 1e6 / Double(max(1, n)))
    }
    print(
      "commerce: 1 subscription of \(count) items: buy \(each(buying, count)) an item, renewal "
        + "\(each(renewing, renewals * count)) an item (\(renewals) renewals)")
  }
}
