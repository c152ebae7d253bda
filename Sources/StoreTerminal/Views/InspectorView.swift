import StoreCommands
import StoreJSON
import StoreSimulation

/// One line of the inspector: a label and what follows it.
struct InspectorLine: Equatable {
  var label: String
  var text: String
  var style = CellStyle.plain
}

/// The inspector pane: a transaction, its subscription and signed forms, or a product.
struct InspectorPane: ScreenPart {
  let screen: Screen

  /// The inspector: the selected transaction (or product, when the product list has focus) with
  /// its renewal info, subscription status, upcoming renewals and SK1 view.
  func drawInspector(into canvas: inout Canvas, _ rect: Rect, now: Instant) {
    let inner = rect.inner
    let labelWidth = min(14, max(0, inner.width / 4))
    let textWidth = inner.width - labelWidth - 1
    var lines: [InspectorLine]
    let title: String
    // The lines a step's marks are for: the summary's (the zoomed fields are not compared).
    var markable = Set<String>()
    if focus == .products, let product = selectedProduct {
      title = "Inspector · product"
      lines = productLines(session.catalog.products[product])
    } else if let row = selectedRow, let transaction = session.transaction(row.id) {
      title = "Inspector · transaction \(row.id)" + (zoomed ? " (Enter: back)" : " (Enter: zoom)")
      lines = transactionLines(
        transaction, row: row, now: now, everyField: zoomed ? max(8, textWidth) : nil)
      markable = Set(
        (zoomed ? transactionLines(transaction, row: row, now: now, everyField: nil) : lines)
          .map(\.label))
    } else {
      title = "Inspector"
      lines = [
        InspectorLine(
          label: "", text: "Select a transaction to inspect it.", style: CellStyle(dim: true))
      ]
    }
    // Zoomed, every line is there whole: what does not fit wraps under its text.
    if zoomed { lines = Self.wrapped(lines, width: max(8, textWidth)) }
    canvas.box(rect, title: title, focused: focus == .inspector, glyphs: display.glyphs)
    let top = min(inspectorTop, max(0, lines.count - inner.height))
    let shownID = focus == .products ? nil : selectedRow?.id
    for (offset, line) in lines.dropFirst(top).prefix(inner.height).enumerated() {
      let y = inner.y + offset
      // A line the last step changed is marked before its label.
      let changed =
        markable.contains(line.label)
        && (shownID.map {
          state.changes?.changed(label: line.label, of: $0) ?? false
        }
          ?? false)
      let label = changed ? display.glyphs.changed + line.label : line.label
      canvas.put(
        label, x: inner.x, y: y, limit: labelWidth,
        style: styled(CellStyle(foreground: changed ? .yellow : nil, bold: true)))
      canvas.put(
        TextCells.truncate(line.text, to: textWidth, ellipsis: display.glyphs.ellipsis),
        x: inner.x + labelWidth + 1, y: y, style: styled(line.style))
    }
  }

  /// Lines wrapped to `width`, each one's rest on lines of its own without a label.
  static func wrapped(_ lines: [InspectorLine], width: Int) -> [InspectorLine] {
    lines.flatMap { line in
      TextCells.wrap(line.text, width: width).enumerated().map { index, part in
        InspectorLine(label: index == 0 ? line.label : "", text: part, style: line.style)
      }
    }
  }

  /// The Plan line: a monthly plan's payment and how far its commitment has come.
  func planLine(
    _ plan: String, _ t: Transaction, product: CatalogProduct, now: Instant, _ sep: String
  ) -> InspectorLine {
    guard let commitment = t.commitment else {
      return InspectorLine(label: InspectorLabel.plan.rawValue, text: "\(plan) (one payment)")
    }
    let renews = groupStatus(of: product)?.renewalInfo.commitment?.willAutoRenew ?? true
    let end = commitment.expirationDate
    return InspectorLine(
      label: InspectorLabel.plan.rawValue,
      text: "\(plan)\(sep)payment \(commitment.billingPeriodNumber) of "
        + "\(commitment.totalBillingPeriods)\(sep)commitment "
        + "\(prices(commitment.price, currency: t.currency)) until "
        + "\(Formatting.shortDate(end, now: now)) (\(Formatting.relative(end, now: now))), then "
        + (renews ? "renews" : "ends"))
  }

