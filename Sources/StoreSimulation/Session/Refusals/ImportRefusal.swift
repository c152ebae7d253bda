/// An imported customer's transaction or renewal refused.
///
/// A case and its message are the two edits a new refusal of this family costs: the front
/// ends map the family as a whole unless they name the case.
public enum ImportRefusal: Equatable, Sendable {
  /// `import transaction` of an id a transaction of the session already has.
  case importedIDTaken(UInt64)
  /// `import transaction` of a `webOrderLineItemId` or `appTransactionId` that is not a decimal
  /// number (Apple's ids are).
  case importedIDNotDecimal(field: String, value: String)
  /// `import renewal` of a subscription no imported transaction began.
  case noImportedSubscription(originalID: UInt64)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .importedIDTaken(let id):
      "transaction \(id) is already in the session: an imported transaction keeps Apple's id, "
        + "which no other transaction may have"
    case .importedIDNotDecimal(let field, let value):
      "\(field) must be a decimal number, as Apple's ids are, not \"\(value.prefix(40))\""
    case .noImportedSubscription(let original):
      "no imported subscription has original transaction \(original): import its transactions "
        + "first (import transaction …)"
    }
  }
}
