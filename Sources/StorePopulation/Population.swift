import HeapModule
import StoreCommands
import StoreConfiguration
import StoreDelivery
import StoreSimulation

/// What a population is: how many customers, for how long, by which seed and model, and which
/// shard of it runs here.
public struct PopulationOptions: Sendable {
  /// Customers, numbered from 1.
  public var customers: Int
  /// How many months they live after the first arrives.
  public var months: Int
  /// The seed every customer's random stream comes from.
  public var seed: UInt64
  /// Which customers run here.
  public var shard = Shard.whole
  /// How they behave.
  public var model = BehaviourModel()

  /// A population of `customers` living `months` months by `seed`.
  public init(customers: Int, months: Int, seed: UInt64) {
    self.customers = customers
    self.months = months
    self.seed = seed
  }
}

/// How far a population got, told at each month's end.
public struct PopulationProgress: Sendable {
  /// Months done, of `months`.
  public var month: Int
  /// The months in all.
  public var months: Int
  /// The simulated present.
  public var now: Instant
  /// Customers who arrived so far.
  public var arrived: Int
  /// Notifications so far.
  public var notifications: Int
}

/// A population's customers living their lives through a command host: each customer arrives
/// in the first month and buys a subscription, then the model decides, period by period, what
/// they do (cancel, change plan, fail a payment and maybe fix it, get refunded, answer a price
/// increase, share with their family). Every decision is a command of the language, so the
/// journal holds the whole population and opens in the inspector like any session.
///
/// Deterministic: the same options give the same commands, journal and notifications. The clock
/// stops at every renewal, action and month's end, so each customer's life is the same whoever
/// else is in the run, which is what lets shards add up to the whole.
public final class Population {
  private let options: PopulationOptions
  private let host: CommandHost
  private let events = EventCollector()
  private var queue = Heap<PlannedAction>()
  private var lives: [Int: CustomerLife] = [:]
  /// The host's sender, whose notifications are counted.
  private let sender: NotificationSender?
  private var seen = Set<UInt64>()
  /// The expiries counted as churn.
  private var expired = Set<ExpiryKey>()
  private struct ExpiryKey: Hashable {
    var number: Int
    var transaction: UInt64
  }
  /// When each month of the run ends.
  private var monthEnds: [Int64] = []
  private var refunded = Set<UInt64>()
  private var arrived = 0
  private(set) var summary = PopulationSummary()
  private let subscriptions: [Int]

  /// A population that runs through `host` (a session of its own, started where the
  /// population starts). With `sender` (the host's), the notifications it sends are counted;
  /// without, those the engine decided are counted (none is signed).
  public init(options: PopulationOptions, host: CommandHost, sender: NotificationSender? = nil) {
    self.options = options
    self.host = host
    let catalog = host.session.catalog
    let named = options.model.products.compactMap { catalog.index(of: $0.value) }
    subscriptions =
      named.isEmpty
      ? catalog.products.indices.filter {
        catalog.products[$0].groupIndex != nil && catalog.products[$0].isAvailable
      }
      : named
    self.sender = sender
    sender?.listen { [unowned self] sent in
      summary.notifications[sent.notification.name, default: 0] += 1
    }
  }

  /// Lives every customer's life to the population's end, telling `progress` at each month's
  /// end.
  ///
  /// - Throws: ``CommandError`` when the journal cannot be written, or the configuration has no
  ///   auto-renewable subscription.
  public func run(progress: (PopulationProgress) -> Void) throws(CommandError) -> PopulationSummary
  {
    guard !subscriptions.isEmpty else {
      throw CommandError("the configuration has no auto-renewable subscription to simulate")
    }
    host.attach(events)
    defer { host.detach(events) }
    let start = host.session.now
    summary.shard = options.shard
    try perform(.set(.timeRate(.realTime)))
    try perform(.set(.flag(.gracePeriod, options.model.gracePeriod)))
    let width = max(6, String(options.customers).count)
    let month: Int64 = 30 * 86_400_000
    for number in 1...max(1, options.customers) where options.customers > 0 {
      guard options.shard.contains(number) else { continue }
      let life = CustomerLife(number: number, seed: options.seed, width: width)
      let arrival = start.milliseconds + life.random.milliseconds(0, month)
      queue.insert(life.plan(.arrive, at: arrival))
      lives[number] = life
    }
    summary.customers = lives.count
    let ends = (1...max(1, options.months)).map {
      CommandDuration(months: Int64($0)).after(start).milliseconds
    }
    monthEnds = ends
    for (index, end) in ends.enumerated() {
      try live(until: end)
      summary.subscribers.append((Instant(milliseconds: end), host.session.subscriberCount))
      if summary.groupMembersJoined > 0 || !summary.seatMembers.isEmpty {
        summary.seatMembers.append(host.session.assignedSeatCount)
      }
      progress(
        PopulationProgress(
          month: index + 1, months: ends.count, now: host.session.now, arrived: arrived,
          notifications: sender?.madeCount ?? summary.notificationCount))
    }
    // What waits is journaled and sent (and counted) before the summary is told.
    try host.flush()
    summary.monthlyRecurringRevenue = recurringRevenue()
    return summary
  }

