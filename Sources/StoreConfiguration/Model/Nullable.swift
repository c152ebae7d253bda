import StoreJSON

/// A key that Xcode writes as a value, as `null`, or not at all, where the difference must
/// survive a round trip (`introductoryOffer` is all three in real files).
public enum Nullable<Wrapped: Equatable & Sendable>: Equatable, Sendable {
  /// The key is not in the file.
  case absent
  /// The key is in the file with the value `null`.
  case null
  /// The key holds a value.
  case value(Wrapped)

  /// The value, if there is one.
  public var wrapped: Wrapped? {
    if case .value(let wrapped) = self { wrapped } else { nil }
  }

  /// The member's JSON value: `nil` (no member) when absent, `null`, or the encoded value.
  func json(_ encode: (Wrapped) -> JSONValue) -> JSONValue? {
    switch self {
    case .absent: nil
    case .null: .null
    case .value(let wrapped): encode(wrapped)
    }
  }
}
