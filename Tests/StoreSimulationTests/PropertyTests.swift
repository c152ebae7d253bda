import PropertyBased
import Testing

@testable import StoreSimulation

/// Random sequences of verbs and clock moves: the invariants hold after every step, a refused
/// verb changes nothing, and replaying a sequence gives the same events.
@Suite struct PropertyTests {
  static let products = [
    "coins", "pro", "season", "annual", "premium.monthly", "monthly", "plus.monthly",
    "basic.monthly", "basic.yearly", "weekly", "solo.monthly", "nope",
  ]

  /// Applies the operation a number encodes; returns whether the session refused it.
  static func apply(_ code: Int, to session: inout Session, _ sink: EventSink) -> Bool {
    let parameter = code / 32
    let product = products[parameter % products.count]
    let id = UInt64(parameter % Int(max(1, session.lastTransactionID().map { $0 + 2 } ?? 1)))
    do throws(SessionError) {
      switch code % 32 {
      case 0, 1, 2: try session.buy(product, PurchaseOptions(quantity: 1 + parameter % 2), sink)
      case 3: try session.buy(product, PurchaseOptions(origin: .store), sink)
      case 4:
        let offers: [OfferSelection] = [
          .introductory, .promotional("promo.quarter"), .code("CODE1"), .code("COMEBACK"),
          .winBack("winback.free"),
        ]
        try session.buy("monthly", PurchaseOptions(offer: offers[parameter % offers.count]), sink)
      case 5:
        let date = session.now.adding(milliseconds: -Int64(parameter % 300) * 1000)
        try session.buy(
          product,
          PurchaseOptions(
            purchaseDate: date, renewal: parameter % 2 == 0 ? .automatic : .once, origin: .store),
          sink)
      case 6: try session.approveAskToBuy(id, sink)
      case 7: try session.declineAskToBuy(id, sink)
      case 8: try session.resolveIssue(id, sink)
      case 9:
        switch parameter % 6 {
        case 0: try session.requestRefund(id, reason: .unintendedPurchase, sink)
        case 1: try session.declineRefund(id, sink)
        case 2: try session.reverseRefund(id, sink)
        case 3:
          try session.extendRenewalDate(id, days: 1 + parameter % 90, sink)
        case 4: try session.refund(id, share: 1 + parameter % 100_000, sink)
        default:
          try session.refund(id, reason: parameter % 2 == 0 ? .other : .developerIssue, sink)
        }
      case 10: try session.setAutoRenew(id, enabled: parameter % 2 == 0, sink)
      case 11: try session.expireSubscription(product, sink)
      case 12: try session.forceRenewal(product, sink)
      case 13: try session.finish(id, sink)
      case 14: session.finishAll(sink)
      case 15: try session.delete(id, sink)
      case 16: if parameter % 5 == 0 { session.clear(sink) }
      case 17: session.launch(sink)
      case 18: session.restore(sink)
      case 19, 20, 21:
        try session.advance(
          to: session.now.adding(milliseconds: Int64(1 + parameter % 90) * 1000), sink)
      case 22: try session.advanceToNextEvent(sink)
      case 23: session.updateSettings { $0.askToBuyEnabled.toggle() }
      case 24: session.updateSettings { $0.interruptedPurchasesEnabled.toggle() }
      case 25: session.updateSettings { $0.shouldEnterBillingRetryOnRenewal.toggle() }
      case 26: session.updateSettings { $0.billingGracePeriodIsEnabled.toggle() }
      case 27: session.updateSettings { $0.failTransactionsEnabled = parameter % 4 == 0 }
      case 28:
        let rates: [TimeRate] = [
          .monthlyRenewalEveryThirtySeconds, .oneRenewalEveryTenSeconds, .oneSecondIsOneDay,
        ]
        session.updateSettings { $0.timeRate = rates[parameter % rates.count] }
      case 29:
        try session.call(
          StoreKitAPI.allCases[parameter % StoreKitAPI.allCases.count], transaction: id, sink)
      case 30:
        try session.priceIncrease(
          parameter % 3 == 0 ? .request : parameter % 3 == 1 ? .consent : .decline, id, sink)
      default: session.resetSettings()
      }
      return false
    } catch {
      return true
    }
  }

  static func fresh() -> Session {
    var options = SessionOptions()
    options.invariantChecking = .off
    var session = Session(configuration: testConfiguration, start: t0, options: options)
    session.updateSettings { $0.timeRate = .monthlyRenewalEveryThirtySeconds }
    return session
  }

