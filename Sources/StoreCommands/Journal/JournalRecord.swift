import StoreJSON
import StoreSimulation

/// The first line of a journal: what the session started from.
public struct JournalHeader: Equatable, Sendable {
  /// The journal format this build writes. Format 2 seals every line with a CRC-32 check;
  /// format 1 journals (without checks) still open, and lines appended to them are checked.
  /// Format 3 changed two defaults (the refund sheet refunds at once, a price increase without
  /// a price asks for the configuration's): older journals replay, and go on, with the
  /// defaults they were written with (``JournaledSession/fidelity(ofFormat:)``). Format 4 lines
  /// may name the customer they act for (``JournalRecord/command(at:text:customer:)``), which an
  /// older storekeeper would apply to the wrong customer: it refuses the format instead.
  public static let currentFormat = 4

  /// The journal's format version.
  public var format: Int
  /// The configuration file the session runs on, as given when the journal was made.
  public var configurationPath: String
  /// The configuration's bytes when the journal was made.
  public var configuration: [UInt8]
  /// The session's start.
  public var start: Instant
  /// Where the session's transaction ids begin (replays make the same ids).
  public var firstTransactionID: UInt64
  /// The session's own id (a random UUID made with the journal), which keeps its server
  /// notifications' UUIDs apart from any other session's; absent in older journals.
  public var session: String?

  /// Creates a header in the current format.
  public init(
    configurationPath: String, configuration: [UInt8], start: Instant,
    firstTransactionID: UInt64 = 0, session: String? = nil
  ) {
    self.format = Self.currentFormat
    self.configurationPath = configurationPath
    self.configuration = configuration
    self.start = start
    self.firstTransactionID = firstTransactionID
    self.session = session
  }

  /// What tells this session from others: its id, or (without one) its start, first id and
  /// configuration.
  public var identity: String {
    session
      ?? "\(start.milliseconds)-\(firstTransactionID)-"
      + String(CRC32.checksum(configuration[...]), radix: 16)
  }
}

/// One line after the header: something that changed the session, in order.
public enum JournalRecord: Equatable, Sendable {
  /// A command accepted at a virtual time; `customer` names whom it acts for when that is not
  /// the customer the session acts as (an App Store Server API call about their transaction):
  /// the customer's name, `""` for the session's own; `nil` for the current one, as every line
  /// written before this field. The session's current customer stays as it was.
  case command(at: Instant, text: String, customer: String? = nil)
  /// Time that passed on a live clock, up to an instant.
  case advance(to: Instant)
  /// The configuration changed (reloaded or written back) at a virtual time.
  case configuration(at: Instant, bytes: [UInt8])
  /// A step back (`back`, `undo`, the inspector's `N`): from here on the session is the one made
  /// by the first `entries` entries of the timeline before it, its clock moved on to `to`.
  /// Nothing before it is deleted (``JournaledSession/timeline(of:)``).
  case rewind(at: Instant, entries: Int, to: Instant)
}

extension JournalHeader {
  /// The header as the journal's first line, sealed, with its newline.
  public var line: [UInt8] {
    var object = ObjectBuilder()
    object.field("storekeeperJournal", Int64(format))
    object.field("start", start)
    object.field("firstTransactionID", firstTransactionID)
    if let session { object.field("session", session) }
    object.field("configurationPath", configurationPath)
    object.field("configuration", String(decoding: configuration, as: UTF8.self))
    return JournalLine.sealed(object.finish())
  }

  /// Reads a header from its members (the object without its closing brace).
  init(parsing members: ArraySlice<UInt8>) throws(CommandError) {
    guard let document = try? JSONParser.parse(Array(members) + [UInt8(ascii: "}")]),
      case .object(let object) = document.root,
      case .number(let format)? = object["storekeeperJournal"], let version = format.intValue,
      version >= 1
    else {
      throw CommandError("not a Storekeeper journal: the first line is not a journal header")
    }
    guard version <= Self.currentFormat else {
      throw CommandError(
        "the journal is in format \(version), newer than this storekeeper understands "
          + "(\(Self.currentFormat)); use a newer storekeeper")
    }
    guard case .string(let startText)? = object["start"], let start = Instant(iso8601: startText),
      case .string(let path)? = object["configurationPath"],
      case .string(let configuration)? = object["configuration"],
      case .number(let first)? = object["firstTransactionID"], let firstID = UInt64(first.text)
    else { throw CommandError("the journal header is missing start, configuration or ids") }
    self.format = version
    self.configurationPath = path
    self.configuration = Array(configuration.utf8)
    self.start = start
    self.firstTransactionID = firstID
    if case .string(let session)? = object["session"] { self.session = session }
  }
}

