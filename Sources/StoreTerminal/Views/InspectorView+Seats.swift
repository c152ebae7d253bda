import StoreSimulation

extension InspectorPane {
  /// The Seats line of a multiseat subscription's transaction: its seats, who hosts the
  /// invitations, and for the subscription the seats in force, those that renew, refunded
  /// ones and claims.
  func seatLine(_ t: Transaction, seats: TransactionSeats, _ sep: String) -> InspectorLine {
    var parts = [
      "\(t.purchasedQuantity) seat\(t.purchasedQuantity == 1 ? "" : "s")"
        + (seats.isAddition ? " added" : ""),
      seats.invitations == .apple ? "Apple-hosted" : "developer-hosted",
    ]
    if let revoked = seats.revoked { parts.append("\(revoked) refunded") }
    if let group = session.seatGroup(ofTransaction: t.id) {
      if group.inForce != t.purchasedQuantity { parts.append("subscription \(group.inForce)") }
      if group.renewalTotal != group.total { parts.append("renews \(group.renewalTotal)") }
      if group.invitations == .developer {
        parts.append("\(group.claimCount) claimed, \(group.available) free")
      }
    }
    return InspectorLine(label: InspectorLabel.seats.rawValue, text: parts.joined(separator: sep))
  }
}
