import Dispatch
import StoreSigning
import StoreSimulation

extension Signer {
  /// Signs notifications on every core, each result in its notification's place (the order of
  /// delivery is the order given); `nil` where one could not be signed. A few are signed on the
  /// caller's thread: a command's one or two notifications are not worth a hand-off.
  func signedPayloads(_ notifications: [ServerNotification]) -> [String?] {
    let count = notifications.count
    guard count >= Self.parallelThreshold else {
      return notifications.map { try? signedPayload($0) }
    }
    var payloads = [String?](repeating: nil, count: count)
    let chunk = Self.parallelThreshold
    let chunks = (count + chunk - 1) / chunk
    payloads.withUnsafeMutableBufferPointer { buffer in
      // Each chunk writes only its own slots, so the writes never overlap.
      nonisolated(unsafe) let slots = buffer
      DispatchQueue.concurrentPerform(iterations: chunks) { index in
        let range = index * chunk..<min(count, (index + 1) * chunk)
        for position in range {
          slots[position] = try? signedPayload(notifications[position])
        }
      }
    }
    return payloads
  }

  /// Below this many notifications, signing stays on the caller's thread.
  static let parallelThreshold = 64
}
