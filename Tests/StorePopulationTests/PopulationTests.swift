import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StorePopulation

/// A population lives by its seed: the same options make the same commands, and its shards
/// make exactly its customers.
@Suite struct PopulationTests {
  static let configuration: StoreKitConfiguration = {
    let bytes = Array(
      try! String(
        contentsOf: packageRoot.appendingPathComponent("Configs/FoodTruck.storekit"),
        encoding: .utf8
      ).utf8)
    return StoreKitConfiguration.load(bytes).configuration!
  }()
  static let start = Instant(iso8601: "2026-01-01T00:00:00Z")!

  /// Runs a population on a fresh session; its summary and every event, in order.
  func run(_ options: PopulationOptions) throws -> (PopulationSummary, [StoreEvent]) {
    var sessionOptions = SessionOptions()
    sessionOptions.maximumEventsPerVerb = .max
    var journaled = JournaledSession(
      session: Session(
        configuration: Self.configuration, start: Self.start, options: sessionOptions),
      journal: nil, identity: "population test")
    journaled.keepsHistory = false
    let host = CommandHost(journaled)
    let events = EventCollector()
    host.attach(events)
    let summary = try Population(options: options, host: host).run { _ in }
    return (summary, events.take())
  }

  @Test func theSameSeedLivesTheSameLives() throws {
    var options = PopulationOptions(customers: 40, months: 4, seed: 11)
    let first = try run(options)
    let again = try run(options)
    #expect(first.0 == again.0 && first.1 == again.1)
    #expect(first.0.customers == 40 && first.0.subscribers.count == 4)
    #expect(first.0.notifications["SUBSCRIBED-INITIAL_BUY"] == 40)
    options.seed = 12
    #expect(try run(options).1 != first.1, "another seed, other lives")
  }

  /// `groupPurchase`: that share of customers buys 2 to 10 seats; without it, no draw is
  /// made, so a seed's population is the one it always was.
  @Test func aShareOfCustomersBuysForAGroup() throws {
    var options = PopulationOptions(customers: 30, months: 2, seed: 5)
    let plain = try run(options)
    #expect(plain.0.draws[.groupPurchase] == nil && plain.0.groupSeats == 0)
    options.model.groupPurchase = 1
    let (summary, events) = try run(options)
    #expect(summary.draws[.groupPurchase]?.hits == 30)
    #expect((60...300).contains(summary.groupSeats))
    let bought = events.compactMap { event -> Int? in
      guard case .transaction(let t, _) = event.kind, t.reason == .purchase, t.seats != nil,
        !(t.seats?.isAddition ?? false), t.ownership == .purchased
      else { return nil }
      return t.purchasedQuantity
    }
    #expect(bought.count >= 30 && bought.allSatisfy { (2...10).contains($0) })
    #expect(summary.text.contains("group purchases  30 of 30 customers bought"))
  }

  /// A group purchase's members (1 to its seats) join within a month as customers numbered
  /// after the run's, each with an `ASSIGNED` transaction; some are removed later
  /// (`groupMemberLeaving`); the summary counts them and charts the seats held.
  @Test func groupPurchasersInviteMembersWhoMayLeave() throws {
    var options = PopulationOptions(customers: 20, months: 3, seed: 9)
    options.model.groupPurchase = 1
    options.model.groupMemberLeaving = 0.5
    let (summary, events) = try run(options)
    #expect(summary.groupMembersJoined >= 20)
    #expect(summary.groupMembersLeft > 0 && summary.groupMembersLeft < summary.groupMembersJoined)
    let seats = events.compactMap { event -> Transaction? in
      guard case .transaction(let t, _) = event.kind, t.ownership == .assigned else { return nil }
      return t
    }
    #expect(seats.allSatisfy { $0.owner.customer.number > 20 }, "members are numbered after")
    #expect(seats.contains { $0.revocationType == .assignmentRevoke })
    #expect(summary.seatMembers.count == 3 && summary.seatMembers.allSatisfy { $0 > 0 })
    #expect(summary.text.contains("members holding seats at each month's end"))
    #expect(summary.json.contains("\"groupMembersJoined\""))
    // Shards give out member numbers no other shard does.
    var numbers: [Int] = []
    for index in 1...2 {
      options.shard = Shard(index: index, count: 2)
      numbers += try run(options).1.compactMap { event in
        guard case .transaction(let t, _) = event.kind, t.ownership == .assigned else {
          return nil
        }
        return t.owner.customer.number
      }
    }
    #expect(Set(numbers) == Set(seats.map(\.owner.customer.number)))
  }

