import StoreCommands
import StoreSigning
import StoreSimulation
import StoreTerminal

extension PreparedSigning {
  /// The inspector's hooks: cached `jwsRepresentation`s with --sign or --chain; notifications
  /// mapped, signed and delivered as events arrive, each delivery in the event log.
  func inspectorHooks(_ journaled: JournaledSession) -> InspectorHooks {
    var hooks = InspectorHooks()
    if let eventSigner {
      let cache = SignatureCache(signer: eventSigner)
      hooks.jwsRepresentation = { cache.form($0, at: $1.now) }
    }
    if let pipeline = pipeline(journaled) {
      hooks.eventsApplied = { events, session in
        pipeline.process(events, session: session).map { notification, file in
          switch file {
          case .success(let name):
            let text = "notification \(notification.name)" + (name.map { " → \($0)" } ?? "")
            return NotificationLine(time: notification.time, text: text, isFailure: false)
          case .failure(let error):
            return NotificationLine(
              time: notification.time, text: "notification \(notification.name): \(error)",
              isFailure: true)
          }
        }
      }
      hooks.backgroundLines = {
        pipeline.delivery.takeResults().map {
          NotificationLine(text: $0.description, isFailure: !$0.delivered)
        }
      }
    }
    return hooks
  }
}

/// Signatures of what the inspector shows, made and decoded once per version of a transaction
/// or renewal info: ECDSA signatures differ each time, and the raw form must not change under
/// the reader.
final class SignatureCache {
  private let signer: Signer
  private var forms: [String: (subject: InspectorHooks.Signed, form: InspectorHooks.SignedForm)] =
    [:]

  init(signer: Signer) { self.signer = signer }

  func form(_ subject: InspectorHooks.Signed, at time: Instant) -> InspectorHooks.SignedForm? {
    let key: String
    let jws: () throws -> String
    switch subject {
    case .transaction(let t):
      key = "transaction \(t.id)"
      jws = { try self.signer.sign(t, signedDate: time) }
    case .renewalInfo(let status):
      key = "renewal \(status.groupID)"
      jws = { try self.signer.sign(status, signedDate: time) }
    }
    if let cached = forms[key], cached.subject == subject { return cached.form }
    guard let raw = try? jws(), let decoded = try? JWS.decode(raw),
      case .object(let header) = decoded.header, case .object(let payload) = decoded.payload
    else { return nil }
    let form = InspectorHooks.SignedForm(raw: raw, header: header, payload: payload)
    if forms.count > 1000 { forms = [:] }
    forms[key] = (subject, form)
    return form
  }
}
