import Foundation
import StoreConfiguration
import StoreJSON
import StoreSimulation
import StoreTestSupport
import Testing

@testable import StoreCommands

@Suite struct EventEncoderTests {
  let time = Instant(iso8601: "2026-11-22T02:01:30Z")!

  @Test func pricesAreExactDecimals() {
    #expect(decimalText(9990) == "9.99")
    #expect(decimalText(13_900_000) == "13900")
    #expect(decimalText(500) == "0.5")
    #expect(decimalText(0) == "0")
    #expect(decimalText(1) == "0.001")
  }

  @Test func eventsHaveAStableKeyOrderAndOmitWhatIsAbsent() {
    let encoder = EventEncoder()
    #expect(
      encoder.line(StoreEvent(time: time, kind: .transactionRemoved(id: 7)))
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"transactionRemoved","id":7}"#)
    #expect(
      encoder.line(StoreEvent(time: time, kind: .message(.billingIssue, productID: "m")))
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"message","reason":"billingIssue","productID":"m"}"#
    )
    let failed = PaymentQueueUpdate(
      productID: "p", state: .failed, transactionID: 3, error: .paymentCancelled, quantity: 1)
    #expect(
      encoder.line(StoreEvent(time: time, kind: .paymentQueue(failed)))
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"paymentQueue","productID":"p","state":"failed","transactionID":3,"quantity":1,"error":{"domain":"SKErrorDomain","code":2,"name":"paymentCancelled"}}"#
    )
    let result = PurchaseResult(
      productID: "p", outcome: .failed, error: .purchase(.productUnavailable))
    #expect(
      encoder.line(StoreEvent(time: time, kind: .purchaseResult(result)))
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"purchaseResult","productID":"p","result":"failed","error":{"type":"Product.PurchaseError","case":"productUnavailable"}}"#
    )
    #expect(
      encoder.line(
        StoreEvent(
          time: time, kind: .apiCall(.loadProducts, error: .generic(.networkError), detail: nil)))
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"apiCall","api":"loadProducts","result":"failed","error":{"type":"StoreKitError","case":"networkError"}}"#
    )
    #expect(
      encoder.line(StoreEvent(time: time, kind: .revokedEntitlements(productIDs: ["a", "b"])))
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"revokedEntitlements","productIDs":["a","b"]}"#
    )
  }

  @Test func errorEventsNameLineCommandAndMessage() {
    let error = CommandError("there is no transaction 9", command: "refund 9", line: 4)
    #expect(
      EventEncoder().errorLine(error, time: time)
        == #"{"time":"2026-11-22T02:01:30.000Z","event":"error","line":4,"command":"refund 9","message":"there is no transaction 9"}"#
    )
  }

  @Test func stringsFromFilesCannotCarryEscapeSequences() {
    let line = EventEncoder().line(
      StoreEvent(time: time, kind: .revokedEntitlements(productIDs: ["x\u{1B}[2J\u{9B}"])))
    #expect(!line.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x9B })
    #expect(line.contains(#"x\u001b[2J\u009b"#))
  }

  @Test func decorationsAddFieldsToTransactions() throws {
    let configuration = StoreKitConfiguration.load(
      contentsOf: bundledConfiguration("FoodTruck").path
    ).configuration!
    var session = Session(configuration: configuration, start: time)
    var events: [StoreEvent] = []
    try session.buy("foodtruck.saleshistory") { events.append($0) }
    let encoder = EventEncoder { _, _ in [("jwsRepresentation", "a.b.c")] }
    let transaction = try #require(
      events.first { if case .transaction = $0.kind { true } else { false } })
    #expect(
      encoder.line(transaction).hasSuffix(#""isFinished":false,"jwsRepresentation":"a.b.c"}}"#))
  }
}

/// The byte writers against the text forms they replace.
@Suite struct ObjectBuilderTests {
  @Test func datesWrittenFromTheDayCacheMatchISO8601() {
    var cache = DayCache()
    var generator = SystemRandomNumberGenerator()
    let edges: [Int64] = [
      0, -1, 1, 86_399_999, 86_400_000, -86_400_000, -86_400_001, Instant.latest.milliseconds,
      -62_167_219_200_000, -62_167_219_200_001, 1_795_312_800_000,
    ]
    let random = (0..<5_000).map { _ in
      Int64.random(in: -62_167_219_200_000...Instant.latest.milliseconds, using: &generator)
    }
    // Runs of nearby instants use the cache; far jumps refill it.
    var instants = edges + random
    for base in random.prefix(50) { instants += (0..<20).map { base + $0 * 3_600_123 } }
    for milliseconds in instants {
      var writer = ByteWriter()
      cache.append(Instant(milliseconds: milliseconds), to: &writer)
      #expect(
        String(decoding: writer.array, as: UTF8.self) == Instant(milliseconds: milliseconds).iso8601
      )
    }
  }

  @Test func numbersAndPricesMatchTheirTextForms() {
    for value: Int64 in [0, 5, 9, 10, 99, 100, 12_345, -1, -10, -9_990, Int64.max, Int64.min + 1] {
      var object = ObjectBuilder()
      object.field("n", value)
      object.price("p", value)
      #expect(
        String(decoding: object.finish(), as: UTF8.self)
          == "{\"n\":\(value),\"p\":\(decimalText(value))}")
    }
    var object = ObjectBuilder()
    object.field("u", UInt64.max)
    #expect(String(decoding: object.finish(), as: UTF8.self) == "{\"u\":\(UInt64.max)}")
  }
}

/// With a decoration that signs, a batch's lines are made on every core: the output is byte for
/// byte what one line at a time makes, in order, and the device filter still applies.
@Suite struct ParallelEventLinesTests {
  final class Collector: CommandObserver {
    var events: [StoreEvent] = []
    func stream(_ events: ArraySlice<StoreEvent>) { self.events += events }
    func finished(_ outcome: CommandOutcome, session: Session) {}
  }

  @Test func signedLinesMadeOnEveryCoreAreTheLinesMadeOneAtATime() throws {
    let path = bundledConfiguration("FoodTruck").path
    let configuration = try #require(StoreKitConfiguration.load(contentsOf: path).configuration)
    let session = Session(
      configuration: configuration, start: Instant(iso8601: "2026-01-01T00:00:00Z")!)
    let host = CommandHost(JournaledSession(session: session, journal: nil))
    let collector = Collector()
    host.attach(collector)
    for line in ["buy socialfeed.monthly", "family join pat", "advance 3h", "refund last"] {
      #expect(host.perform(line: line).error == nil, "\(line)")
    }
    let events = collector.events
    #expect(events.count > 4 * EventLines.parallelThreshold)
    let encoder = EventEncoder(environment: "LocalTesting") { decorated, time in
      switch decorated {
      case .transaction(let t): [("jwsRepresentation", "t\(t.id)@\(time.milliseconds)")]
      case .renewalInfo(let s): [("jwsRepresentation", "r\(s.groupID)@\(time.milliseconds)")]
      }
    }
    func written(batched: Bool, device: DeviceFilter) -> [UInt8] {
      var output: [UInt8] = []
      let lines = EventLines(encoder: encoder) { writer in
        writer.withBytes { output += $0 }
        writer.removeAll()
      }
      lines.device = device
      if batched {
        lines.stream(events[...])
      } else {
        for event in events { lines.stream([event][...]) }
      }
      try? lines.publish()
      return output
    }
    for device in [DeviceFilter(), DeviceFilter(customer: nil, member: "pat")] {
      let one = written(batched: false, device: device)
      #expect(!one.isEmpty && written(batched: true, device: device) == one)
    }
  }
}