  struct Fingerprint: Equatable {
    var transactions: [Transaction]
    var statuses: [SubscriptionStatus]
    var now: Instant
    var next: Instant?

    init(_ session: Session) {
      transactions = session.allTransactions()
      statuses = session.subscriptionStatuses()
      now = session.now
      next = session.nextScheduledEvent
    }
  }

  @Test func invariantsHoldAndRefusedVerbsChangeNothing() async {
    await propertyCheck(count: 300, input: Gen.int(in: 0...100_000).array(of: 1...60)) { codes in
      var session = Self.fresh()
      for code in codes {
        let before = Fingerprint(session)
        var emitted = 0
        let refused = Self.apply(code, to: &session) { _ in emitted += 1 }
        if refused {
          #expect(
            Fingerprint(session) == before, "operation \(code) was refused but changed the session")
          #expect(emitted == 0, "operation \(code) was refused but emitted events")
        }
        if let problem = session.invariantViolation() {
          Issue.record("after operation \(code % 32) (\(code)): \(problem)")
          return
        }
      }
    }
  }

  @Test func replayingASequenceGivesTheSameEvents() async {
    await propertyCheck(count: 100, input: Gen.int(in: 0...100_000).array(of: 1...80)) { codes in
      func run() -> [StoreEvent] {
        var session = Self.fresh()
        var received: [StoreEvent] = []
        for code in codes { _ = Self.apply(code, to: &session) { received.append($0) } }
        return received
      }
      #expect(run() == run())
    }
  }

  /// Multiseat with Apple-hosted members: random purchases with seats, invitations,
  /// removals, seat changes and refunds, deletions, clock moves and customer switches; every
  /// customer's invariants hold after every step, and a refused operation changes nothing.
  static func applySeats(_ code: Int, to session: inout Session, _ sink: EventSink) -> Bool {
    let parameter = code / 16
    let name = "m\(parameter % 4)"
    let id = UInt64(parameter % Int(max(1, session.lastTransactionID().map { $0 + 2 } ?? 1)))
    do throws(SessionError) {
      switch code % 16 {
      case 0, 1:
        var options = PurchaseOptions()
        options.seats = 1 + parameter % 5
        try session.buy(parameter % 3 == 0 ? "monthly" : "premium.monthly", options, sink)
      case 2, 3: try session.changeSeats(.invite(member: name), sink)
      case 4: try session.changeSeats(.remove(member: name), sink)
      case 5: try session.changeSeats(.change(id, total: 1 + parameter % 6), sink)
      case 6: try session.changeSeats(.refund(id, seats: 1), sink)
      case 7, 8:
        try session.advance(
          to: session.now.adding(milliseconds: Int64(1 + parameter % 90) * 1000), sink)
      case 9: try session.setAutoRenew(id, enabled: parameter % 2 == 0, sink)
      case 10: if parameter % 6 == 0 { session.clear(sink) } else { try session.delete(id, sink) }
      case 11:
        try session.selectCustomer(
          named: parameter % 3 == 0 ? nil : parameter % 3 == 1 ? name : "p")
      case 12: try session.refund(id, reason: .other, share: nil, sink)
      case 13: try session.advanceToNextEvent(sink)
      case 14:
        try session.changeSeats(.invitations(parameter % 2 == 0 ? .apple : .developer), sink)
      default: session.updateSettings { $0.shouldEnterBillingRetryOnRenewal.toggle() }
      }
      return false
    } catch {
      return true
    }
  }

  @Test func membersKeepEveryCustomersInvariants() async {
    await propertyCheck(count: 400, input: Gen.int(in: 0...100_000).array(of: 1...100)) { codes in
      var session = Self.fresh()
      for code in codes {
        let before = Fingerprint(session)
        var emitted = 0
        let refused = Self.applySeats(code, to: &session) { _ in emitted += 1 }
        if refused {
          #expect(Fingerprint(session) == before, "seat operation \(code) was refused but changed")
          #expect(emitted == 0, "seat operation \(code) was refused but emitted events")
        }
        for customer in session.customers {
          guard let problem = session.acting(as: customer)?.invariantViolation() else { continue }
          Issue.record("after seat operation \(code % 16) (\(code)), \(customer): \(problem)")
          return
        }
      }
    }
  }
}