  /// The Owner line: the purchaser, or which family member.
  func owner(of t: Transaction, _ sep: String) -> InspectorLine {
    InspectorLine(
      label: InspectorLabel.owner.rawValue,
      text: (t.owner.member.map { "\($0.name), family shared by the purchaser" } ?? "the purchaser")
        + "\(sep)\(t.ownership.rawValue)"
        + "\(sep)appTransactionId \(t.appTransactionID)"
        + (t.imported == nil ? "" : "\(sep)imported (Apple's values)"))
  }

  /// The lines of a transaction; `everyField` (the zoomed inspector, with the width to wrap
  /// raw JWS in) adds every StoreKit 2 field and the decoded signed forms.
  func transactionLines(
    _ t: Transaction, row: LedgerRow, now: Instant, everyField wrapWidth: Int?
  ) -> [InspectorLine] {
    let sep = display.glyphs.separator
    let product = session.catalog.products[Int(row.product)]
    var lines = summaryLines(t, product: product, now: now, sep)
    if let plan = t.billingPlanType {
      lines.append(planLine(plan.rawValue, t, product: product, now: now, sep))
    }
    if let seats = t.seats { lines += seatLines(t, seats: seats, sep) }
    if let terms = t.advancedCommerce { lines += commerceLines(t, terms: terms, sep) }
    lines.append(stateLine(t, row: row, now: now, sep))
    lines.append(InspectorLine(label: InspectorLabel.sk1.rawValue, text: paymentQueueView(t)))
    if let consumption = session.consumption(of: t.id) {
      lines.append(
        InspectorLine(
          label: InspectorLabel.consumption.rawValue,
          text: "sent \(Formatting.shortDate(consumption.date, now: now))\(sep)"
            + consumption.fields.map { "\($0.name) \($0.value)" }.joined(separator: sep)))
    }
    if let token = t.appAccountToken {
      lines.append(
        InspectorLine(label: InspectorLabel.account.rawValue, text: "appAccountToken \(token)"))
    }
    let status = groupStatus(of: product)
    if let status {
      lines += statusLines(status, now: now, isCurrent: status.transactionID == t.id)
    }
    return lines + signedFormLines(t, status: status, everyField: wrapWidth)
  }

  /// The transaction, product, owner, dates and price lines.
  private func summaryLines(
    _ t: Transaction, product: CatalogProduct, now: Instant, _ sep: String
  ) -> [InspectorLine] {
    var summary = ["id \(t.id)", "original \(t.originalID)"]
    if let order = t.orderID { summary.append("order \(order)") }
    summary.append(t.reason.rawValue)
    if let offer = t.offer { summary.append("offer " + Formatting.offer(offer)) }
    summary.append("storefront \(t.storefront)")
    var lines = [
      InspectorLine(
        label: InspectorLabel.transaction.rawValue, text: summary.joined(separator: sep)),
      InspectorLine(
        label: InspectorLabel.product.rawValue,
        text:
          "\(t.productID) (\(product.displayName(locale: session.settings.locale)))\(sep)\(t.productType.rawValue)"
          + (t.subscriptionGroupID.map { "\(sep)group \($0)" } ?? "")),
    ]
    // Whose it is, once there is a family to tell apart, or where its values came from (an
    // imported transaction's are Apple's).
    if !t.owner.isPurchaser || !session.everyFamilyMember.isEmpty || t.imported != nil {
      lines.append(owner(of: t, sep))
    }
    var dates = ["purchased \(Formatting.shortDate(t.purchaseDate, now: now))"]
    if t.originalPurchaseDate != t.purchaseDate {
      dates.append("original \(Formatting.shortDate(t.originalPurchaseDate, now: now))")
    }
    if let expiration = t.expirationDate {
      dates.append(
        "expires \(Formatting.shortDate(expiration, now: now)) (\(Formatting.relative(expiration, now: now)))"
      )
    }
    lines.append(
      InspectorLine(label: InspectorLabel.dates.rawValue, text: dates.joined(separator: sep)))
    lines.append(
      InspectorLine(
        label: InspectorLabel.price.rawValue,
        text:
          "\(prices(t.price, currency: t.currency)) \(t.currency) for \(t.purchasedQuantity)\(sep)environment \(t.environment)"
      ))
    return lines
  }

