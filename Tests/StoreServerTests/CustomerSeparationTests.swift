import Foundation
import HTTPTypes
import Hummingbird
import StoreJSON
import StoreSimulation
import Testing

@testable import StoreServer
@testable import StoreSigning

/// No endpoint answers one customer's id with another's data. The test walks every route the
/// router has, with each of Alice's ids where the route takes one, beside Bob and the session's
/// own customer who bought the same products: a route added later without the customer lookup
/// fails it, and so does a route whose parameter it does not know how to fill.
@Suite struct CustomerSeparationTests {
  /// The parameters that name a customer's thing, and the routes that take none.
  static let notACustomers: Set<String> = [
    "GET /inApps/v1/subscriptions/extend/mass/:productId/:requestIdentifier",
    "POST /inApps/v1/subscriptions/extend/mass", "POST /inApps/v1/notifications/test",
    "GET /inApps/v1/notifications/test/:testNotificationToken",
    "POST /inApps/v1/notifications/history",
  ]

  /// Apple's endpoints whose `transactionId` may be an `appTransactionId`.
  static let takingAppTransactionID = [
    "inApps/v2/history/", "inApps/v1/subscriptions/:", "inApps/v2/refund/lookup/",
    "inApps/v1/transactions/appTransactions/",
  ]

  struct Customer {
    var account: Account
    var ids: Set<String>
    var originals: Set<String>
    var orders: Set<String>
    var appTransactionID: String
  }

