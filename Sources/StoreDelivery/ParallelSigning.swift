import StoreSigning
import StoreSimulation
import StoreUtilities

extension Signer {
  /// Signs notifications on every core, each result in its notification's place (the order of
  /// delivery is the order given); `nil` where one could not be signed. A few are signed on the
  /// caller's thread: a command's one or two notifications are not worth a hand-off.
  func signedPayloads(_ notifications: [ServerNotification]) -> [String?] {
    let count = notifications.count
    guard count >= Self.parallelThreshold else {
      return notifications.map { try? signedPayload($0) }
    }
    let chunk = Self.parallelThreshold
    let pieces = [[String?]](concurrentlyMaking: (count + chunk - 1) / chunk) { index in
      (index * chunk..<Swift.min(count, (index + 1) * chunk)).map {
        try? signedPayload(notifications[$0])
      }
    }
    return pieces.flatMap { $0 }
  }

  /// Below this many notifications, signing stays on the caller's thread.
  static let parallelThreshold = 64
}
