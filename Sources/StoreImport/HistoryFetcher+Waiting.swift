import Foundation

extension HistoryFetcher {
  /// ``fetch(transactionID:)`` for a caller that is not async (a command line's `run`): waits
  /// on this thread for the whole history.
  public func fetchWaiting(transactionID: String) throws(ImportError) -> FetchedHistory {
    let done = DispatchSemaphore(value: 0)
    let outcome = Outcome()
    Task {
      do throws(ImportError) {
        outcome.set(.success(try await fetch(transactionID: transactionID)))
      } catch {
        outcome.set(.failure(error))
      }
      done.signal()
    }
    done.wait()
    return try outcome.take().get()
  }
}

/// The fetch's result, handed from its task to the waiting thread.
/// `@unchecked Sendable`: the one value is written before the semaphore is signalled and read
/// after it is waited for, under a lock besides.
private final class Outcome: @unchecked Sendable {
  private let lock = NSLock()
  private var result: Result<FetchedHistory, ImportError>?

  func set(_ value: Result<FetchedHistory, ImportError>) { lock.withLock { result = value } }

  func take() -> Result<FetchedHistory, ImportError> {
    lock.withLock { result ?? .failure(ImportError("the fetch ended without an answer")) }
  }
}
