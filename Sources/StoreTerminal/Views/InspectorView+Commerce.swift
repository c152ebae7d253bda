import StoreCommands
import StoreSimulation

extension InspectorPane {
  /// The lines of an Advanced Commerce transaction: its name, period, tax code and request;
  /// the items it charged (offers, refunds); and for the subscription what changes at the next
  /// renewal (items added, removed, re-priced, another period or name). Every text came in a
  /// signed request: sanitized.
  func commerceLines(_ t: Transaction, terms: CommerceTerms, _ sep: String) -> [InspectorLine] {
    var head = [terms.descriptors.displayName]
    if let period = terms.period { head.append(period.rawValue) }
    head += ["tax \(terms.taxCode)", "request \(terms.requestReferenceID.prefix(8))"]
    let items = terms.items.map { item in
      var text = "\(item.sku) \(decimalText(item.charged))"
      if let offer = item.offer, item.charged != item.price {
        text += " (\(offer.reason.lowercased()) offer, \(decimalText(item.price)) after)"
      }
      if let refunded = item.refunds.last { text += " refunded \(decimalText(refunded.amount))" }
      if item.revocationDate != nil { text += " revoked" }
      return text
    }
    var lines = [
      InspectorLine(
        label: InspectorLabel.commerce.rawValue,
        text: head.joined(separator: sep).sanitizedForTerminal),
      InspectorLine(
        label: InspectorLabel.items.rawValue,
        text: items.joined(separator: sep).sanitizedForTerminal),
    ]
    if let subscription = session.commerceSubscription(ofTransaction: t.id),
      let group = t.subscriptionGroupID, session.status(forGroup: group)?.transactionID == t.id
    {
      let changes = Self.pendingChanges(from: terms, to: subscription.renewal)
      if !changes.isEmpty {
        lines.append(
          InspectorLine(
            label: InspectorLabel.renews.rawValue,
            text: changes.joined(separator: sep).sanitizedForTerminal))
      }
    }
    return lines
  }

  /// What the next renewal charges differently from `current`: each item added (`+`), removed
  /// (`−`) or re-priced (a price change with its status), another period or name.
  static func pendingChanges(from current: CommerceTerms, to renewal: CommerceTerms) -> [String] {
    var changes: [String] = []
    for item in renewal.items {
      guard let now = current.item(item.sku) else {
        changes.append("+\(item.sku) \(decimalText(item.price))")
        continue
      }
      if let increase = item.priceIncrease {
        changes.append(
          "\(item.sku) \(decimalText(now.price)) → \(decimalText(increase.price)) "
            + increase.status.lowercased())
      } else if item.price != now.price {
        changes.append("\(item.sku) \(decimalText(now.price)) → \(decimalText(item.price))")
      }
    }
    for item in current.items where renewal.item(item.sku) == nil {
      changes.append("−\(item.sku)")
    }
    if renewal.period != current.period, let period = renewal.period {
      changes.append("period \(period.rawValue)")
    }
    if renewal.descriptors.displayName != current.descriptors.displayName {
      changes.append("named \(renewal.descriptors.displayName)")
    }
    return changes
  }
}
