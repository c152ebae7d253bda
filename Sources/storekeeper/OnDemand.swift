import Foundation

/// A value made the first time it is asked for (keys are not created for a run that signs
/// nothing); its failure is kept and thrown again.
final class OnDemand<Value: Sendable>: @unchecked Sendable {
  private let lock = NSLock()
  private var made: Result<Value, any Error>?
  private let make: () throws -> Value

  init(_ make: @escaping () throws -> Value) { self.make = make }

  var value: Value {
    get throws {
      lock.lock()
      defer { lock.unlock() }
      if made == nil { made = Result { try make() } }
      return try made!.get()
    }
  }
}
