import StoreSigning
import StoreSimulation
import StoreTerminal

extension PreparedSigning {
  /// The inspector's hooks: cached `jwsRepresentation`s with --sign or --chain; notifications
  /// mapped, signed and delivered as events arrive, each delivery in the event log.
  func inspectorHooks(session: Session) -> InspectorHooks {
    var hooks = InspectorHooks()
    if let eventSigner {
      let cache = SignatureCache(signer: eventSigner)
      hooks.jwsRepresentation = { cache.jws($0, at: $1.now) }
    }
    if let pipeline = pipeline(session: session) {
      hooks.eventsApplied = { events, session in
        pipeline.process(events, session: session).map { notification, file in
          (notification.time, "notification \(notification.name)" + (file.map { " → \($0)" } ?? ""))
        }
      }
      hooks.backgroundLines = {
        pipeline.delivery.takeResults().map { (text: $0.description, isFailure: !$0.delivered) }
      }
    }
    return hooks
  }
}

/// Signatures of what the inspector shows, made once per version of a transaction or renewal
/// info: ECDSA signatures differ each time, and the raw form must not change under the reader.
final class SignatureCache {
  private let signer: Signer
  private var transactions: [UInt64: (Transaction, String)] = [:]
  private var renewals: [String: (SubscriptionStatus, String)] = [:]

  init(signer: Signer) { self.signer = signer }

  func jws(_ subject: InspectorHooks.Signed, at time: Instant) -> String? {
    switch subject {
    case .transaction(let t):
      if let cached = transactions[t.id], cached.0 == t { return cached.1 }
      guard let jws = try? signer.sign(t, signedDate: time) else { return nil }
      if transactions.count > 1000 { transactions = [:] }
      transactions[t.id] = (t, jws)
      return jws
    case .renewalInfo(let status):
      if let cached = renewals[status.groupID], cached.0 == status { return cached.1 }
      guard let jws = try? signer.sign(status, signedDate: time) else { return nil }
      renewals[status.groupID] = (status, jws)
      return jws
    }
  }
}