  /// The State line: the row's state, finished or not, a refund or revocation, a refund
  /// request, an upgrade, a failure.
  private func stateLine(
    _ t: Transaction, row: LedgerRow, now: Instant, _ sep: String
  ) -> InspectorLine {
    var state = [
      row.state.label, t.isFinished ? "finished" : "\(display.glyphs.warning) unfinished",
    ]
    if let revoked = t.revocationDate {
      let share =
        t.revocationType == .refundProrated
        ? " \(percentageText(t.revocationPercentage ?? 0))%" : ""
      state.append(
        (t.revocationType == .familyRevoke ? "revoked from Family Sharing" : "refunded\(share)")
          + " \(Formatting.shortDate(revoked, now: now)) "
          + "(\(t.revocationReason?.rawValue ?? "other"))")
    }
    if t.hasRefundRequest { state.append("refund requested, awaiting Apple's decision") }
    if t.isUpgraded { state.append("upgraded") }
    if let failure = t.failure { state.append("failed: \(failure)") }
    return InspectorLine(
      label: InspectorLabel.state.rawValue, text: state.joined(separator: sep),
      style: CellStyle(foreground: color(of: row.state)))
  }

  /// The raw JWS; zoomed (`wrapWidth`), every field, the receipt, and the signed forms decoded.
  private func signedFormLines(
    _ t: Transaction, status: SubscriptionStatus?, everyField wrapWidth: Int?
  ) -> [InspectorLine] {
    let jws = screen.state.signature(of: .transaction(t))
    guard let wrapWidth else {
      guard let jws else { return [] }
      return [
        InspectorLine(
          label: InspectorLabel.jws.rawValue, text: jws.raw, style: CellStyle(dim: true))
      ]
    }
    var lines = fieldLines(t) + receiptLines(t)
    guard let jws else {
      let hint = "open with --sign (or --chain) to see jwsRepresentation, decoded and raw"
      return lines + [
        InspectorLine(label: InspectorLabel.jws.rawValue, text: hint, style: CellStyle(dim: true))
      ]
    }
    lines += signedLines("Transaction", jws, wrapWidth: wrapWidth)
    if let status, let renewal = screen.state.signature(of: .renewalInfo(status)) {
      lines += signedLines("RenewalInfo", renewal, wrapWidth: wrapWidth)
    }
    return lines
  }

  /// SKTestTransaction's view: payment state and flags.
  func paymentQueueView(_ t: Transaction) -> String {
    var flags = ["state \(t.state.rawValue)"]
    if t.hasPurchaseIssue { flags.append("hasPurchaseIssue") }
    if t.pendingAskToBuyConfirmation { flags.append("pendingAskToBuyConfirmation") }
    if t.isAskToBuyDeclined { flags.append("declined") }
    if let error = t.failure?.skErrorCodeName { flags.append("SKErrorDomain \(error)") }
    return flags.joined(separator: display.glyphs.separator)
  }

  /// Every StoreKit 2 field, one per line (the zoomed inspector).
  func fieldLines(_ t: Transaction) -> [InspectorLine] {
    let json = EventEncoder().transactionLine(t)
    guard case .object(let object)? = try? JSONParser.parse(Array(json.utf8)).root else {
      return []
    }
    return [
      InspectorLine(label: "", text: ""),
      InspectorLine(label: "Fields", text: "StoreKit 2 Transaction"),
    ]
      + memberLines(object)
  }

  /// One line per member of a JSON object: `key: value`.
  /// The transaction's record in the app receipt, each field with its ASN.1 type.
  func receiptLines(_ t: Transaction) -> [InspectorLine] {
    guard let form = hooks.receipt?(t, session) else { return [] }
    let sep = display.glyphs.separator
    var lines = [
      InspectorLine(label: "", text: ""),
      InspectorLine(
        label: "Receipt",
        text: (form.isListed
          ? "in the app receipt" : "not in the app receipt now (a finished consumable)")
          + sep + "W writes the receipt to a file"),
    ]
    for (label, object) in [("app", form.app), ("in_app", form.record)] {
      for (index, member) in object.members.enumerated() {
        let type = form.types[member.key].map { "\($0) " } ?? ""
        let value: String =
          if case .string(let text) = member.value { text } else {
            JSONWriter.compact(member.value)
          }
        lines.append(
          InspectorLine(label: index == 0 ? label : "", text: "\(type)\(member.key): \(value)"))
      }
    }
    return lines
  }

  func memberLines(_ object: JSONObject) -> [InspectorLine] {
    var lines: [InspectorLine] = []
    for member in object.members {
      let value: String =
        switch member.value {
        case .string(let text): text
        case .number(let number): number.text
        case .bool(let flag): flag ? "true" : "false"
        default: JSONWriter.compact(member.value)
        }
      lines.append(InspectorLine(label: "", text: "\(member.key): \(value)"))
    }
    return lines
  }
}
