import Foundation

/// A value made the first time it is asked for (a signer: keys are not created for a run that
/// signs nothing); its failure is kept and thrown again. Safe from any thread:
/// `@unchecked Sendable` because `made` is read and written only under `lock`.
public final class OnDemand<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var made: Result<Value, any Error>?
  private let make: () throws -> Value

  /// A value `make` makes when it is first asked for.
  public init(_ make: @escaping () throws -> Value) { self.make = make }

  /// The value, made now if it was not yet; what `make` threw, again.
  public var value: Value {
    get throws {
      lock.lock()
      defer { lock.unlock() }
      if made == nil { made = Result { try make() } }
      return try made!.get()
    }
  }
}