  func customer(_ name: String?, in served: ServedSession) throws -> Customer {
    let session = served.host.session
    let who = try name.map { try #require(session.customer(named: $0)) } ?? .own
    let account = Account(customer: who)
    let transactions = session.view(of: account).allTransactions()
    return Customer(
      account: account, ids: Set(transactions.map { "\($0.id)" }),
      originals: Set(transactions.map { "\($0.originalID)" }),
      orders: Set(transactions.compactMap(\.orderID)),
      appTransactionID: account.appTransactionID)
  }

  func served() async throws -> ServedSession {
    let served = try makeServed()
    let script = [
      "customer alice", "buy socialfeed.monthly", "buy foodtruck.saleshistory",
      "buy foodtruck.donuts.box", "advance 31s", "customer bob", "buy socialfeed.monthly",
      "buy foodtruck.saleshistory", "buy foodtruck.donuts.box", "customer",
      "buy socialfeed.monthly", "buy foodtruck.donuts.box",
    ]
    let applied = await served.call(
      "POST", "/storekeeper/v1/commands", body: script.joined(separator: "\n"))
    try #require(applied.status == 200, "\(applied.text)")
    return served
  }

  /// What each route is called with, for Alice: one target per id of hers it may take.
  func targets(_ path: String, alice: Customer) -> [String] {
    var targets = ["/" + path]
    func fill(_ parameter: String, _ values: [String]) {
      guard targets.contains(where: { $0.contains(parameter) }) else { return }
      targets = targets.flatMap { target in
        values.map { target.replacingOccurrences(of: parameter, with: $0) }
      }
    }
    let takesAccount = Self.takingAppTransactionID.contains { path.hasPrefix($0) }
    fill(":transactionId", alice.ids.sorted() + (takesAccount ? [alice.appTransactionID] : []))
    fill(":originalTransactionId", alice.originals.sorted())
    fill(":orderId", alice.orders.sorted())
    fill(":seatClaimId", ["00000000-0000-4000-8000-000000000001"])
    return targets
  }

  static let bodies: [String: String] = [
    "consumption":
      #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#,
    "appAccountToken": #"{"appAccountToken":"7e3fb20b-4cdb-47cc-936d-99d65f608138"}"#,
    "extend": #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"r-1"}"#,
  ]

  @Test func everyRouteAnswersAlicesIDsWithHerDataAlone() async throws {
    let served = try await served()
    let alice = try customer("alice", in: served)
    let bob = try customer("bob", in: served)
    let own = try customer(nil, in: served)
    #expect(alice.ids.isDisjoint(with: bob.ids) && alice.ids.isDisjoint(with: own.ids))
    var walked = 0
    for route in routes() where route.path.hasPrefix("inApps") {
      let described = "\(route.method) /\(route.path)"
      // Retention Messaging's setup is the app's, the same for every customer.
      if Self.notACustomers.contains(described) || route.path.hasPrefix("inApps/v1/messaging/") {
        continue
      }
      #expect(route.path.contains(":"), "\(described) takes no id: say whose data it answers")
      for target in targets(route.path, alice: alice) {
        #expect(!target.contains(":"), "\(described): a parameter this test cannot fill")
        let before = [bob, own].map { served.host.session.view(of: $0.account).allTransactions() }
        let body = Self.bodies.first { target.contains($0.key) }?.value ?? ""
        let answer = await served.call(route.method, target, body: body)
        walked += 1
        #expect(!answer.text.contains("4040010"), "\(route.method) \(target): \(answer.text)")
        let seen = try mentioned(in: answer.text)
        #expect(
          seen.ids.isSubset(of: alice.ids), "\(route.method) \(target) answers \(seen.ids)")
        #expect(
          seen.accounts.isSubset(of: [alice.appTransactionID]),
          "\(route.method) \(target) answers \(seen.accounts)")
        let after = [bob, own].map { served.host.session.view(of: $0.account).allTransactions() }
        #expect(before == after, "\(route.method) \(target) changed another customer")
      }
    }
    #expect(walked > 20)
  }

  @Test func v1AndV2HistoryListTheSameTransactionsForEachCustomer() async throws {
    let served = try await served()
    for name in ["alice", "bob"] {
      let customer = try customer(name, in: served)
      for id in customer.ids {
        let v1 = await served.call("GET", "/inApps/v1/history/\(id)")
        let v2 = await served.call("GET", "/inApps/v2/history/\(id)")
        #expect(v1.status == 200 && v2.status == 200)
        let listed = try [v1, v2].map { try mentioned(in: $0.text).ids }
        // v1 leaves out finished consumables; nothing here is finished.
        #expect(listed[0] == customer.ids, "\(name) \(id) on v1")
        #expect(listed[1] == customer.ids, "\(name) \(id) on v2")
      }
    }
  }

  /// The served router's routes (method, path without its leading slash).
  func routes() -> [(method: String, path: String)] {
    let access = SessionAccess(
      patience: nil, submit: { _ in false }, session: { nil }, reads: { nil })
    let router = ServedSession.router(access: access, timeout: .seconds(1)) { _ in }
    return router.routes.map { route in
      let path = route.path.description.trimmingPrefix("/").description
      return (route.method.rawValue, path.replacing(/\{([A-Za-z]+)\}/) { ":" + $0.output.1 })
    }
  }

  /// Every transaction id and `appTransactionId` an answer carries, in its signed payloads
  /// (decoded, however deep) and its plain JSON.
  func mentioned(in text: String) throws -> (ids: Set<String>, accounts: Set<String>) {
    var ids = Set<String>()
    var accounts = Set<String>()
    func walk(_ value: JSONValue) {
      switch value {
      case .object(let object):
        for member in object.members {
          switch (member.key, member.value) {
          case ("transactionId", .string(let id)), ("originalTransactionId", .string(let id)):
            ids.insert(id)
          case ("appTransactionId", .string(let id)): accounts.insert(id)
          default: walk(member.value)
          }
        }
      case .array(let values): values.forEach(walk)
      case .string(let text) where text.split(separator: ".").count == 3:
        if let decoded = try? JWS.decode(text) { walk(decoded.payload) }
      default: break
      }
    }
    for line in text.split(separator: "\n") {
      if let root = try? JSONParser.parse(Array(line.utf8)).root { walk(root) }
    }
    return (ids, accounts)
  }
}
