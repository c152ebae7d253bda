import Foundation
import StoreConfiguration
import StoreSimulation
import Testing

@testable import StoreServer
@testable import StoreSigning

/// The App Store Server API endpoints that change or look up the session, in process.
@Suite struct ServedEndpointTests {
  /// The decoded payload of a JWS the server signed (checked against its certificate).
  func payload(_ jws: Any?) throws -> [String: Any] {
    let decoded = try JWS.decode(try #require(jws as? String))
    #expect(decoded.signatureIsValid)
    let data = Array(JSONWriter.compact(decoded.payload).utf8)
    return try #require(try JSONSerialization.jsonObject(with: Data(data)) as? [String: Any])
  }

  @Test func lookUpOrderIDAnswersTheOrdersSignedTransactionOrStatusOne() throws {
    let served = try makeServed()
    let applied = served.call(
      "POST", "/storekeeper/v1/commands",
      body: "buy foodtruck.donuts.box\nbuy socialfeed.monthly\nadvance 31s\n")
    #expect(applied.status == 200)
    let renewal = try #require(served.session.transaction(2))
    let order = try #require(renewal.orderID)
    #expect(applied.text.contains(#""orderID":"\#(order)""#), "the event stream shows it")
    let found = served.call("GET", "/inApps/v1/lookup/\(order)")
    #expect(found.status == 200)
    #expect(found.object["status"] as? Int == 0)
    let signed = try #require(found.object["signedTransactions"] as? [Any])
    #expect(signed.count == 1)
    #expect(try payload(signed.first)["transactionId"] as? String == "2")
    for unknown in ["AAAAAAAAAA", OrderID.make(99), "not-an-order"] {
      let missing = served.call("GET", "/inApps/v1/lookup/\(unknown)")
      #expect(missing.status == 200 && missing.object["status"] as? Int == 1, "\(unknown)")
      #expect((missing.object["signedTransactions"] as? [Any])?.isEmpty == true)
    }
  }
}