  @Test func twoShardsMakeExactlyTheCustomersOfOneRun() throws {
    var options = PopulationOptions(customers: 30, months: 3, seed: 3)
    let whole = try run(options)
    var parts: [(PopulationSummary, [StoreEvent])] = []
    for index in 1...2 {
      options.shard = Shard(index: index, count: 2)
      parts.append(try run(options))
    }
    // Each customer's events are the same, in the same order, whichever run made them.
    func byCustomer(_ events: [StoreEvent]) -> [Int: [StoreEvent]] {
      Dictionary(grouping: events.filter { $0.customer != nil }) { $0.customer!.number }
    }
    let merged = byCustomer(parts[0].1).merging(byCustomer(parts[1].1)) { a, _ in a }
    #expect(merged == byCustomer(whole.1))
    #expect(Set(byCustomer(parts[0].1).keys).isDisjoint(with: byCustomer(parts[1].1).keys))
    #expect(parts[0].0.customers + parts[1].0.customers == 30)
    #expect(parts[0].0.transactions + parts[1].0.transactions == whole.0.transactions)
    #expect(
      parts[0].0.notificationCount + parts[1].0.notificationCount == whole.0.notificationCount)
    #expect(
      zip(parts[0].0.subscribers, parts[1].0.subscribers).map { $0.count + $1.count }
        == whole.0.subscribers.map(\.count))
  }

  @Test func theModelsChancesShowInWhatHappens() throws {
    var options = PopulationOptions(customers: 50, months: 3, seed: 9)
    // Monthly plans without an introductory offer only: a yearly one's cancellation may fall
    // after the third month.
    options.model.products = [.init(value: "socialfeed.premium.monthly", weight: 1)]
    options.model.cancellation = 1
    options.model.billingFailure = 0
    options.model.refund = 0
    options.model.priceIncrease = 0
    let (summary, _) = try run(options)
    #expect(summary.notifications["DID_CHANGE_RENEWAL_STATUS-AUTO_RENEW_DISABLED"] == 50)
    #expect(summary.subscribers.last?.count == 0, "everyone cancelled")
    options.model.cancellation = 0
    options.model.billingFailure = 1
    options.model.billingRecovery = 0
    options.model.planChange = 0
    let failing = try run(options).0
    #expect(failing.notifications["DID_FAIL_TO_RENEW-GRACE_PERIOD"] ?? 0 > 0)
    #expect(failing.notifications["DID_RENEW-BILLING_RECOVERY"] == nil)
  }

  @Test func aModelFileNamesTheJSONPathOfWhatIsWrong() throws {
    let catalog = Catalog(Self.configuration)
    func problem(_ json: String) -> String? {
      do throws(BehaviourModel.Problem) {
        _ = try BehaviourModel(json: Array(json.utf8), catalog: catalog)
        return nil
      } catch {
        return error.description
      }
    }
    #expect(problem(#"{"refund": 1.5}"#) == "refund: a probability from 0 to 1, not 1.5")
    #expect(
      problem(#"{"refnud": 0.1}"#)?.hasPrefix("refnud: unknown key; a model has products") == true)
    #expect(
      problem(#"{"products": [{"product": "socialfeed.monthly"}, {"product": "x", "weight": 1}]}"#)
        == #"products: "x" is not an auto-renewable subscription of the configuration"#)
    #expect(
      problem(#"{"storefronts": [{"storefront": "USA", "weight": -1}]}"#)
        == "storefronts[0].weight: a number above 0 and at most 1000000, not -1")
    #expect(
      problem(#"{"storefronts": [{"storefront": "USA", "weight": 1e308}]}"#)
        == "storefronts[0].weight: a number above 0 and at most 1000000, not 1e308")
    #expect(
      problem(#"{"refund": 0.1, "refund": 0.2}"#) == #"refund: a second "refund": give it once"#)
    #expect(
      problem(#"{"storefronts": [{"storefront": "USA", "storefront": "GBR"}]}"#)
        == #"storefronts[0].storefront: a second "storefront": give it once"#)
    #expect(
      problem(#"{"storefronts": [{"storefront": "USA", "weigth": 2}]}"#)
        == #"storefronts[0].weigth: unknown key; an entry has "storefront" and "weight""#)
    #expect(
      problem(#"{"products": []}"#)?.hasPrefix("products: an empty list leaves nothing") == true)
    #expect(problem("[1]") == "(root): a model is an object, not an array")
    #expect(problem("{").map { $0.hasPrefix("(root): ") } == true)
    let model = try BehaviourModel(
      json: Array(#"{"gracePeriod": false, "refund": 0}"#.utf8), catalog: catalog)
    #expect(
      !model.gracePeriod && model.refund == 0 && model.cancellation == BehaviourModel().cancellation
    )
  }

  @Test func shardsAreIOfN() {
    #expect(Shard(parsing: "1/2") == Shard(index: 1, count: 2))
    #expect(Shard(parsing: "3/2") == nil && Shard(parsing: "0/2") == nil)
    #expect(
      Shard(parsing: "1/0") == nil && Shard(parsing: "a/b") == nil && Shard(parsing: "1") == nil)
    let shards = (1...3).map { Shard(index: $0, count: 3) }
    for number in 1...30 { #expect(shards.filter { $0.contains(number) }.count == 1) }
  }

  @Test func aSeedsNumbersAreTheSameEverywhere() {
    var random = SeededRandom(seed: 42, stream: 7)
    let first = (0..<3).map { _ in random.next() }
    var again = SeededRandom(seed: 42, stream: 7)
    #expect((0..<3).map { _ in again.next() } == first)
    var other = SeededRandom(seed: 42, stream: 8)
    #expect(other.next() != first[0])
  }
}
