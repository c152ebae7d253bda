import Foundation
import StoreCommands
import StoreDelivery
import StoreSigning
import StoreSimulation
import StoreTerminal

extension PreparedSigning {
  /// The inspector's hooks: cached `jwsRepresentation`s with --sign or --chain; the
  /// notification sender attached to the host, each notification and delivery in the event
  /// log; receipts shown and written (signed by `receipts`, made when the first is written).
  func inspectorHooks(
    _ host: CommandHost, receipts: OnDemand<Signer>, receiptFolder: String
  ) -> InspectorHooks {
    let journaled = host.journaled
    var hooks = InspectorHooks()
    let bundleID = journaled.bundleID ?? Signer.defaultBundleID
    hooks.receipt = { transaction, session in
      InspectorHooks.ReceiptForm(
        app: Receipt.appFields(bundleID: bundleID, creationDate: session.now),
        record: Receipt.record(of: transaction),
        isListed: ReceiptContents.lists(transaction), types: Receipt.fieldTypes)
    }
    hooks.receiptIssued = { contents in
      let count = contents.purchases.count
      switch Receipt.write(contents, signer: receipts, folder: receiptFolder) {
      case .success(let path):
        return NotificationLine(
          time: contents.creationDate,
          text: "receipt (\(count) in-app purchase\(count == 1 ? "" : "s")) → \(path)",
          isFailure: false)
      case .failure(let failure):
        return NotificationLine(
          time: contents.creationDate,
          text: "receipt not written to \(failure.path): \(failure.reason)", isFailure: true)
      }
    }
    hooks.signOffer = { productID, options, session in
      guard case .promotional(let offerID)? = options.offer else {
        return .failure(CommandError("only a promotional offer is signed"))
      }
      do throws(SigningError) {
        let signer = try OfferSigner(session.configuration.subscriptionOffersKeyPair)
        let nonce = UUID().uuidString.lowercased()
        let signature = try? signer.signV1(
          bundleID: bundleID, productID: productID, offerID: offerID,
          appAccountToken: options.appAccountToken, nonce: nonce,
          timestamp: session.now.milliseconds)
        guard let signature else { return .failure(CommandError("the offer could not be signed")) }
        return .success(
          .v1(
            keyID: signer.keyPair.id, nonce: nonce, timestamp: session.now.milliseconds,
            signature: signature))
      } catch {
        return .failure(CommandError(error.description))
      }
    }
    if let eventSigner {
      hooks.sign = { subject, session in
        let raw: String? =
          switch subject {
          case .transaction(let t): try? eventSigner.sign(t, signedDate: session.now)
          case .renewalInfo(let status): try? eventSigner.sign(status, signedDate: session.now)
          }
        guard let raw, let decoded = try? JWS.decode(raw),
          case .object(let header) = decoded.header, case .object(let payload) = decoded.payload
        else { return nil }
        return InspectorHooks.SignedForm(raw: raw, header: header, payload: payload)
      }
    }
    return hooks
  }
}

extension PreparedSigning {
  /// The event log's lines about what `sender` sent: each notification (and its file), then
  /// what its deliveries did.
  static func lines(of sender: NotificationSender) -> () -> [NotificationLine] {
    var sent: [NotificationLine] = []
    sender.listen { item in
      let name = item.notification.name
      let time = item.notification.time
      if let error = item.error {
        sent.append(
          NotificationLine(time: time, text: "notification \(name): \(error)", isFailure: true))
      } else {
        let text = "notification \(name)" + (item.file.map { " → \($0)" } ?? "")
        sent.append(NotificationLine(time: time, text: text, isFailure: false))
      }
    }
    let outbox = sender.outbox
    outbox.wake = { NcursesTerminal.wake() }
    return {
      defer { sent = [] }
      return sent
        + outbox.takeLines().map {
          NotificationLine(time: $0.time, text: $0.text, isFailure: $0.isFailure)
        }
    }
  }
}