  /// Moves the clock to `end`, stopping at every renewal and planned action on the way.
  private func live(until end: Int64) throws(CommandError) {
    while true {
      let now = host.session.now.milliseconds
      while let next = queue.min, next.time <= now {
        queue.removeMin()
        try act(next)
      }
      var target = end
      if let next = queue.min { target = min(target, next.time) }
      if let due = host.session.nextScheduledEvent?.milliseconds { target = min(target, due) }
      // The clock must move: a refused advance (past the latest instant) ends the run.
      if target > now { try perform(.advance(.to(Instant(milliseconds: target))), orThrow: true) }
      if target >= end && (queue.min?.time ?? .max) > end { return }
    }
  }

  // MARK: - Acting

  /// Does a planned action as its customer.
  private func act(_ planned: PlannedAction) throws(CommandError) {
    guard let life = lives[planned.number] else { return }
    if planned.action == .arrive {
      return try arrive(life)
    }
    try become(life.customer, new: false)
    switch planned.action {
    case .arrive: break
    case .cancel:
      if let id = life.current { try perform(.autoRenew(.id(id), enabled: false)) }
    case .failNextRenewal:
      life.failing = true
      try perform(.set(.flag(.billingRetry, true)))
    case .billingFailed:
      try perform(.set(.flag(.billingRetry, false)))
      if let id = life.current, decide(.billingRecovery, life) {
        let later = planned.time + life.random.milliseconds(3_600_000, 20 * 86_400_000)
        queue.insert(life.plan(.resolve(id), at: later))
      }
    case .resolve(let id): try perform(.resolve(.id(id)))
    case .refund(let id): try perform(.refund(.id(id), reason: nil))
    case .changePlan(let productID):
      try perform(.buy(productID: productID, options: PurchaseOptions()))
    case .requestPriceIncrease:
      guard let id = life.current else { break }
      if try perform(.priceIncrease(.request, .id(id))) {
        let consent = decide(.priceIncreaseConsent, life)
        let later = planned.time + life.random.milliseconds(86_400_000, 10 * 86_400_000)
        queue.insert(life.plan(.answerPriceIncrease(consent: consent), at: later))
      }
    case .answerPriceIncrease(let consent):
      if let id = life.current {
        try perform(.priceIncrease(consent ? .consent : .decline, .id(id)))
      }
    case .familyJoin: try perform(.family(.join("partner")))
    case .groupInvite(let member): try invite(member, of: life)
    case .groupRemove(let member):
      if try perform(.seats(.remove(member: memberName(member, of: life)))) {
        summary.groupMembersLeft += 1
      }
    }
  }

  /// The most members a group purchase invites (its most seats).
  static let mostMembers = 10

  /// A group purchaser's `member`th invitee: `c000123m2`.
  private func memberName(_ member: Int, of life: CustomerLife) -> String {
    "\(life.customer.name ?? "c")m\(member)"
  }

  /// A group purchaser's `member`th invitee joins: a customer numbered after every customer
  /// of the run by the purchaser's number, so that no two shards give out the same number (a
  /// run too large for that invites no one, counted as skipped).
  private func invite(_ member: Int, of life: CustomerLife) throws(CommandError) {
    let name = memberName(member, of: life)
    let number =
      max(1, options.customers) + (life.customer.number - 1) * Self.mostMembers + member
    guard number <= Customer.maximumNumber else {
      summary.skippedActions += 1
      summary.skippedByKind["group", default: 0] += 1
      return
    }
    if host.session.customer(named: name) == nil {
      try perform(.customer(name: name, number: number), orThrow: true)
      try become(life.customer, new: false)
    }
    if try perform(.seats(.invite(member: name))) { summary.groupMembersJoined += 1 }
  }

