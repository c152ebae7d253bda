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
  /// Room for chunks submitted and not yet in the outbox: a submit waits for it, so a fast
  /// caller never holds more than a few chunks' payloads in memory.
  private let room: DispatchSemaphore
  private let sent = Locked<[NotificationSender.Sent]>([])
  /// How many notifications a chunk holds: small enough that signing starts soon after the
  /// first are made, big enough that handing one over costs nothing beside signing it.
  static let chunk = 256

  /// A pipeline into `outbox`, with at most `chunksInFlight` chunks under way.
  init(signing: @escaping NotificationSigning, outbox: NotificationOutbox, chunksInFlight: Int = 8)
  {
    self.signing = signing
    self.outbox = outbox
    room = DispatchSemaphore(value: chunksInFlight)
  }

  /// Starts signing `chunk`, made at the session's time `now` (first waiting, while as many
  /// chunks as there is room for are under way). One that cannot be signed is told with why.
  func submit(_ chunk: [ServerNotification], now: Instant) {
    room.wait()
    let payloads = PayloadSlots(count: chunk.count)
    let signed = DispatchGroup()
    let signing = signing
    // One piece a core: more signing threads than cores only take turns.
    let piece = max(1, (chunk.count + activeCores - 1) / activeCores)
    for start in stride(from: 0, to: chunk.count, by: piece) {
      DispatchQueue.global().async(group: signed) {
        for position in start..<min(chunk.count, start + piece) {
          payloads[position] = Result { try signing(chunk[position]) }
        }
      }
    }
    writer.async { [self] in
      // Waiting here, not in a notify block, keeps the chunks in the order submitted.
      signed.wait()
      var added: [NotificationSender.Sent] = []
      added.reserveCapacity(chunk.count)
      for (position, notification) in chunk.enumerated() {
        guard let signed = payloads[position] else { continue }
        added.append(.handOver(notification, signed, to: outbox, now: now))
      }
      sent.withLock { $0 += added }
      room.signal()
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

/// One chunk's signed payloads, each slot written by one signing task and read by the writer
/// once the group of them finished (`@unchecked Sendable`: the group orders the two).
private final class PayloadSlots: @unchecked Sendable {
  private let slots: UnsafeMutableBufferPointer<Result<String, any Error>?>

  init(count: Int) {
    slots = .allocate(capacity: count)
    slots.initialize(repeating: nil)
  }

  deinit {
    slots.deinitialize()
    slots.deallocate()
  }

  subscript(position: Int) -> Result<String, any Error>? {
    get { slots[position] }
    set { slots[position] = newValue }
  }
}
