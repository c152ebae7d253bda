import StoreConfiguration
import StoreSimulation

/// What the binary plugs into the inspector beyond the engine. Signing and server notifications
/// live in their own module; the terminal front end only calls these.
public struct InspectorHooks {
  /// What a JWS is wanted for.
  public enum Signed: Equatable {
    case transaction(Transaction)
    case renewalInfo(SubscriptionStatus)
  }

  /// A compact JWS and what it says.
  public struct SignedForm {
    /// The compact form, as `jwsRepresentation` holds it.
    public var raw: String
    /// The decoded header.
    public var header: JSONObject
    /// The decoded payload.
    public var payload: JSONObject

    /// A JWS with its decoded parts.
    public init(raw: String, header: JSONObject, payload: JSONObject) {
      self.raw = raw
      self.header = header
      self.payload = payload
    }
  }

  /// The `jwsRepresentation` of a transaction or renewal info, decoded; `nil` when not signing.
  /// Called while drawing, so it should cache.
  public var jwsRepresentation: ((Signed, Session) -> SignedForm?)?
  /// Sees each batch of events once applied; returns what to add to the event log (the server
  /// notifications they caused), each with its time, failures (a file not written) marked.
  public var eventsApplied:
    (([StoreEvent], Session) -> [(time: Instant, text: String, isFailure: Bool)])?
  /// Lines that arrived in the background since the last call (webhook deliveries), failures
  /// marked.
  public var backgroundLines: (() -> [(text: String, isFailure: Bool)])?

  /// No hooks.
  public init() {}
}

extension App {
  /// Moves the lines that arrived in the background into the event log.
  public mutating func takeBackgroundLines() {
    guard let lines = hooks.backgroundLines?(), !lines.isEmpty else { return }
    for line in lines { appendLog(line.text) }
    if let failed = lines.last(where: \.isFailure) { message = (failed.text, true) }
  }
}