extension JournalRecord {
  /// The record as one journal line, sealed, with its newline.
  public var line: [UInt8] {
    var object = ObjectBuilder()
    switch self {
    case .command(let at, let text, let customer):
      object.field("at", at)
      // Before the command, so that the fast reader leaves the line to the full one.
      if let customer { object.field("customer", customer) }
      object.field("command", text)
    case .advance(let to):
      object.field("advance", to)
    case .configuration(let at, let bytes):
      object.field("at", at)
      object.field("configuration", String(decoding: bytes, as: UTF8.self))
    case .rewind(let at, let entries, let to):
      object.field("at", at)
      object.field("rewind", Int64(entries))
      object.field("to", to)
    }
    return JournalLine.sealed(object.finish())
  }

  /// Reads a record from its members (the object without its closing brace); `nil` when it is
  /// not one. `dates` remembers the last date read, since consecutive records often share one.
  init?(parsing members: ArraySlice<UInt8>, dates: inout DateCache) {
    if let fast = Self.fastCommand(members, dates: &dates) {
      self = fast
      return
    }
    guard let document = try? JSONParser.parse(Array(members) + [UInt8(ascii: "}")]),
      case .object(let object) = document.root
    else { return nil }
    func instant(_ key: String) -> Instant? {
      if case .string(let text)? = object[key] { Instant(iso8601: text) } else { nil }
    }
    if case .string(let text)? = object["command"], let at = instant("at") {
      var customer: String?
      if case .string(let name)? = object["customer"] { customer = name }
      self = .command(at: at, text: text, customer: customer)
    } else if let to = instant("advance") {
      self = .advance(to: to)
    } else if case .string(let text)? = object["configuration"], let at = instant("at") {
      self = .configuration(at: at, bytes: Array(text.utf8))
    } else if case .number(let entries)? = object["rewind"], let count = entries.intValue,
      count >= 0, let at = instant("at"), let to = instant("to")
    {
      self = .rewind(at: at, entries: count, to: to)
    } else {
      return nil
    }
  }

  /// The common shape, `{"at":"<24 characters>","command":"<text without escapes>"`, read
  /// without building a JSON tree: replay reads millions of these.
  private static func fastCommand(
    _ bytes: ArraySlice<UInt8>, dates: inout DateCache
  ) -> JournalRecord? {
    let prefix = Array(#"{"at":""#.utf8)
    let middle = Array(#"","command":""#.utf8)
    let dateLength = 24
    let start = bytes.startIndex
    guard bytes.count > prefix.count + dateLength + middle.count,
      bytes[start..<start + prefix.count].elementsEqual(prefix)
    else { return nil }
    let dateStart = start + prefix.count
    let middleStart = dateStart + dateLength
    guard bytes[middleStart..<middleStart + middle.count].elementsEqual(middle),
      bytes[bytes.endIndex - 1] == UInt8(ascii: "\"")
    else { return nil }
    let textRange = (middleStart + middle.count)..<(bytes.endIndex - 1)
    guard
      !bytes[textRange].contains(where: { $0 == UInt8(ascii: "\\") || $0 == UInt8(ascii: "\"") }),
      let at = dates.instant(bytes[dateStart..<middleStart])
    else { return nil }
    return .command(at: at, text: String(decoding: bytes[textRange], as: UTF8.self))
  }
}

/// The last date text read and its instant.
struct DateCache {
  private var text: [UInt8] = []
  private var value: Instant?

  mutating func instant(_ bytes: ArraySlice<UInt8>) -> Instant? {
    if let value, bytes.elementsEqual(text) { return value }
    text = Array(bytes)
    value = Instant(iso8601: String(decoding: bytes, as: UTF8.self))
    return value
  }
}
