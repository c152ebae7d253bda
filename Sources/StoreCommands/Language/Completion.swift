import StoreConfiguration
import StoreSimulation

/// What may stand where the cursor is in a partly typed line, from the verb table: a front end
/// turns each into candidates (a session's transactions, products, offers).
public enum CompletionSource: Equatable, Sendable {
  /// A word of this kind (the words typed before it, for kinds that depend on them: a buy's
  /// offers are its product's).
  case kind(WordKind, before: [String])
  /// These words, as they are (`reason=`, `days=`).
  case words([String])
}

extension Command {
  /// What may complete the last of `words` (the line up to the cursor, split at spaces; the
  /// last may be empty): verbs first, then the verb's arguments in order, its options' names
  /// and, after `name=`, the option's values.
  public static func completions(for words: [String]) -> [CompletionSource] {
    guard words.count > 1, let verb = Verb.named(words[0]) else { return [.words(Verb.names)] }
    let typed = Array(words.dropFirst().dropLast())
    let word = words.last ?? ""
    if let equals = word.firstIndex(of: "=") {
      let name = String(word[..<equals])
      guard let option = verb.options.first(where: { $0.name == name }) else { return [] }
      return [.kind(option.value, before: typed)]
    }
    let positional = typed.filter { !$0.contains("=") }
    var sources: [CompletionSource] = []
    var complete = true
    if let grammar = verb.arguments.first?.kind, let next = grammar.words(after: positional) {
      sources = next.map { .kind($0, before: typed) }
      complete = next.isEmpty
    } else {
      var index = positional.count
      while index < verb.arguments.count {
        sources.append(.kind(verb.arguments[index].kind, before: typed))
        guard verb.arguments[index].isOptional else { break }
        index += 1
      }
      complete = index >= verb.arguments.count || verb.arguments[index].isOptional
    }
    if complete {
      // The options not given yet whose needs are met (`key=` once `offer=` is there).
      let given = Set(typed.compactMap { $0.split(separator: "=").first.map(String.init) })
      let names = verb.options.filter { option in
        !given.contains(option.name)
          && option.requires.allSatisfy { given.contains($0) || positional.contains($0) }
      }.map { "\($0.name)=" }
      if !names.isEmpty { sources.append(.words(names)) }
    }
    return sources
  }
}

extension WordKind {
  /// For a kind that is a grammar of its own (`set`'s settings, `notify`'s actions), the kinds
  /// of the word after `typed` (none when the words are complete); `nil` for a kind of one word.
  func words(after typed: [String]) -> [WordKind]? {
    switch self {
    case .setting: SettingChange.completions(after: typed)
    case .delivery:
      switch typed.first {
      case nil: [.choice(["retry", "fault", "rescind-consent", "external-purchase-token"])]
      case "fault": NotificationFault.completions(after: Array(typed.dropFirst()))
      case "external-purchase-token" where typed.count == 1:
        [.choice(ExternalPurchaseToken.Reason.allCases.map(\.word))]
      default: []
      }
    case .family:
      switch typed.first {
      case nil: [.choice(["join", "leave", "sharing"])]
      case "join" where typed.count == 1: [.text("a new member's name")]
      case "leave" where typed.count == 1: [.member]
      case "sharing" where typed.count == 1: [.product(subscriptions: false)]
      case "sharing" where typed.count == 2: [.choice(["on", "off"])]
      default: []
      }
    case .retention: Verb.retentionCompletions(after: typed)
    case .commerceBody: typed.isEmpty ? [.text("JSON")] : []
    case .imported:
      typed.isEmpty
        ? [.choice(["transaction", "renewal"])] : typed.count == 1 ? [.text("JSON")] : []
    case .api:
      typed.isEmpty
        ? [.choice(Command.callNames.map(\.0) + ["receipt"])]
        : typed == ["refund-request"] ? [.transaction(or: [])] : []
    default: nil
    }
  }
}

extension NotificationFault {
  /// The kinds of the word after `typed`: a fault's name, then a delay's duration.
  static func completions(after typed: [String]) -> [WordKind] {
    switch typed.count {
    case 0: [.choice(names)]
    case 1 where typed[0] == "delay": [.duration]
    default: []
    }
  }
}

extension SettingChange {
  /// The kinds of the word after `set` and `typed`: a setting's name, then its values.
  static func completions(after typed: [String]) -> [WordKind] {
    guard let name = typed.first else { return [.choice(names + ["notify-fault"])] }
    let onOff = WordKind.choice(["on", "off"])
    if name == "notify-fault" {
      return NotificationFault.completions(after: Array(typed.dropFirst()))
    }
    if name == "winback-eligible" {
      return typed.count == 1 ? [.winBackOffer] : typed.count == 2 ? [onOff] : []
    }
    if name == "seat-pricing" {
      return typed.count == 1
        ? [.product(subscriptions: true)] : typed.count == 2 ? [.choice(["on", "off"])] : []
    }
    if name == "invitations" {
      return typed.count == 1 ? [.choice(InvitationManagement.allCases.map(\.word))] : []
    }
    guard let descriptor = SettingDescriptor.named(name) else { return [] }
    let first = typed.count == 1
    switch descriptor.kind {
    case .flag: return first ? [onOff] : []
    case .failure: return first ? [.choice(["off"] + SKErrorCode.failureErrors.map(\.name))] : []
    case .errors:
      if first { return [.choice(Command.errorAPINames.map(\.0))] }
      guard typed.count == 2, let api = Command.errorAPINames.first(where: { $0.0 == typed[1] })
      else { return [] }
      return [.choice(["off"] + SimulatedError.all.filter(api.1.accepts).map(\.name))]
    case .storefront: return first ? [.choice(Storefront.all.map(\.countryCode))] : []
    case .locale: return first ? [.choice(Storefront.all.map(\.defaultLocale))] : []
    case .timeRate: return first ? [.choice(TimeRate.allCases.map(\.name))] : []
    }
  }
}
