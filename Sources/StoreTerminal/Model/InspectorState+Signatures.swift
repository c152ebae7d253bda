import StoreSimulation

/// The signed forms the inspector shows: made by an effect (``InspectorEffect/sign(_:)``) once
/// for each version of a transaction or renewal info, and kept here, so that drawing never
/// signs and the raw form does not change under the reader.
extension InspectorState {
  /// The most signed forms kept.
  static let signaturesKept = 64

  /// The signed form made of `subject`, if any.
  func signature(of subject: InspectorHooks.Signed) -> InspectorHooks.SignedForm? {
    signatures.last { $0.subject == subject }?.form
  }

  /// What the inspector shows that has no signed form yet: the selected transaction, and its
  /// subscription's renewal info.
  func unsigned(in session: SessionView) -> [InspectorHooks.Signed] {
    guard focus != .products, let row = table.selectedRow,
      let transaction = session.transaction(row.id)
    else { return [] }
    var wanted: [InspectorHooks.Signed] = [.transaction(transaction)]
    if let group = transaction.subscriptionGroupID, let status = session.status(forGroup: group) {
      wanted.append(.renewalInfo(status))
    }
    return wanted.filter { subject in !signatures.contains { $0.subject == subject } }
  }

  /// Keeps signed forms, the newest last; the oldest go past ``signaturesKept``.
  mutating func keep(_ items: [SignedItem]) {
    signatures += items
    if signatures.count > Self.signaturesKept {
      signatures.removeFirst(signatures.count - Self.signaturesKept)
    }
  }
}
