import StoreCommands
import StoreConfiguration
import StoreSimulation

extension App {
  mutating func handleOverlay(_ key: Key, wall: Instant) {
    guard let current = overlay else { return }
    switch current {
    case .help:
      overlay = nil
    case .filter(var input):
      switch key {
      case .escape:
        overlay = nil
      case .enter:
        overlay = nil
        if filterError == nil && !filter.isEmpty { message = ("filter: \(filter.text)", false) }
      case .tab:
        input = complete(input, words: filterCompletions(for: input))
        overlay = .filter(input)
        applyFilter(input.text)
      default:
        edit(&input, key)
        overlay = .filter(input)
        applyFilter(input.text)
      }
    case .prompt(var input):
      switch key {
      case .escape: overlay = nil
      case .enter:
        overlay = nil
        let line = input.text.trimmingCharacters(in: .whitespaces)
        guard !line.isEmpty else { return }
        if history.last != line { history.append(line) }
        perform(line: line)
      case .up, .down:
        guard !history.isEmpty else { return }
        let last = history.count
        var index = input.historyIndex ?? last
        index = max(0, min(last, index + (key == .up ? -1 : 1)))
        input.set(index == last ? "" : history[index])
        input.historyIndex = index
        overlay = .prompt(input)
      case .tab:
        overlay = .prompt(complete(input, words: promptCompletions(for: input)))
      default:
        edit(&input, key)
        overlay = .prompt(input)
      }
    case .buy(var dialog):
      handleBuy(&dialog, key)
    case .confirm(_, let command):
      switch key {
      case .character("y"), .enter:
        overlay = nil
        if perform(command) { message = ("\(command) done", false) }
      case .character("n"), .escape: overlay = nil
      default: break
      }
    case .refundReason(let id):
      let choices: [Key: Command] = [
        .character("o"): .refund(.id(id), reason: .other),
        .character("d"): .refund(.id(id), reason: .developerIssue),
        .character("h"): .refund(.id(id), reason: nil, share: 50_000),
        .character("a"): .refundRequest(.id(id), reason: nil),
        .character("n"): .refundDecline(.id(id)),
        .character("v"): .refundReverse(.id(id)),
      ]
      if let command = choices[key] {
        overlay = nil
        if perform(command) { message = ("\(command) done", false) }
      } else if key == .escape {
        overlay = nil
      }
    case .extend(let id):
      let choices: [Key: Int] = [
        .character("1"): 1, .character("7"): 7, .character("3"): 30, .character("9"): 90,
      ]
      if let days = choices[key] {
        overlay = nil
        let command = Command.extend(.id(id), days: days, reason: nil)
        if perform(command) { message = ("\(command) done", false) }
      } else if key == .escape {
        overlay = nil
      }
    case .priceIncrease(let id):
      let steps: [Key: PriceIncreaseAction] = [
        .character("r"): .request, .character("c"): .consent, .character("d"): .decline,
      ]
      if let step = steps[key] {
        overlay = nil
        perform(.priceIncrease(step, .id(id)))
      } else if key == .escape {
        overlay = nil
      }
    case .settings(let selected):
      handleSettings(selected, key)
    }
  }

  private func edit(_ input: inout TextInput, _ key: Key) {
    switch key {
    case .character(let character): input.insert(character)
    case .backspace: input.backspace()
    case .left: input.cursor = max(0, input.cursor - 1)
    case .right: input.cursor = min(input.text.count, input.cursor + 1)
    case .home: input.cursor = 0
    case .end: input.cursor = input.text.count
    default: break
    }
  }

  /// Completes the word before the cursor to the longest prefix the candidates share.
  private func complete(_ input: TextInput, words: [String]) -> TextInput {
    let before = String(input.text.prefix(input.cursor))
    let word = String(before.split(separator: " ", omittingEmptySubsequences: false).last ?? "")
    let matches = words.filter { $0.hasPrefix(word) && $0 != word }
    guard var common = matches.first else { return input }
    for candidate in matches.dropFirst() {
      while !candidate.hasPrefix(common) { common.removeLast() }
    }
    guard common.count > word.count else { return input }
    var result = input
    result.set(String(before.dropLast(word.count)) + common + input.text.dropFirst(input.cursor))
    result.cursor = before.count - word.count + common.count
    return result
  }

  /// Candidates for the filter's word under the cursor: fields, then product IDs and states.
  func filterCompletions(for input: TextInput) -> [String] {
    let word = String(
      input.text.prefix(input.cursor).split(separator: " ", omittingEmptySubsequences: false).last
        ?? "")
    let negation = word.hasPrefix("!") ? "!" : ""
    let bare = word.dropFirst(negation.count)
    if let colon = bare.firstIndex(of: ":") {
      let field = bare[..<colon]
      let values: [String] =
        switch field {
        case "product": session.catalog.products.filter(\.isAvailable).map(\.productID)
        case "state": LedgerState.allCases.map(\.rawValue)
        case "type": ProductKind.allCases.map(\.rawValue)
        case "offer": ["introductory", "promotional", "code", "winBack"]
        default: []
        }
      let written = bare[bare.index(after: colon)...]
      let prefix = written.contains(",") ? String(written[...written.lastIndex(of: ",")!]) : ""
      return values.map { "\(negation)\(field):\(prefix)\($0)" }
    }
    return TransactionFilter.fieldNames.map { negation + $0 }
      + session.catalog.products.filter(\.isAvailable).map { negation + $0.productID }
  }

  /// Candidates for the prompt's word under the cursor: verbs, then product IDs.
  func promptCompletions(for input: TextInput) -> [String] {
    let words = input.text.prefix(input.cursor).split(
      separator: " ", omittingEmptySubsequences: false)
    if words.count <= 1 { return Command.verbs }
    return session.catalog.products.filter(\.isAvailable).map(\.productID) + [
      "last", "all", "next", "on", "off",
    ]
  }

  private mutating func handleBuy(_ dialog: inout BuyDialog, _ key: Key) {
    let product = session.catalog.products[dialog.product]
    switch key {
    case .escape:
      overlay = nil
      return
    case .enter, .character("b"):
      overlay = nil
      var options = PurchaseOptions(quantity: dialog.quantity, origin: dialog.origin)
      options.offer = dialog.offers[dialog.offerIndex].selection
      let back = BuyDialog.backDates[dialog.backDate].milliseconds
      if back > 0 {
        options.purchaseDate = session.now.adding(milliseconds: -back)
        options.renewal = dialog.renewal
      }
      if perform(.buy(productID: product.productID, options: options)) {
        message = ("bought \(product.productID)", false)
        select(visibleIndex: 0)
      }
      return
    case .up, .character("k"): dialog.field = max(0, dialog.field - 1)
    case .down, .tab, .character("j"): dialog.field = min(4, dialog.field + 1)
    case .left, .right, .character("h"), .character("l"), .character(" "):
      let step = key == .left || key == .character("h") ? -1 : 1
      switch dialog.field {
      case 0:
        let limit = product.type == .consumable ? 10 : 1
        dialog.quantity = max(1, min(limit, dialog.quantity + step))
      case 1:
        dialog.offerIndex = (dialog.offerIndex + step + dialog.offers.count) % dialog.offers.count
      case 2: dialog.origin = dialog.origin == .app ? .store : .app
      case 3:
        let count = BuyDialog.backDates.count
        dialog.backDate = (dialog.backDate + step + count) % count
      default: dialog.renewal = dialog.renewal == .automatic ? .once : .automatic
      }
    default: break
    }
    overlay = .buy(dialog)
  }
}
