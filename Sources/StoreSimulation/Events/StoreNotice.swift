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

  /// `tokenType`: the kind of a custom link token (Apple: "present only for custom link
  /// tokens").
  public enum TokenType: String, CaseIterable, Sendable {
    /// A token for a new customer's purchase (`ACQUISITION`).
    case acquisition = "ACQUISITION"
    /// A token for an existing customer's services (`SERVICES`).
    case services = "SERVICES"

    /// The command language's word: `acquisition`, `services`.
    public var word: String { rawValue.lowercased() }
  }

  /// How long a custom link token lasts when no expiration is given [unverified: Apple gives
  /// no lifetime].
  public static let customLinkLifetime: Int64 = 365 * 86_400_000

  /// Why it is sent.
  public var reason: Reason
  /// `externalPurchaseId`, when the command gave one (otherwise the signer makes one from
  /// the notification's identity).
  public var externalPurchaseID: String?
  /// `tokenCreationDate`.
  public var creationDate: Instant
  /// `tokenType`, for a custom link token; `nil` for a token of the External Purchase API.
  public var tokenType: TokenType?
  /// `tokenExpirationDate`, for a custom link token.
  public var expirationDate: Instant?

  /// A token; a custom link token when it has a type.
  public init(
    reason: Reason, externalPurchaseID: String?, creationDate: Instant,
    tokenType: TokenType? = nil, expirationDate: Instant? = nil
  ) {
    self.reason = reason
    self.externalPurchaseID = externalPurchaseID
    self.creationDate = creationDate
    self.tokenType = tokenType
    self.expirationDate = expirationDate
  }

  /// What `notify external-purchase-token` asks for; what it leaves out takes the subtype's
  /// defaults.
  public struct Request: Equatable, Sendable {
    /// The subtype.
    public var reason: Reason
    /// `id=`: the token's `externalPurchaseId`.
    public var id: String?
    /// `creation=`: when the token was created (by default ``Reason/defaultAge`` before now).
    public var created: Instant?
    /// `type=`: the custom link token's type (by default ``Reason/defaultTokenType``).
    public var tokenType: TokenType?
    /// `expiration=`: when the custom link token expires (by default
    /// ``ExternalPurchaseToken/customLinkLifetime`` after its creation).
    public var expires: Instant?

    /// A request; `nil` takes the subtype's default.
    public init(
      _ reason: Reason, id: String? = nil, created: Instant? = nil, tokenType: TokenType? = nil,
      expires: Instant? = nil
    ) {
      self.reason = reason
      self.id = id
      self.created = created
      self.tokenType = tokenType
      self.expires = expires
    }
  }
}

extension ExternalPurchaseToken.Reason {
  /// The token a subtype is about when the command names no type: `CREATED` and
  /// `ACTIVE_TOKEN_REMINDER` are about custom link tokens (Apple creates them for
  /// `ExternalPurchaseCustomLink`), an acquisition token and a services token that stays active
  /// [unverified]; `UNREPORTED` about a token of the External Purchase API, which has no type.
  public var defaultTokenType: ExternalPurchaseToken.TokenType? {
    switch self {
    case .unreported: nil
    case .created: .acquisition
    case .activeTokenReminder: .services
    }
  }
}

/// What `notify rescind-consent` and `notify external-purchase-token` ask of the engine.
public enum NoticeRequest: Equatable, Sendable {
  /// `RESCIND_CONSENT`: the customer withdrew consent to share data.
  case rescindConsent
  /// `EXTERNAL_PURCHASE_TOKEN` about the token asked for.
  case externalPurchaseToken(ExternalPurchaseToken.Request)
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
      case .externalPurchaseToken(let request):
        .externalPurchaseToken(token(request))
      }
    emit(.notice(notice), at: now.milliseconds, sink)
  }

  /// The token a request describes, its defaults filled in.
  private func token(_ request: ExternalPurchaseToken.Request) -> ExternalPurchaseToken {
    let created = request.created ?? now.adding(milliseconds: -request.reason.defaultAge)
    let type = request.tokenType ?? request.reason.defaultTokenType
    return ExternalPurchaseToken(
      reason: request.reason, externalPurchaseID: request.id, creationDate: created,
      tokenType: type,
      expirationDate: type.map { _ in
        request.expires ?? created.adding(milliseconds: ExternalPurchaseToken.customLinkLifetime)
      })
  }

  /// Throws when a token would be created after now or expire before it was created, or its id
  /// is not one word.
  func checkNotice(_ request: NoticeRequest) throws(SessionError) {
    guard case .externalPurchaseToken(let token) = request else { return }
    if let created = token.created, created > now {
      throw SessionError(.tokenCreatedInFuture(now: now))
    }
    if let expires = token.expires {
      let created = token.created ?? now.adding(milliseconds: -token.reason.defaultAge)
      if expires < created {
        throw SessionError(.tokenExpiresBeforeCreation(expires: expires, created: created))
      }
    }
    if let id = token.id, id.isEmpty || id.contains(where: { $0.isWhitespace || $0.isNewline }) {
      throw SessionError(.externalPurchaseIDNotOneWord(id))
    }
  }
}
