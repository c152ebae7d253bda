import Foundation

/// A task executor of one thread of its own, for a test that times async work: the test
/// process's shared pool is often busy with synchronous tests (each holds a thread while a
/// process it started runs), and a task resumed there waits its turn, so a clock read after
/// an `await` measures the queue rather than the work. Work run through ``onOwnThread(_:)``
/// resumes here at once.
@available(macOS 15, *)
package final class OwnThreadExecutor: TaskExecutor, @unchecked Sendable {
  // @unchecked: `jobs` is only touched under `condition`.
  private let condition = NSCondition()
  private var jobs: [UnownedJob] = []

  /// The one executor tests share (its thread lives as long as the test process).
  package static let shared = OwnThreadExecutor()

  private init() {
    let thread = Thread { [unowned self] in self.run() }
    thread.name = "OwnThreadExecutor"
    thread.start()
  }

  package func enqueue(_ job: consuming ExecutorJob) {
    let unowned = UnownedJob(job)
    condition.lock()
    jobs.append(unowned)
    condition.signal()
    condition.unlock()
  }

  private func run() {
    while true {
      condition.lock()
      while jobs.isEmpty { condition.wait() }
      let job = jobs.removeFirst()
      condition.unlock()
      job.runSynchronously(on: asUnownedTaskExecutor())
    }
  }
}

/// Runs `body` with its tasks on a thread of their own (``OwnThreadExecutor``): what it
/// measures is the work, not the test process's queue.
package func onOwnThread<T: Sendable>(
  _ body: @Sendable () async throws -> T
) async rethrows -> T {
  if #available(macOS 15, *) {
    return try await withTaskExecutorPreference(OwnThreadExecutor.shared) { try await body() }
  }
  return try await body()
}

/// ``OwnThreadExecutor/shared`` where the platform has task executors: for an in-process server
/// whose tasks should not wait behind the test process's busy pool.
package var ownThreadExecutor: (any TaskExecutor)? {
  if #available(macOS 15, *) { return OwnThreadExecutor.shared }
  return nil
}
