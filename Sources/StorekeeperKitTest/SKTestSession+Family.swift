internal import StoreCommands
internal import StoreSimulation

/// Family Sharing, which Xcode's environment cannot simulate: the purchaser's family, and a
/// session for each member's device.
extension SKTestSession {
  /// Someone joins the purchaser's family (`family join <name>`): they get a transaction of
  /// their own (`ownershipType == .familyShared`) for each family-shareable purchase the
  /// purchaser is entitled to, and for every one to come.
  ///
  /// - Throws: ``SKTestError`` when the name is not one a member can have (1 to 32 letters,
  ///   digits, `.`, `-`, `_`), the member is in the family already, or it has five members.
  public func joinFamily(_ name: String) throws { try act(.family(.join(name))) }

  /// A member leaves the family (`family leave <name>`): their shared transactions are
  /// revoked (`revocationType == .familyRevocation`).
  public func leaveFamily(_ name: String) throws { try act(.family(.leave(name))) }

  /// The purchaser stops or resumes sharing a product with the family (`family sharing
  /// <product> on|off`); stopping revokes the members' transactions of it.
  public func setFamilySharing(_ shared: Bool, productIdentifier: String) throws {
    try act(.family(.sharing(productID: productIdentifier, enabled: shared)))
  }

  /// The session as family member `name`'s device sees it: bind it (``bind(_:)``) and
  /// StoreKit's API answers with the member's own transactions, entitlements, statuses and
  /// app transaction, and `Transaction.updates` delivers what they are given and lose. Its
  /// switches and clock are this session's; it cannot buy (purchases are the purchaser's).
  ///
  /// - Throws: ``SKTestError`` when nobody of that name was ever in the family (the engine's
  ///   refusal, naming who was).
  public func familyMemberSession(_ name: String) throws -> SKTestSession {
    try deviceSession("familyMemberSession(\"\(name)\")") { (view) throws(SessionError) in
      try view.memberAccount(named: name)
    }
  }

  /// A session for the device of the account `account` finds, or the engine's refusal as an
  /// ``SKTestError`` saying which call asked (`call`).
  func deviceSession(
    _ call: String, _ account: (SessionView) throws(SessionError) -> Account
  ) throws -> SKTestSession {
    let found = store.read { session in Result { () throws(SessionError) in try account(session) } }
    switch found {
    case .success(let account): return SKTestSession(store: store.device(of: account))
    case .failure(let error):
      let refused = CommandError(error, command: call)
      throw SKTestError(refused, refused.explanation)
    }
  }
}
