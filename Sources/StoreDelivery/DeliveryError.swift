/// Why notifications cannot be delivered as asked: a URL that is not complete, a CA file without
/// certificates, a folder or a file that cannot be written.
public struct DeliveryError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, for a person.
  public var description: String

  /// An error.
  public init(_ description: String) { self.description = description }
}
