import StoreCommands
import StoreConfiguration
import StoreSimulation

/// What the binary plugs into the inspector beyond the engine. Signing and server notifications
/// live in their own module; the terminal front end only calls these.
package struct InspectorHooks {
  /// What a JWS is wanted for.
  package enum Signed: Equatable {
    case transaction(Transaction)
    case renewalInfo(SubscriptionStatus)
  }

  /// A compact JWS and what it says.
  package struct SignedForm {
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

  /// The `jwsRepresentation` of a transaction or renewal info, decoded; `nil` when not signing.
  /// Called while drawing, so it should cache.
  package var jwsRepresentation: ((Signed, Session) -> SignedForm?)?
  /// Sees each batch of events once applied; returns what to add to the event log (the server
  /// notifications they caused), each with its time, failures (a file not written) marked.
  package var eventsApplied: (([StoreEvent], Session) -> [NotificationLine])?
  /// Lines that arrived in the background since the last call (webhook deliveries), failures
  /// marked.
  package var backgroundLines: (() -> [NotificationLine])?

  /// With `--serve`: the served session's work against the inspector's own session, lent for
  /// the call: the notifications of `events` (just applied here), the deliveries now due, then
  /// the requests waiting. Returns what to show (each request's log line, the commands they
  /// applied). When set, it replaces `eventsApplied` and `backgroundLines`.
  package var serve: ((inout JournaledSession, [StoreEvent]) -> [InspectorInput])?
  /// With `--serve`: `notify retry` or `set notify-fault …` typed here, acted on by the
  /// served session's delivery; returns what to say.
  package var notify: ((inout JournaledSession, NotifyAction) -> String)?

  /// No hooks.
  package init() {}
}
