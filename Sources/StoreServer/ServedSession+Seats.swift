import Foundation
import StoreCommands
import StoreJSON
import StoreSimulation

/// Multiseat's seat endpoints (App Store Server API 1.23, developer-hosted invitations): Get
/// Seat Info reads; Claim, Unclaim and Associate Seat are `seats` commands, journaled for the
/// transaction's owner as every API change.
extension ServedSession {
  /// `GET /inApps/groups/v1/transactions/{transactionId}/seats` (Get Seat Info).
  static func seatInfo(_ reader: SessionReader, _ id: String) throws(AppStoreError) -> JSONValue {
    let group = try developerGroup(reader, id)
    return .object(
      JSONObject([
        JSONMember("totalSeatCount", .number(JSONNumber(group.inForce))),
        JSONMember("availableSeatCount", .number(JSONNumber(group.available))),
        JSONMember("assignedSeatClaimIds", .array(group.claims.map { .string($0.id) })),
      ]))
  }

  /// `POST …/seats` (Claim Seat): a retry with the same `requestIdentifier` answers the first
  /// claim's `seatClaimId`.
  func claimSeat(
    _ transaction: Transaction, _ request: SeatClaimRequest
  ) throws(AppStoreError) -> JSONValue {
    _ = try applyCall(
      .seats(
        .claim(
          .id(transaction.id), request: request.requestIdentifier,
          appTransactionID: request.appTransactionID)),
      for: transaction.owner.customer, refused: Self.seatError)
    let group = host.session.acting(as: transaction.owner.customer)?
      .seatGroup(ofTransaction: transaction.id)
    guard let claim = group?.claim(request: request.requestIdentifier)
    else { throw AppStoreError(.generalInternal) }
    return .object(JSONObject([JSONMember("seatClaimId", .string(claim.id))]))
  }

  /// `DELETE …/seats/{seatClaimId}` (Unclaim Seat).
  func unclaimSeat(_ id: String, claim: String) throws(AppStoreError) {
    let transaction = try reader.transaction(id)
    _ = try applyCall(
      .seats(.unclaim(.id(transaction.id), claim: claim.lowercased())),
      for: transaction.owner.customer, refused: Self.seatError)
  }

  /// `POST …/seats/{seatClaimId}/associate` (Associate Seat).
  func associateSeat(
    _ transaction: Transaction, claim: String, _ request: SeatAssociationRequest
  ) throws(AppStoreError) {
    _ = try applyCall(
      .seats(
        .associate(
          .id(transaction.id), claim: claim.lowercased(),
          appTransactionID: request.appTransactionID)),
      for: transaction.owner.customer, refused: Self.seatError)
  }

  /// The seats of the developer-hosted multiseat subscription `id` belongs to.
  private static func developerGroup(
    _ reader: SessionReader, _ id: String
  ) throws(AppStoreError) -> SeatGroup {
    let transaction = try reader.transaction(id)
    guard
      let group = reader.base.acting(as: transaction.owner.customer)?
        .seatGroup(ofTransaction: transaction.id),
      group.invitations == .developer
    else { throw AppStoreError(.transactionNotDevManagedGroup) }
    return group
  }

  /// Apple's error for a seat change the engine refused.
  static func seatError(_ error: CommandError) -> AppStoreError? {
    guard case .seats(let refusal)? = error.refusal else {
      return AppStoreError(.generalBadRequest, message: "Bad request. \(error.message)")
    }
    switch refusal.rule {
    case .notDeveloperManaged, .notMultiSeat, .notSubscription:
      return AppStoreError(.transactionNotDevManagedGroup)
    case .noAvailableSeats: return AppStoreError(.noAvailableSeats)
    case .claimNotFound: return AppStoreError(.seatClaimIDNotFound)
    case .appTransactionNotFound: return AppStoreError(.appTransactionIDNotFound)
    case .invalidCount, .reductionNotAllowed, .unchanged, .notSimulated, .multiSeatDisabled,
      .notAppleManaged, .memberNotFound, .alreadySubscribed, .assignedSeat, .purchaserNotSubscribed:
      return AppStoreError(.generalBadRequest, message: "Bad request. \(refusal.message)")
    }
  }
}
