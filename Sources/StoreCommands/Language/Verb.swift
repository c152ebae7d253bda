import StoreSimulation

/// What a word of a command stands for: how it is read, completed and shown in help.
public enum WordKind: Sendable, Equatable {
  /// A transaction: an id, `last` or `last:<productID>`, or one of these words.
  case transaction(or: [String])
  /// A product ID (only auto-renewable subscriptions' when `subscriptions`).
  case product(subscriptions: Bool)
  /// One of these words.
  case choice([String])
  /// A duration (`30s 5m 2h 3d 1w 1mo 1y`, ISO-8601), `next` or an ISO-8601 instant.
  case advance
  /// A duration such as `30s`, `1mo` or `P1M`.
  case duration
  /// A whole number in a range.
  case number(ClosedRange<Int>)
  /// A decimal number (a price, a percentage).
  case decimal
  /// An ISO-8601 instant.
  case instant
  /// A UUID in its 8-4-4-4-12 form.
  case uuid
  /// An offer of the product given before: `intro`, `promo:<id>`, `code:<name>`,
  /// `winback:<id>`.
  case offer
  /// A win-back offer's id.
  case winBackOffer
  /// A setting's name and its values (the settings' own table, ``SettingDescriptor``).
  case setting
  /// What `notify` asks of the deliveries: `retry`, or `fault` and a fault.
  case delivery
  /// The StoreKit API `call` calls, and for the refund sheet its transaction.
  case api
  /// What `family` changes: `join <name>`, `leave <member>`, `sharing <productID> on|off`.
  case family
  /// A member of the purchaser's family, by name.
  case member
  /// What `retention` does: `show`, `accept`, `review …`, `url …`, `default …`, `upload-…`,
  /// `delete-…`.
  case retention
  /// What `import` places: `transaction <JSON>` or `renewal <JSON>` (Apple's decoded payloads).
  case imported
  /// An Advanced Commerce API request's body: Apple's JSON, one word.
  case commerceBody
  /// One of the session's customers, by name.
  case customer
  /// Any word; the text names what it is (`a request id`).
  case text(String)

  /// How help writes it: `<txn>`, `on|off`, `N`.
  public var placeholder: String {
    switch self {
    case .transaction(let words): (["<txn>"] + words).joined(separator: "|")
    case .product(let subscriptions): subscriptions ? "<subscriptionID>" : "<productID>"
    case .choice(let words): words.joined(separator: "|")
    case .advance: "<duration>|next|<ISO-8601>"
    case .duration: "<duration>"
    case .number: "N"
    case .decimal: "P"
    case .instant: "<ISO-8601>"
    case .uuid: "<uuid>"
    case .offer: "intro|promo:<offerID>|code:<referenceName>|winback:<offerID>"
    case .winBackOffer: "<offerID>"
    case .setting: "<setting> <value>"
    case .delivery:
      "retry|fault off|drop|duplicate|delay <duration>|rescind-consent"
        + "|external-purchase-token unreported|created|active-token-reminder"
    case .api: (Command.callNames.map(\.0) + ["receipt"]).joined(separator: "|") + " [<txn>]"
    case .text(let name): "<\(name)>"
    case .family: "join <name>|leave <member>|sharing <productID> on|off"
    case .member: "<member>"
    case .customer: "<customer>"
    case .imported: "transaction|renewal <JSON>"
    case .commerceBody: "<JSON>"
    case .retention:
      "show|accept|review message|image <uuid> approved|rejected|pending|url <URL>|none"
        + "|default <subscriptionID> <locale> <uuid>|none|upload-image <uuid> FULL_SIZE|BULLET_POINT"
        + " <W>x<H> [transparent]|upload-message <uuid> <JSON>|delete-image|delete-message <uuid>"
    }
  }
}

/// A word a verb takes in its place.
public struct VerbArgument: Sendable, Equatable {
  /// What it is.
  public let kind: WordKind
  /// Whether it may be left out.
  public let isOptional: Bool

  init(_ kind: WordKind, optional: Bool = false) {
    self.kind = kind
    self.isOptional = optional
  }
}

/// A `name=value` option of a verb.
public struct VerbOption: Sendable, Equatable {
  /// The name before `=`.
  public let name: String
  /// What its value is.
  public let value: WordKind
  /// Options it needs beside it (`key=` needs `offer=promo:…`), by name.
  public let requires: [String]
  /// Options it cannot go with, by name.
  public let excludes: [String]
  /// Whether the verb needs it (`days=` of `extend`).
  public let isRequired: Bool

  init(
    _ name: String, _ value: WordKind, requires: [String] = [], excludes: [String] = [],
    required: Bool = false
  ) {
    (self.name, self.value, self.isRequired) = (name, value, required)
    (self.requires, self.excludes) = (requires, excludes)
  }
}

/// One verb of the command language, described once: its words and options, what it does, how
/// a line of it becomes a ``Command`` and how the command is written back. Parsing, printing,
/// the inspector's completion and help all come from ``all``.
public struct Verb: Sendable {
  /// The first word: `buy`, `refund-request`.
  public let name: String
  /// The words after it, in order.
  public let arguments: [VerbArgument]
  /// Its `name=value` options.
  public let options: [VerbOption]
  /// Whether at least one option must be given (`consumption`).
  public let needsAnOption: Bool
  /// What it does, in a line.
  public let summary: String
  /// Reads the words after the verb (the options' names are checked against ``options``).
  let parse: @Sendable (inout CommandWords) throws(CommandError) -> Command
  /// The command's words when it is this verb's, else `nil`.
  let words: @Sendable (Command) -> [String]?

  init(
    _ name: String, _ arguments: [VerbArgument] = [], options: [VerbOption] = [],
    needsAnOption: Bool = false, _ summary: String,
    parse: @escaping @Sendable (inout CommandWords) throws(CommandError) -> Command,
    words: @escaping @Sendable (Command) -> [String]?
  ) {
    self.name = name
    self.arguments = arguments
    self.options = options
    self.needsAnOption = needsAnOption
    self.summary = summary
    self.parse = parse
    self.words = words
  }

  /// A verb of one word.
  init(
    _ name: String, _ summary: String,
    parse: @escaping @Sendable (inout CommandWords) throws(CommandError) -> Command,
    words: @escaping @Sendable (Command) -> [String]?
  ) {
    self.init(name, [], summary, parse: parse, words: words)
  }

  /// How help writes it: `refund <txn> [reason=developerIssue|other] [percentage=P]`.
  public var synopsis: String {
    var parts = [name]
    for argument in arguments {
      parts.append(
        argument.isOptional ? "[\(argument.kind.placeholder)]" : argument.kind.placeholder)
    }
    for option in options {
      let word = "\(option.name)=\(option.value.placeholder)"
      parts.append(option.isRequired ? word : "[\(word)]")
    }
    return parts.joined(separator: " ") + (needsAnOption ? " (at least one option)" : "")
  }

  /// The verb a line starts with.
  public static func named(_ name: String) -> Verb? { byName[name] }

  /// The verbs' names, for help and suggestions.
  public static var names: [String] { all.map(\.name).sorted() }

  private static let byName: [String: Verb] = Dictionary(
    uniqueKeysWithValues: all.map { ($0.name, $0) })
}
