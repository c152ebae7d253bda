import StoreSimulation

extension InspectorPane {
  /// The Seats lines of a multiseat subscription's transaction: its seats, who hosts the
  /// invitations, and for the subscription the seats in force, those that renew, refunded
  /// ones, claims or members; a member's seat names whose subscription it is.
  func seatLines(_ t: Transaction, seats: TransactionSeats, _ sep: String) -> [InspectorLine] {
    var parts = [
      "\(t.purchasedQuantity) seat\(t.purchasedQuantity == 1 ? "" : "s")"
        + (seats.isAddition ? " added" : ""),
      seats.invitations == .apple ? "Apple-hosted" : "developer-hosted",
    ]
    if let purchaser = seats.assignedBy {
      let owner = session.owner(ofTransaction: purchaser)?.customer
      parts.append("a member's seat of \(name(owner))'s subscription \(purchaser)")
    }
    if let revoked = seats.revoked { parts.append("\(revoked) refunded") }
    var lines: [InspectorLine] = []
    if let group = session.seatGroup(ofTransaction: t.id) {
      if group.inForce != t.purchasedQuantity { parts.append("subscription \(group.inForce)") }
      if group.renewalTotal != group.total { parts.append("renews \(group.renewalTotal)") }
      if group.invitations == .developer {
        parts.append("\(group.claimCount) claimed, \(group.available) free")
      } else {
        parts.append(
          "\(group.memberCount) member\(group.memberCount == 1 ? "" : "s"), "
            + "\(group.available) free")
        if group.memberCount > 0 { lines.append(memberLine(group, sep)) }
      }
    }
    let seatLine = InspectorLine(
      label: InspectorLabel.seats.rawValue, text: parts.joined(separator: sep))
    return [seatLine] + lines
  }

  /// The members by name, the first eight and how many more.
  private func memberLine(_ group: SeatGroup, _ sep: String) -> InspectorLine {
    let members = group.members
    let byNumber = Dictionary(session.customers.map { ($0.number, $0) }) { first, _ in first }
    var names = members.prefix(8).map { name(byNumber[$0.customer]).sanitizedForTerminal }
    if members.count > 8 { names.append("+\(members.count - 8) more") }
    return InspectorLine(label: InspectorLabel.members.rawValue, text: names.joined(separator: sep))
  }

  private func name(_ customer: Customer?) -> String {
    customer.map { $0.name ?? "(own)" } ?? "?"
  }
}
