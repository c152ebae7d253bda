import StoreCommands
import StoreSigning
import StoreSimulation

/// What a front end's signing options come to: a signer when anything is signed, an outbox
/// when notifications go anywhere.
public struct PreparedSigning {
  /// The signer, when anything is signed.
  public let signer: Signer?
  /// Where notifications go, when they go anywhere.
  public let outbox: NotificationOutbox?
  /// Whether transactions and renewal infos carry `jwsRepresentation` (--sign, --chain).
  public let signsEvents: Bool

  /// What was prepared.
  public init(signer: Signer?, outbox: NotificationOutbox?, signsEvents: Bool) {
    self.signer = signer
    self.outbox = outbox
    self.signsEvents = signsEvents
  }

  /// The signer of `jwsRepresentation`s, if they are wanted.
  public var eventSigner: Signer? { signsEvents ? signer : nil }

  /// The sender of the host's notifications, from the session's state on, attached to the
  /// host (its observer, and where `notify …` goes): the one place every front end wires it.
  /// Attach the observers that report what it sent after it.
  public func attachSender(to host: CommandHost) -> NotificationSender? {
    guard let signer, let outbox else { return nil }
    let sender = NotificationSender(
      signer: signer, outbox: outbox, identity: host.journaled.identity)
    host.attach(sender)
    host.delivery = sender
    return sender
  }

  /// The environment transactions report in the event stream: the signer's, else StoreKit's.
  public var environment: String { signer?.environment.rawValue ?? "Xcode" }

  /// The events' encoder: with `jwsRepresentation` when signing, and `receipt` events signed
  /// by `receipts` (made when the first is needed).
  public func encoder(receipts: OnDemand<Signer>?) -> EventEncoder {
    let receiptFields: EventEncoder.ReceiptDecoration = { contents in
      (try? receipts?.value)?.receiptFields(contents) ?? []
    }
    guard let signer = eventSigner else {
      return EventEncoder(environment: environment, receipts: receiptFields)
    }
    let decorate: EventEncoder.Decoration = { decorated, time in
      let jws: String? =
        switch decorated {
        case .transaction(let transaction): try? signer.sign(transaction, signedDate: time)
        case .renewalInfo(let status): try? signer.sign(status, signedDate: time)
        }
      return jws.map { [("jwsRepresentation", $0)] } ?? []
    }
    return EventEncoder(environment: environment, decorate: decorate, receipts: receiptFields)
  }
}
