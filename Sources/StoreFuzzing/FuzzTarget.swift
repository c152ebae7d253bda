import Foundation
import StoreCommands
import StoreConfiguration
import StoreSigning
import StoreSimulation

/// Something that reads untrusted input: given any bytes it must return (an error is fine),
/// never crash or hang, and keep its own promises (a parsed command prints back as itself).
package struct FuzzTarget: Sendable {
  /// Its name on the command line.
  package let name: String
  /// Inputs the mutations start from.
  package let seeds: [[UInt8]]
  /// Words of its language the mutations drop in.
  package let tokens: [[UInt8]]
  /// Reads one input. A broken promise is a `preconditionFailure` (a crash, reported as one).
  package let run: @Sendable ([UInt8]) -> Void

  /// Every target: the `.storekit` reader, the command parser, the journal reader, `decode`
  /// and the filter language. `configurations` are more `.storekit` seeds (the bundled ones).
  package static func all(configurations: [[UInt8]] = []) throws -> [FuzzTarget] {
    [
      storekit(extra: configurations), commands(), journal(), try decode(), filter(),
    ]
  }

  static let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

  /// The options fuzzed sessions run with: invariants checked, work bounded.
  static var options: SessionOptions {
    var options = SessionOptions()
    options.maximumEventsPerVerb = 20_000
    options.invariantChecking = .everyVerb
    return options
  }

  static func words(_ list: [String]) -> [[UInt8]] { list.map { Array($0.utf8) } }

  // MARK: - .storekit

  static func storekit(extra: [[UInt8]]) -> FuzzTarget {
    FuzzTarget(
      name: "storekit", seeds: [Array(FuzzSeeds.configuration.utf8)] + extra,
      tokens: words([
        "\"P1M\"", "\"P99999Y\"", "\"P0D\"", "\"99999999999999999999.99\"", "\"-1\"", "\"\"",
        "null", "true", "[]", "{}", "\"RecurringSubscription\"", "\"NonRenewingSubscription\"",
        "\"Consumable\"", "\"NonConsumable\"", "\"numberOfPeriods\" : 999999999", "\"payUpFront\"",
        "\"freeTrial\"", "\"payAsYouGo\"", "\"_timeRate\" : 1003", "\"_storefront\" : \"JPN\"",
        "\"groupNumber\" : -5", "\"version\" : { \"major\" : 9, \"minor\" : 0 }", "\\u0000",
        "\\ud800", "1e999", "\"_locale\" : \"ja\"",
      ]),
      run: { bytes in
        let result = StoreKitConfiguration.load(bytes)
        for diagnostic in result.diagnostics.prefix(20) {
          _ = diagnostic.formatted(file: "fuzz.storekit")
        }
        guard let configuration = result.usableConfiguration else { return }
        let written = configuration.xcodeFormattedBytes()
        precondition(
          StoreKitConfiguration.load(written).usableConfiguration != nil,
          "a usable configuration no longer loads once written in Xcode's formatting")
        var session = Session(configuration: configuration, start: start, options: options)
        for product in session.catalog.products.prefix(6) {
          try? session.buy(product.productID, PurchaseOptions(quantity: 2)) { _ in }
          try? session.buy(product.productID, PurchaseOptions(origin: .store)) { _ in }
        }
        try? session.advance(to: start.adding(milliseconds: 40 * 86_400_000)) { _ in }
        _ = session.currentEntitlements()
        _ = session.subscriptionStatuses()
        _ = session.ledgerRows()
      })
  }

  // MARK: - Commands

  /// A session with a little of everything for commands to act on.
  static let commandSession: Session = {
    let configuration = StoreKitConfiguration.load(Array(FuzzSeeds.configuration.utf8))
      .usableConfiguration!
    var session = Session(configuration: configuration, start: start, options: options)
    for line in [
      "buy fuzz.monthly", "buy fuzz.coins quantity=3", "buy fuzz.lifetime", "advance 2m",
      "set ask-to-buy on", "buy fuzz.yearly", "set ask-to-buy off",
    ] {
      try? Command.parse(line)?.apply(to: &session) { _ in }
    }
    return session
  }()

  static func commands() -> FuzzTarget {
    FuzzTarget(
      name: "commands", seeds: words(FuzzSeeds.commands),
      tokens: words(
        Command.verbs + [
          "99999999999999", "9223372036854775807", "-1", "0", "P", "T", "Y", "M", "W", "D", "H",
          "S", "mo", "ms", "y", "w", "d", "h", "m", "s", ".5", "=", "\"", "\\", "#", " ", "last",
          "last:", "next", "quantity=", "offer=", "intro", "promo:", "code:", "winback:",
          "token=", "date=", "renew=", "from=", "store", "app", "9999-12-31T23:59:59.999Z",
          "0000-01-01", "fuzz.monthly", "fuzz.coins", "fuzz.yearly", "on", "off", "time-rate",
          "storefront", "locale", "key=", "nonce=", "timestamp=", "signature=", "jws=",
          "intro-jws=", "bundle=", "eyJhbGciOiJFUzI1NiJ9.e30.", "receipt",
        ]),
      run: { bytes in
        var session = commandSession
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).prefix(8) {
          guard let command = try? Command.parse(String(line)) else { continue }
          let printed = command.description
          let reparsed = try? Command.parse(printed)
          precondition(
            reparsed == command,
            "\(String(line).debugDescription) printed as \(printed.debugDescription), which reads "
              + "back as \(String(describing: reparsed))")
          try? command.apply(to: &session) { _ in }
        }
      })
  }

  // MARK: - Journals

  static func journal() -> FuzzTarget {
    FuzzTarget(
      name: "journal", seeds: FuzzSeeds.journals(),
      tokens: words([
        #"{"at":"2026-11-22T02:00:00.000Z","command":"advance 9999y"}"#,
        #"{"advance":"9999-12-31T23:59:59.999Z"}"#, #","check":"00000000"}"#, "\n", "\\n",
        #"{"storekeeperJournal":4"#, #""configuration":"{}""#,
      ]),
      run: { bytes in
        var input = bytes
        // Half the time the lines are sealed again, so that mutations reach past the checks
        // into the records and their replay.
        if input.first.map({ $0 & 1 == 1 }) ?? false { input = resealed(input) }
        guard let journal = try? Journal.read(contents: input, path: "fuzz.journal") else {
          return
        }
        _ = try? JournaledSession(replaying: journal, options: options, replayLimit: 20_000)
      })
  }

  /// Every complete line that is a JSON object sealed with its check (any old check dropped).
  static func resealed(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var start = 0
    while let newline = bytes[start...].firstIndex(of: 0x0A) {
      var line = Array(bytes[start..<newline])
      let marker = Array(#","check":""#.utf8)
      if line.count >= marker.count + 10,
        line[(line.count - 10 - marker.count)..<(line.count - 10)].elementsEqual(marker)
      {
        line = Array(line[..<(line.count - 10 - marker.count)]) + [UInt8(ascii: "}")]
      }
      output +=
        line.first == UInt8(ascii: "{") && line.last == UInt8(ascii: "}")
        ? JournalLine.sealed(line) : line + [0x0A]
      start = newline + 1
    }
    return output + bytes[start...]
  }

  // MARK: - decode

  static func decode() throws -> FuzzTarget {
    FuzzTarget(
      name: "decode", seeds: try FuzzSeeds.signed(),
      tokens: words([".", "=", "+", "/", "-", "_", "eyJ", "{\"signedPayload\":\"", "\"}", "x5c"])
        + [[0x30, 0x80], [0x00, 0x00], [0x31, 0x82], [0x04, 0x81], [0xA0, 0x80]],
      run: { bytes in
        _ = try? JWS.decode(jwsOrNotificationBody: String(decoding: bytes, as: UTF8.self))
        // Receipts: DER, BER (indefinite lengths) or base64.
        _ = try? Receipt.decode(bytes, deviceID: "6F1C3E2A-1B2C-4D5E-8F90-0A1B2C3D4E5F")
      })
  }

  // MARK: - Filters

  static func filter() -> FuzzTarget {
    let session = commandSession
    let rows = session.ledgerRows()
    return FuzzTarget(
      name: "filter", seeds: words(FuzzSeeds.filters),
      tokens: words(
        TransactionFilter.fieldNames + [
          ",", "!", "..", " ", "2026-11-22", "9999-12-31", "0000-01-01T00:00:00+14:00",
          "99999999999999999999", "fuzz.monthly", "refunded", "pending", "intro", "\"",
        ]),
      run: { bytes in
        guard let filter = try? TransactionFilter(parsing: String(decoding: bytes, as: UTF8.self))
        else { return }
        let compiled = filter.compiled(for: session.catalog, now: session.now)
        for row in rows { _ = compiled.matches(row) }
        _ = try? TransactionFilter(parsing: filter.description)
      })
  }
}
