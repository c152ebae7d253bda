/// A server notification the App Store sends with no purchase behind it: nothing in the session
/// changes, the app's server only hears of it.
public enum StoreNotice: Equatable, Sendable {
  /// A parent or guardian withdrew consent for a child's use of the app (`RESCIND_CONSENT`,
  /// which carries the app transaction in `appData`).
  case consentRescinded
  /// An external purchase token the app's server must report (`EXTERNAL_PURCHASE_TOKEN`).
  case externalPurchaseToken(ExternalPurchaseToken)
}

/// An external purchase token, as `EXTERNAL_PURCHASE_TOKEN` carries it.
public struct ExternalPurchaseToken: Equatable, Sendable {
  /// Why the App Store sends it: the notification's `subtype`.
  public enum Reason: String, CaseIterable, Sendable {
    /// The token was not reported 10 days after it was created.
    case unreported = "UNREPORTED"
    /// Apple created a custom link token for the app.
    case created = "CREATED"
    /// A custom link token is still active (sent monthly).
    case activeTokenReminder = "ACTIVE_TOKEN_REMINDER"

    /// The command language's word: `unreported`, `created`, `active-token-reminder`.
    public var word: String { rawValue.lowercased().replacingOccurrences(of: "_", with: "-") }

    /// How long before the notification the token was created, when no date is given: 10
    /// days for an unreported token (Apple sends it then), a month for a reminder (sent
    /// monthly while the token is active), none for a token just created.
    public var defaultAge: Int64 {
      switch self {
      case .unreported: 10 * 86_400_000
      case .created: 0
      case .activeTokenReminder: 30 * 86_400_000
      }
    }
  }

  /// Why it is sent.
  public var reason: Reason
  /// `externalPurchaseId`, when the command gave one (otherwise the signer makes one from
  /// the notification's identity).
  public var externalPurchaseID: String?
  /// `tokenCreationDate`.
  public var creationDate: Instant

  /// A token.
  public init(reason: Reason, externalPurchaseID: String?, creationDate: Instant) {
    self.reason = reason
    self.externalPurchaseID = externalPurchaseID
    self.creationDate = creationDate
  }
}

/// What `notify rescind-consent` and `notify external-purchase-token` ask of the engine.
public enum NoticeRequest: Equatable, Sendable {
  /// `RESCIND_CONSENT`.
  case rescindConsent
  /// `EXTERNAL_PURCHASE_TOKEN` with this subtype, an id and when the token was created (by
  /// default, ``ExternalPurchaseToken/Reason/defaultAge`` before now).
  case externalPurchaseToken(ExternalPurchaseToken.Reason, id: String?, created: Instant?)
}

extension Session {
  /// Sends a notice to the app's server: the event and nothing else.
  public mutating func sendNotice(
    _ request: NoticeRequest, _ sink: EventSink
  ) throws(SessionError) {
    try check(.sendNotice(request))
    let notice: StoreNotice =
      switch request {
      case .rescindConsent: .consentRescinded
      case .externalPurchaseToken(let reason, let id, let created):
        .externalPurchaseToken(
          ExternalPurchaseToken(
            reason: reason, externalPurchaseID: id,
            creationDate: created ?? now.adding(milliseconds: -reason.defaultAge)))
      }
    emit(.notice(notice), at: now.milliseconds, sink)
  }

  /// Throws when a token would be created after now, or its id is not one word.
  func checkNotice(_ request: NoticeRequest) throws(SessionError) {
    guard case .externalPurchaseToken(_, let id, let created) = request else { return }
    if let created, created > now {
      throw SessionError(
        .invalidAction, "a token cannot be created after the session's now (\(now.iso8601))")
    }
    if let id, id.isEmpty || id.contains(where: { $0.isWhitespace || $0.isNewline }) {
      throw SessionError(.invalidAction, "an external purchase id is one word, not \"\(id)\"")
    }
  }
}
