import StoreCommands
import StoreConfiguration
import StoreSimulation

/// What the subscription page shows before the customer cancels: the retention message (its
/// header, body, bullet points), the plan or offer it suggests with its price, where the message
/// came from (and why the default when the developer's server was asked), and three ways on:
/// take the suggestion (`a`), cancel anyway (`c`), keep the subscription (`k`, Esc).
package struct RetentionDialog: Equatable, Sendable {
  /// One row: a label and its text.
  package struct Line: Equatable, Sendable {
    package var label: String
    package var text: String
  }

  /// The box's title.
  package var title: String
  /// The message and the suggestion.
  package var lines: [Line]
  /// What `a` does, in the footer's words (`switch plan`, `take the offer`), when the message
  /// suggests something.
  package var acceptKey: String?
  /// What the status line says once `a` applied (`switched to …`, `redeemed … for …`).
  package var accepted: String
  /// What `c` applies: turning the subscription's auto-renew off, however the page was opened.
  package var cancel: Command

  /// The dialog for what the page showed.
  static func make(_ shown: RetentionDisplay, session: SessionView) -> RetentionDialog {
    let locale = session.settings.locale
    func name(_ productID: String) -> String {
      session.catalog.index(of: productID).map {
        session.catalog.products[$0].displayName(locale: locale)
      } ?? productID
    }
    var lines = messageLines(shown, session: session)
    var dialog = RetentionDialog(
      title: "Before you cancel \(name(shown.productID))", lines: [], acceptKey: nil,
      accepted: "", cancel: .autoRenew(.id(shown.originalTransactionID), enabled: false))
    if let productID = shown.alternateProduct, let index = session.catalog.index(of: productID) {
      let product = session.catalog.products[index]
      // A monthly plan's price is a month's (Retention Messaging 1.5's billingPlanType).
      let monthly = product.billingPlans.first { $0.isMonthly && shown.alternatePlan == $0.type }
      let price = Self.price(monthly?.price ?? product.price, session)
      let plan = monthly.map { _ in " a month, 12-month commitment" } ?? ""
      lines.append(Line(label: "switch to", text: "\(name(productID)) (\(price)\(plan))"))
      dialog.acceptKey = "switch plan"
      dialog.accepted = "switched to \(name(productID))"
    }
    if let offerID = shown.promotionalOffer, let productID = shown.offerProductID,
      let index = session.catalog.index(of: productID)
    {
      let offer = session.catalog.products[index].promotionalOffers.first { $0.id == offerID }
      let price = offer.map { " at \(Self.price($0.price, session))" } ?? ""
      let what = "\(offer?.referenceName ?? offerID) for \(name(productID))\(price)"
      lines.append(Line(label: "offer", text: what))
      dialog.acceptKey = "take the offer"
      dialog.accepted = "redeemed \(what)"
    }
    lines.append(Line(label: "from", text: source(shown)))
    dialog.lines = lines
    return dialog
  }

  /// The message's header, image, body and bullet points.
  private static func messageLines(_ shown: RetentionDisplay, session: SessionView) -> [Line] {
    guard let id = shown.messageID, let message = session.retention.messages[id] else {
      return []
    }
    let text = message.text
    var lines = [Line(label: "", text: text.header)]
    if let alt = text.altText { lines.append(Line(label: "image", text: alt)) }
    lines.append(Line(label: "", text: text.body))
    for bullet in text.bullets { lines.append(Line(label: "•", text: bullet.text)) }
    return lines
  }

  /// Where the message came from, in one line: the developer's answer, the default, or the
  /// default because the answer could not be used (and why).
  private static func source(_ shown: RetentionDisplay) -> String {
    let id = shown.messageID.map { " (message \($0.prefix(8))…)" } ?? ""
    switch shown.source {
    case .realtime: return "your server's answer\(id)"
    case .default, .none:
      let what = shown.source == .none ? "no message" : "the default message\(id)"
      guard let why = shown.fallbackReason else { return what }
      return "\(what), because your server's answer was not used: "
        + TextCells.truncate(why, to: 100)
    }
  }

  private static func price(_ milliunits: Int64, _ session: SessionView) -> String {
    PriceFormat(locale: session.settings.locale)(
      milliunits, currency: session.settings.storefront.currency)
  }

  /// The keys at the bottom.
  var footer: String {
    (acceptKey.map { "a \($0) · " } ?? "") + "c cancel anyway · k or Esc keep"
  }
}

extension InspectorState {
  /// A key in the retention dialog.
  mutating func handleRetention(_ dialog: RetentionDialog, _ key: Key) -> [InspectorEffect] {
    switch key {
    case .character("a") where dialog.acceptKey != nil:
      overlay = nil
      return [Self.apply(.retention(.accept), success: dialog.accepted)]
    case .character("c"):
      overlay = nil
      return [Self.apply(dialog.cancel, success: "auto-renew turned off")]
    case .character("k"), .escape:
      overlay = nil
      say("kept the subscription")
    default: break
    }
    return []
  }

  /// What a `retention show` came to, however it was asked for (`o`, a `:` line, the control
  /// endpoint): the dialog; when the page shows no message, straight on with `then` (auto-renew
  /// off, as without Retention Messaging) if the page was opened to cancel.
  mutating func retentionShown(
    _ events: [StoreEvent], then: Command?, session: SessionView
  ) -> [InspectorEffect] {
    let shown = events.lazy.compactMap { event -> RetentionDisplay? in
      if case .retention(.shown(let display)) = event.kind { display } else { nil }
    }.last
    guard let shown else { return [] }
    guard shown.source != .none else {
      if let why = shown.fallbackReason { say("no retention message (\(why))") }
      return then.map { [Self.apply($0, success: "\($0) done")] } ?? []
    }
    overlay = .retention(RetentionDialog.make(shown, session: session))
    return []
  }
}

extension SessionView {
  /// Whether the subscription page may show a retention message for `product`: a real-time URL
  /// is set, or a default message for it in the customer's locale.
  func mayShowRetention(for product: CatalogProduct) -> Bool {
    let setup = self.retention
    return setup.realtimeURL != nil
      || setup.defaultMessage(productID: product.productID, locale: self.appleLocale) != nil
  }
}