  /// A customer arrives: made with their number, in a storefront of the model's, they buy a
  /// subscription (with its introductory offer, maybe), and plan the once-in-a-life things.
  private func arrive(_ life: CustomerLife) throws(CommandError) {
    arrived += 1
    try become(life.customer, new: true)
    let model = options.model
    let storefront = life.random.pick(model.storefronts.map { ($0.value, $0.weight) })
    if storefront != host.session.settings.storefront.countryCode,
      let chosen = Storefront(countryCode: storefront)
    {
      try perform(.set(.storefront(chosen)))
    }
    let catalog = host.session.catalog
    let weights =
      model.products.isEmpty
      ? subscriptions.map { ($0, 1.0) }
      : zip(subscriptions, model.products.map(\.weight)).map { ($0, $1) }
    let product = catalog.products[life.random.pick(weights)]
    // StoreKit applies the introductory offer to an eligible customer by itself. A group
    // purchase is drawn only when the model has them (a seed's population stays the same).
    var purchase = PurchaseOptions()
    if model.groupPurchase > 0 && decide(.groupPurchase, life) {
      purchase.seats = 2 + Int(life.random.next() % 9)
    }
    let now = host.session.now.milliseconds
    let day: Int64 = 86_400_000
    if try perform(.buy(productID: product.productID, options: purchase)),
      let seats = purchase.seats
    {
      summary.groupSeats += seats
      planMembers(of: life, seats: seats, from: now)
    }
    if product.familyShareable && decide(.familySharing, life) {
      queue.insert(life.plan(.familyJoin, at: now + life.random.milliseconds(day, 30 * day)))
    }
    if decide(.priceIncrease, life) {
      let last = Int64(max(2, options.months)) * 30 * day
      queue.insert(
        life.plan(.requestPriceIncrease, at: now + life.random.milliseconds(30 * day, last)))
    }
  }

  /// A group purchaser's members: 1 to `seats` join within a month (Apple hosts the
  /// invitations), and each may leave later in the run (`groupMemberLeaving`).
  private func planMembers(of life: CustomerLife, seats: Int, from now: Int64) {
    let day: Int64 = 86_400_000
    let last = Int64(max(2, options.months)) * 30 * day
    let count = 1 + Int(life.random.next() % UInt64(min(seats, Self.mostMembers)))
    for member in 1...count {
      let joins = now + life.random.milliseconds(3_600_000, 30 * day)
      queue.insert(life.plan(.groupInvite(member: member), at: joins))
      if decide(.groupMemberLeaving, life) {
        let leaves = joins + life.random.milliseconds(7 * day, max(8 * day, last))
        queue.insert(life.plan(.groupRemove(member: member), at: leaves))
      }
    }
  }

  /// Draws a chance of the model from the customer's stream, and counts it.
  private func decide(_ chance: BehaviourModel.Chance, _ life: CustomerLife) -> Bool {
    let hit = life.random.chance(options.model.probability(chance))
    summary.draws[chance, default: PopulationSummary.Draws()].trials += 1
    if hit { summary.draws[chance, default: PopulationSummary.Draws()].hits += 1 }
    return hit
  }

  /// Makes the session act as `customer` (made with their number when `new`).
  private func become(_ customer: Customer, new: Bool) throws(CommandError) {
    guard host.session.customer != customer else { return }
    try perform(.customer(name: customer.name, number: new ? customer.number : nil))
  }

  // MARK: - Watching

  /// Applies a command, then watches what it did; `false` when the session refused it (an
  /// action the model chose that does not apply now), or its refusal thrown with `orThrow`.
  @discardableResult
  private func perform(_ command: Command, orThrow: Bool = false) throws(CommandError) -> Bool {
    let outcome = host.perform(command)
    if let error = outcome.publishError { throw error }
    let made = events.take()
    if let error = outcome.error {
      if orThrow { throw error }
      summary.skippedActions += 1
      let verb = command.description.split(separator: " ").first.map(String.init) ?? "?"
      summary.skippedByKind[verb, default: 0] += 1
      return false
    }
    guard !made.isEmpty else { return true }
    // Without a sender, the notifications the engine decided are counted here.
    if sender == nil {
      for event in made {
        for cause in event.notifications { summary.notifications[cause.name, default: 0] += 1 }
      }
    }
    for event in made { watch(event) }
    return true
  }

