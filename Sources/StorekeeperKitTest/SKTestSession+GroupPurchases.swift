internal import StoreCommands
internal import StoreSimulation
internal import StorekeeperKit

/// Multiseat subscriptions' members (Group Purchases), which Xcode's environment cannot
/// simulate: App Store Connect's invitation hosting, Apple-hosted members joining and being
/// removed, and a session for each member's device.
extension SKTestSession {
  /// App Store Connect's invitation hosting for new multiseat purchases (`set invitations
  /// apple|developer`): `.apple` (the default) gives each member their own transaction;
  /// `.developer` leaves the seats to the app's server (Claim Seat and the other seat
  /// endpoints). A subscription keeps the hosting it was bought with.
  public func setInvitationManagement(
    _ hosting: StorekeeperKit.Transaction.MultiSeatInfo.InvitationManagement
  ) {
    // A setting, as `set(_:)`'s: never refused.
    store.perform(.seats(.invitations(hosting == .developer ? .developer : .apple)))
  }

  /// A customer called `name` (made on first use, with an Apple Account of their own) joins
  /// the app's customer's multiseat subscription whose invitations Apple hosts (`group invite
  /// <name>`), as if they accepted the invitation sheet's invitation: they get a transaction
  /// of their own (`ownershipType == .assigned`, the purchaser's `multiSeatInfo`) that renews
  /// and ends with the purchaser's.
  ///
  /// - Throws: ``SKTestError`` when there is no such subscription, every seat is taken, or the
  ///   customer holds the subscription already.
  public func inviteGroupMember(_ name: String) throws { try act(.seats(.invite(member: name))) }

  /// The purchaser removes a member (`group remove <name>`): the member's transaction is
  /// revoked (`revocationType == .assignmentRevocation`) and the seat is free again.
  ///
  /// - Throws: ``SKTestError`` naming the members when `name` holds no seat.
  public func removeGroupMember(_ name: String) throws { try act(.seats(.remove(member: name))) }

  /// The session as customer `name`'s device sees it (a group member, or any customer a
  /// command made): bind it (``bind(_:)``) and StoreKit's API answers with their own
  /// transactions, entitlements and statuses, and `Transaction.updates` delivers what they are
  /// given and lose. Its switches and clock are this session's.
  ///
  /// - Throws: ``SKTestError`` when no customer has that name.
  public func customerSession(_ name: String) throws -> SKTestSession {
    try deviceSession("customerSession(\"\(name)\")") { (view) throws(SessionError) in
      try view.customerAccount(named: name)
    }
  }

  /// Who accepts the purchaser's invitations when the app shows the multiseat invitation sheet
  /// (`AppStore.presentMultiSeatInvitationSheet(subscriptionGroupID:)`): customers by name,
  /// made on first use, each joining a seat; empty (the default) dismisses the sheet.
  public var multiSeatInvitees: [String] {
    get { store.choices.multiSeatInvitees }
    set { store.choices.multiSeatInvitees = newValue }
  }
}
