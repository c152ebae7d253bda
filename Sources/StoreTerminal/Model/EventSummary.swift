import StoreCommands
import StoreSimulation

/// One line per event for the event log, like a `stripe listen` stream.
enum EventSummary {
  static func line(_ event: StoreEvent, currencyFormatter: (Int64, String) -> String) -> String {
    let time = Formatting.clock(event.time).suffix(8)
    switch event.kind {
    case .transaction(let t, let delivery):
      return "\(time) " + transactionLine(t, delivery, currencyFormatter)
    case .status(let status):
      let owner = status.owner.member.map { "\($0.name)'s " } ?? ""
      return "\(time) \(owner)status \(status.groupID) \(status.state.rawValue)"
        + (status.renewalInfo.willAutoRenew ? "" : " (auto-renew off)")
    case .message(let reason, let productID):
      return "\(time) message \(reason.rawValue)" + (productID.map { " \($0)" } ?? "")
    case .paymentQueue(let update):
      let error = update.error.map { " SKError \($0.rawValue) \($0.name)" } ?? ""
      return "\(time) SK1 \(update.productID) \(update.state.rawValue)\(error)"
    case .purchaseResult(let result):
      let error = result.error.map { " \($0)" } ?? ""
      let detail = result.detail.map { ": \($0)" } ?? ""
      return "\(time) purchase() \(result.productID) → \(result.outcome.rawValue)\(error)\(detail)"
    case .transactionRemoved(let id, _):
      return "\(time) transaction \(id) deleted"
    case .revokedEntitlements(let productIDs):
      return "\(time) SK1 revoked \(productIDs.joined(separator: ", "))"
    case .restoreCompleted(let count):
      return "\(time) SK1 restore completed: \(count)"
    case .apiCall(let api, let error, let detail):
      let outcome = error.map { "failed: \($0)" } ?? (detail ?? "ok")
      return "\(time) \(api.rawValue) \(outcome)"
    case .refundRequested(let id, let reason):
      return "\(time) refund requested for transaction \(id): \(reason.rawValue)"
    case .refundDeclined(let id):
      return "\(time) refund declined for transaction \(id)"
    case .renewalExtension(let extended):
      if let failure = extended.failure {
        return "\(time) extension of transaction \(extended.transactionID) failed: \(failure)"
      }
      let until = extended.newExpirationDate.map { " to \(Formatting.clock($0))" } ?? ""
      return "\(time) transaction \(extended.transactionID) extended \(extended.days) d\(until)"
    case .seatsUnclaimed(let unclaimed):
      let count = unclaimed.claimIDs.count
      return "\(time) \(count) seat claim\(count == 1 ? "" : "s") of transaction "
        + "\(unclaimed.transactionID) unclaimed by the App Store (UNCLAIM_SEATS)"
    case .renewalExtensionSummary(let summary):
      return "\(time) extension of \(summary.productID): \(summary.succeededCount) extended, "
        + "\(summary.failedCount) failed"
    case .consumptionReported(let id, let information):
      return "\(time) consumption information for transaction \(id): "
        + information.fields.map { "\($0.name) \($0.value)" }.joined(separator: ", ")
    case .receipt(let contents):
      let count = contents.purchases.count
      return "\(time) receipt: \(count) in-app purchase\(count == 1 ? "" : "s")"
        + (contents.transactionID.map { " (with transaction \($0))" } ?? "")
    case .notice(.consentRescinded):
      return "\(time) consent rescinded (RESCIND_CONSENT)"
    case .notice(.externalPurchaseToken(let token)):
      return "\(time) external purchase token \(token.reason.rawValue)"
        + (token.tokenType.map { " (\($0.rawValue))" } ?? "")
        + (token.externalPurchaseID.map { " \($0)" } ?? "")
    case .family(.join(let name)):
      return "\(time) \(name) joined the family"
    case .family(.leave(let name)):
      return "\(time) \(name) left the family"
    case .family(.sharing(let productID, let enabled)):
      return "\(time) the purchaser \(enabled ? "shares" : "stopped sharing") \(productID)"
    case .retention(let retention): return "\(time) " + retentionLine(retention)
    }
  }

