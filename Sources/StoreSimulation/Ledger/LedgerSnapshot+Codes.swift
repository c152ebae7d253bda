import StoreConfiguration

/// The codes a snapshot writes the engine's enumerations with, written down once here: a case
/// reordered or added never changes what an existing snapshot means, and a new case is a
/// compile error here until it has its code. Failures are written by name (`purchase.…`).
enum SnapshotCode {
  static func code(_ state: TransactionRecord.State) -> UInt8 {
    switch state {
    case .purchased: 0
    case .failed: 1
    case .deferred: 2
    }
  }

  static func state(_ code: UInt8) -> TransactionRecord.State? {
    switch code {
    case 0: .purchased
    case 1: .failed
    case 2: .deferred
    default: nil
    }
  }

  /// A label's code: its ordinal, which is never renumbered.
  static func code(_ label: LedgerState) -> UInt8 { UInt8(label.ordinal) }

  static func label(_ code: UInt8) -> LedgerState? {
    LedgerState.allCases.first { Self.code($0) == code }
  }

  static func code(_ kind: OfferKind) -> UInt8 {
    switch kind {
    case .introductory: 0
    case .promotional: 1
    case .code: 2
    case .winBack: 3
    }
  }

  /// A record's offer kind (its index in `OfferKind.allCases`, the engine's form) as its code.
  static func code(offerKind index: UInt8) -> UInt8 {
    OfferKind.allCases.indices.contains(Int(index)) ? code(OfferKind.allCases[Int(index)]) : 0
  }

  /// An offer kind's code back to the engine's index, when it is one.
  static func offerKind(_ code: UInt8) -> UInt8? {
    OfferKind.allCases.firstIndex { Self.code($0) == code }.map(UInt8.init)
  }
}
