import Testing

@testable import StoreSimulation

/// Notifications with no purchase behind them: the external purchase token each subtype is about.
@Suite struct NoticeTests {
  func token(_ request: ExternalPurchaseToken.Request) throws -> ExternalPurchaseToken {
    var session = makeSession()
    let sent = try events { try session.sendNotice(.externalPurchaseToken(request), $0) }
    guard case .notice(.externalPurchaseToken(let token))? = sent.first?.kind else {
      Issue.record("no token in \(sent)")
      throw CancellationError()
    }
    return token
  }

  @Test func customLinkSubtypesCarryATokenTypeAndAnExpiration() throws {
    let year: Int64 = 365 * 86_400_000
    let unreported = try token(.init(.unreported))
    #expect(unreported.tokenType == nil && unreported.expirationDate == nil)
    #expect(unreported.creationDate == t0.adding(milliseconds: -10 * 86_400_000))
    let created = try token(.init(.created))
    #expect(created.tokenType == .acquisition)
    #expect(created.creationDate == t0 && created.expirationDate == t0.adding(milliseconds: year))
    let reminder = try token(.init(.activeTokenReminder))
    #expect(reminder.tokenType == .services)
    #expect(reminder.expirationDate == reminder.creationDate.adding(milliseconds: year))
    let chosen = try token(
      .init(.unreported, tokenType: .services, expires: t0.plus(seconds: 86_400)))
    #expect(chosen.tokenType == .services && chosen.expirationDate == t0.plus(seconds: 86_400))
  }

  @Test func aTokenCannotExpireBeforeItWasCreated() {
    var session = makeSession()
    #expect(throws: SessionError.self) {
      try session.sendNotice(
        .externalPurchaseToken(.init(.created, expires: t0.plus(seconds: -1))), { _ in })
    }
  }
}