  /// One event: revenue, and what a customer's new period or failed renewal makes them plan.
  private func watch(_ event: StoreEvent) {
    guard let number = event.customer?.number, let life = lives[number] else { return }
    switch event.kind {
    case .transaction(let t, _) where t.owner.isPurchaser && t.state == .purchased:
      count(t)
      guard t.productType == .autoRenewable, t.revocationDate == nil,
        t.id > (life.current ?? 0) || life.current == nil
      else { return }
      life.current = t.id
      plan(life, after: t, at: event.time.milliseconds)
    case .status(let status) where status.owner.isPurchaser && status.state == .expired:
      countChurn(status, of: number)
    case .status(let status) where status.owner.isPurchaser && life.failing:
      guard status.state == .inBillingRetryPeriod || status.state == .inGracePeriod else { return }
      life.failing = false
      queue.insert(life.plan(.billingFailed, at: event.time.milliseconds))
    default: return
    }
  }

  /// Revenue: a charge when first seen, less its refund when first revoked, each in its month.
  private func count(_ t: Transaction) {
    if seen.insert(t.id).inserted {
      summary.transactions += 1
      summary.revenue[t.currency, default: 0] += t.price
      addRevenue(t.price, t.currency, at: t.purchaseDate)
    }
    if let revoked = t.revocationDate, refunded.insert(t.id).inserted {
      let share = Int64(t.revocationPercentage ?? 100_000)
      summary.revenue[t.currency, default: 0] -= t.price * share / 100_000
      addRevenue(-t.price * share / 100_000, t.currency, at: revoked)
    }
  }

  private func addRevenue(_ amount: Int64, _ currency: String, at time: Instant) {
    let month = monthEnds.firstIndex { time.milliseconds < $0 } ?? max(0, monthEnds.count - 1)
    while summary.revenueByMonth.count <= month { summary.revenueByMonth.append([:]) }
    summary.revenueByMonth[month][currency, default: 0] += amount
  }

  /// An expiry, counted once per subscription period: voluntary or billing churn.
  private func countChurn(_ status: SubscriptionStatus, of number: Int) {
    guard expired.insert(ExpiryKey(number: number, transaction: status.transactionID)).inserted
    else { return }
    switch status.renewalInfo.expirationReason {
    case .autoRenewDisabled?, .didNotConsentToPriceIncrease?: summary.voluntaryChurn += 1
    case .billingError?: summary.billingChurn += 1
    default: break
    }
  }

  /// Monthly recurring revenue now: each subscriber's product at its list price.
  private func recurringRevenue() -> [String: Int64] {
    var total: [String: Int64] = [:]
    let catalog = host.session.catalog
    host.session.forEachCustomerSummary { summary in
      guard summary.status == .subscribed || summary.status == .inGracePeriod,
        let id = summary.productID, let product = catalog.product(id)
      else { return }
      let price = product.price
      var monthly = price
      if let period = product.period {
        let count = Int64(max(1, period.value))
        monthly =
          switch period.unit {
          case .year: price / (12 * count)
          case .month: price / count
          case .week: price * 30 / (7 * count)
          case .day: price * 30 / count
          }
      }
      total[summary.storefront.currency, default: 0] += monthly
    }
    return total
  }

  /// What a customer plans when a period of their subscription begins.
  private func plan(_ life: CustomerLife, after t: Transaction, at time: Int64) {
    let end = t.expirationDate?.milliseconds ?? time
    let day: Int64 = 86_400_000
    if t.price > 0 && decide(.refund, life) {
      queue.insert(
        life.plan(.refund(t.id), at: time + life.random.milliseconds(day / 24, 14 * day)))
    }
    let intro = t.offer?.type == .introductory
    if intro && t.reason == .purchase {
      if !decide(.introductoryConversion, life) {
        queue.insert(life.plan(.cancel, at: life.random.milliseconds(time, end)))
      }
    } else if !intro && decide(.cancellation, life) {
      queue.insert(life.plan(.cancel, at: life.random.milliseconds(time, end)))
    } else if !intro && decide(.planChange, life),
      let other = otherPlan(than: t.productID, random: &life.random)
    {
      queue.insert(life.plan(.changePlan(other), at: life.random.milliseconds(time, end)))
    }
    if decide(.billingFailure, life) {
      queue.insert(life.plan(.failNextRenewal, at: time))
    }
  }

  /// Another available subscription of the product's group, at random.
  private func otherPlan(than productID: String, random: inout SeededRandom) -> String? {
    let catalog = host.session.catalog
    guard let index = catalog.index(of: productID), let group = catalog.products[index].groupIndex
    else { return nil }
    let others = catalog.groups[group].productIndices.filter {
      $0 != index && catalog.products[$0].isAvailable
    }
    guard !others.isEmpty else { return nil }
    return catalog.products[others[Int(random.next() % UInt64(others.count))]].productID
  }
}
