import Foundation
import StoreUtilities

/// A value made the first time it is asked for (a signer: keys are not created for a run that
/// signs nothing); its failure is kept and thrown again. Safe from any thread: made under its
/// lock, once.
public final class OnDemand<Value: Sendable>: Sendable {
  private let made = Locked<Result<Value, any Error>?>(nil)
  private let make: @Sendable () throws -> Value

  /// A value `make` makes when it is first asked for.
  public init(_ make: @escaping @Sendable () throws -> Value) { self.make = make }

  /// The value, made now if it was not yet; what `make` threw, again.
  public var value: Value {
    get throws {
      try made.withLock { made in
        if made == nil { made = Result { try make() } }
        return try made!.get()
      }
    }
  }
}
