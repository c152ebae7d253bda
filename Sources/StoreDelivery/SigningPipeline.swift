import Dispatch
import Foundation
import StoreSigning
import StoreSimulation
import StoreUtilities

/// Signs notifications and hands them to the outbox off the caller's thread, a chunk at a
/// time, so that a population goes on making the next chunk while this one is signed. A
/// chunk's notifications are signed on every core at once; chunks reach the outbox one after
/// another, in the order they were submitted. What reached it waits for the caller to take
/// (``takeSent()``), so that listeners are told on the caller's thread, in order.
final class SigningPipeline: Sendable {
  private let signing: NotificationSigning
  private let outbox: NotificationOutbox
  /// Hands signed chunks to the outbox one after another.
  private let writer = DispatchQueue(label: "storekeeper.notifications.writer")
  /// The hand-overs of the chunks submitted, oldest first: a submit waits for the oldest while
  /// as many as there is room for are under way, so a fast caller never holds more than a few
  /// chunks' payloads in memory. Only the caller's thread touches it.
  private let handOvers = Locked<[DispatchGroup]>([])
  private let chunksInFlight: Int
  private let sent = Locked<[NotificationSender.Sent]>([])
  /// How many notifications a chunk holds: small enough that signing starts soon after the
  /// first are made, big enough that handing one over costs nothing beside signing it.
  static let chunk = 256

  /// A pipeline into `outbox`, with at most `chunksInFlight` chunks under way.
  init(signing: @escaping NotificationSigning, outbox: NotificationOutbox, chunksInFlight: Int = 8)
  {
    self.signing = signing
    self.outbox = outbox
    self.chunksInFlight = max(1, chunksInFlight)
  }

  /// Starts signing `chunk`, made at the session's time `now` (first waiting, while as many
  /// chunks as there is room for are under way). One that cannot be signed is told with why.
  func submit(_ chunk: [ServerNotification], now: Instant) {
    waitForRoom()
    let signed = DispatchGroup()
    let signing = signing
    // One piece a core: more signing threads than cores only take turns.
    let piece = max(1, (chunk.count + activeCores - 1) / activeCores)
    let pieces = Locked(
      [[Result<String, any Error>]?](
        repeating: nil, count: (chunk.count + piece - 1) / piece))
    for start in stride(from: 0, to: chunk.count, by: piece) {
      DispatchQueue.global().async(group: signed) {
        let payloads = chunk[start..<min(chunk.count, start + piece)].map { notification in
          Result { try signing(notification) }
        }
        pieces.withLock { $0[start / piece] = payloads }
      }
    }
    let handOver = DispatchGroup()
    handOvers.withLock { $0.append(handOver) }
    writer.async(group: handOver) { [self] in
      // Waiting here, not in a notify block, keeps the chunks in the order submitted.
      signed.wait()
      let payloads = pieces.withLock { $0 }.lazy.compactMap { $0 }.joined()
      var added: [NotificationSender.Sent] = []
      added.reserveCapacity(chunk.count)
      for (notification, signed) in zip(chunk, payloads) {
        added.append(.handOver(notification, signed, to: outbox, now: now))
      }
      sent.withLock { $0 += added }
    }
  }

  /// Waits for the oldest chunks' hand-overs while as many as there is room for are under way.
  private func waitForRoom() {
    while let oldest = handOvers.withLock({ $0.count >= chunksInFlight ? $0.removeFirst() : nil }) {
      oldest.wait()
    }
  }

  /// What reached the outbox since the last call, in order.
  func takeSent() -> [NotificationSender.Sent] {
    sent.withLock { sent in
      defer { sent = [] }
      return sent
    }
  }

  /// Waits until every chunk submitted is in the outbox.
  func finish() { writer.sync {} }
}
