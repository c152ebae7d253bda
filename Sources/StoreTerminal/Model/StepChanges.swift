import StoreSimulation

/// The selected transaction's inspector lines before a step, by label.
package struct StepBaseline: Equatable, Sendable {
  /// The transaction the lines are of.
  package var transactionID: UInt64?
  /// Each line's text, countdowns left out (they move with time, not with the step).
  package var lines: [String: String]

  /// A baseline of lines.
  package init(transactionID: UInt64?, lines: [String: String]) {
    self.transactionID = transactionID
    self.lines = lines
  }

  /// A line's text without its countdowns (`(in 30 s)`, `(5 s ago)`).
  static func comparable(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") {
      let inside = rest[rest.index(after: open)..<close]
      result += rest[..<open]
      if !(inside.hasPrefix("in ") || inside.hasSuffix(" ago")) { result += rest[open...close] }
      rest = rest[rest.index(after: close)...]
    }
    return result + rest
  }
}

/// What a person's last step changed: the transactions its events name (highlighted in the
/// table) and, for the transaction selected then, its inspector lines before (the inspector
/// marks the lines that differ).
package struct StepChanges: Equatable, Sendable {
  /// The transactions the step's events name.
  package var ids: Set<UInt64>
  /// The selected transaction's lines before the step.
  package var before: StepBaseline?

  /// Whether an inspector line of transaction `id` changed in the step.
  func changed(label: String, text: String, of id: UInt64) -> Bool {
    guard let before, before.transactionID == id, !label.isEmpty else { return false }
    guard let old = before.lines[label] else { return true }
    return StepBaseline.comparable(old) != StepBaseline.comparable(text)
  }

  /// The transactions a batch of events names.
  static func ids(in events: [StoreEvent]) -> Set<UInt64> {
    var ids = Set<UInt64>()
    for event in events {
      switch event.kind {
      case .transaction(let transaction, _): ids.insert(transaction.id)
      case .status(let status): ids.insert(status.transactionID)
      case .purchaseResult(let result): if let id = result.transactionID { ids.insert(id) }
      default: break
      }
    }
    return ids
  }
}
