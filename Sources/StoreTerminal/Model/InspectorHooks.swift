import StoreCommands
import StoreJSON
import StoreSimulation

/// What the binary plugs into the inspector beyond the engine. Signing and server notifications
/// live in their own module; the terminal front end only calls these.
package struct InspectorHooks {
  /// What a JWS is wanted for.
  package enum Signed: Equatable, Sendable {
    case transaction(Transaction)
    case renewalInfo(SubscriptionStatus)
  }

  /// A compact JWS and what it says.
  package struct SignedForm: Equatable, Sendable {
    /// The compact form, as `jwsRepresentation` holds it.
    package var raw: String
    /// The decoded header.
    package var header: JSONObject
    /// The decoded payload.
    package var payload: JSONObject

    /// A JWS with its decoded parts.
    package init(raw: String, header: JSONObject, payload: JSONObject) {
      self.raw = raw
      self.header = header
      self.payload = payload
    }
  }

  /// A transaction's record in the app receipt, decoded (Apple's names), with the receipt's
  /// own fields; `nil` when receipts are not made.
  package struct ReceiptForm {
    /// The app receipt's fields (`bundle_id`, `application_version` …).
    package var app: JSONObject
    /// The transaction's in-app record, whether or not the receipt lists it now.
    package var record: JSONObject
    /// Whether the receipt lists it now (a finished consumable has left it).
    package var isListed: Bool
    /// The ASN.1 type of each record field (`quantity` → 1701).
    package var types: [String: Int]

    /// A receipt's view of a transaction.
    package init(app: JSONObject, record: JSONObject, isListed: Bool, types: [String: Int]) {
      self.app = app
      self.record = record
      self.isListed = isListed
      self.types = types
    }
  }

  /// Signs a promotional offer with the configuration's key as the app's server would, at the
  /// session's now (the buy dialog's "valid signature"); `nil` when the configuration has no
  /// key, with why.
  package var signOffer:
    (
      (_ productID: String, _ options: PurchaseOptions, SessionView) -> Result<
        OfferSignature, CommandError
      >
    )?

  /// The selected transaction as the app receipt shows it (the zoomed inspector).
  package var receipt: ((Transaction, SessionView) -> ReceiptForm?)?
  /// An app receipt the session issued (`call receipt`, W): written for the person; the line
  /// saying where (or why not).
  package var receiptIssued: ((ReceiptContents) -> NotificationLine)?

  /// Signs a transaction or renewal info at the session's now, as `jwsRepresentation` holds it,
  /// and decodes it; `nil` when not signing. An effect: the state keeps what it made.
  package var sign: ((Signed, SessionView) -> SignedForm?)?
  /// Lines about the notifications sent since the last call (written, POSTed, retried, given
  /// up), each with its time, failures marked.
  package var deliveryLines: (() -> [NotificationLine])?
  /// Runs the work that waits for the loop (the requests `--serve` answers on the session);
  /// returns what to show (each request's log line, the commands they applied).
  package var background: (() -> [InspectorInput])?
  /// Awaits `work` off the loop (a call to the developer's server) and hands what it reports
  /// to the loop when it is done; the loop goes on meanwhile. Without it such a call is not
  /// made (the subscription page shows its default message).
  package var later: ((_ work: @escaping @Sendable () async -> [InspectorInput]) -> Void)?

  /// No hooks.
  package init() {}
}