  private static func transactionLine(
    _ t: Transaction, _ delivery: Delivery?, _ currencyFormatter: (Int64, String) -> String
  ) -> String {
    let how = delivery.map { " → \($0.rawValue)" } ?? ""
    var notes: [String] = [t.reason.rawValue]
    if let offer = t.offer { notes.append(offer.type.rawValue) }
    if t.seats != nil { notes.append("\(t.purchasedQuantity) seats") }
    if t.revocationDate != nil {
      notes.append(
        t.revocationType == .refundProrated
          ? "refunded \(percentageText(t.revocationPercentage ?? 0))%"
          : t.revocationType == .familyRevoke ? "revoked" : "refunded")
    }
    if let revoked = t.seats?.revoked { notes.append("\(revoked) seats refunded") }
    if t.hasRefundRequest { notes.append("refund requested") }
    if t.isUpgraded { notes.append("upgraded") }
    if t.hasPurchaseIssue { notes.append("issue") }
    if t.pendingAskToBuyConfirmation { notes.append("pending approval") }
    if t.state == .failed { notes.append("failed") }
    let owner = t.owner.member.map { "\($0.name)'s " } ?? ""
    return "\(owner)transaction \(t.id) \(t.productID) \(notes.joined(separator: ", ")) "
      + "\(currencyFormatter(t.price, t.currency))\(how)"
  }

  private static func retentionLine(_ event: RetentionEvent) -> String {
    switch event {
    case .changed(let action): return "retention " + action.summary
    case .request(let request, let exchange, let problem):
      // What came back and whether it was used; the body itself is in the journal and `run`'s
      // output (`retentionRequest`'s `answer`).
      let how: String =
        switch exchange.outcome {
        case .answered(let status, let body, _): "HTTP \(status), \(body.utf8.count) bytes"
        case .failed(let result, let reason): "no answer (\(result): \(reason))"
        }
      let verdict = problem.map { "not used: \($0); the default instead" } ?? "its message shown"
      return "retention: asked your server about \(request.productID) "
        + "(request \(exchange.requestID.prefix(8))): \(how), \(verdict)"
    case .shown(let display):
      var text = "retention message: \(display.source.rawValue)"
      if let id = display.messageID { text += " \(id.prefix(8))" }
      if let product = display.alternateProduct {
        text += ", switch to \(product)" + (display.alternatePlan.map { " (\($0))" } ?? "")
      }
      if let offer = display.promotionalOffer { text += ", offer \(offer)" }
      return text
    }
  }
}

extension EventSummary {
  /// What a purchase came to, in StoreKit's words and what happened first (so that 80 columns
  /// keep it): `Product.PurchaseResult` (`.success`, `.pending` for Ask to Buy or an
  /// interrupted purchase, `.userCancelled`) or the error `purchase()` threw, then the key that
  /// acts on it, then the product; `nil` when the events hold no purchase result.
  static func purchaseOutcome(_ events: [StoreEvent], session: SessionView) -> StatusMessage? {
    guard
      let result = events.lazy.compactMap({ event -> PurchaseResult? in
        if case .purchaseResult(let result) = event.kind { result } else { nil }
      }).last
    else { return nil }
    let product = result.productID
    // A pending purchase's transaction (Ask to Buy, interrupted) comes from the SK1 queue.
    let id =
      result.transactionID
      ?? events.lazy.compactMap { event -> UInt64? in
        if case .paymentQueue(let update) = event.kind { update.transactionID } else { nil }
      }.last
    let transaction = id.map { "transaction \($0), " } ?? ""
    switch result.outcome {
    case .success:
      let unverified = result.error.map { " (unverified: \($0.typeName).\($0.name))" } ?? ""
      return StatusMessage(
        ".success\(unverified): purchased \(product)\(id.map { ", transaction \($0)" } ?? "")")
    case .pending:
      if id.flatMap(session.ledgerRow)?.state == .interrupted {
        return StatusMessage(
          ".pending: interrupted — r resolves it as the customer would (\(transaction)\(product))")
      }
      return StatusMessage(
        ".pending: Ask to Buy — a approves, D declines (\(transaction)\(product))")
    case .userCancelled:
      return StatusMessage(".userCancelled: the customer cancelled (\(product))")
    case .failed:
      let error = result.error.map { "\($0.typeName).\($0.name)" } ?? "an error"
      let detail = result.detail.map { " — \($0)" } ?? ""
      return StatusMessage("threw \(error)\(detail) (\(product))")
    }
  }
}
