import StoreCommands
import StoreConfiguration
import StoreSimulation

/// What the subscription page shows before the customer cancels: the retention message (its
/// header, body, bullet points), the plan or offer it suggests with its price, and three ways
/// on: take the suggestion (`a`), cancel anyway (`c`), keep the subscription (`k`, Esc).
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
  /// What `a` takes, when the message suggests something.
  package var acceptLabel: String?
  /// What `c` applies: turning auto-renew off.
  package var cancel: Command

  /// The dialog for what the page showed.
  static func make(
    _ shown: RetentionDisplay, cancel: Command, session: SessionView
  )
    -> RetentionDialog
  {
    let locale = session.settings.locale
    func name(_ productID: String) -> String {
      session.catalog.index(of: productID).map {
        session.catalog.products[$0].displayName(locale: locale)
      } ?? productID
    }
    var lines: [Line] = []
    if let id = shown.messageID, let message = session.retention.messages[id] {
      let text = message.text
      lines.append(Line(label: "", text: text.header))
      if let alt = text.altText { lines.append(Line(label: "image", text: alt)) }
      lines.append(Line(label: "", text: text.body))
      for bullet in text.bullets { lines.append(Line(label: "•", text: bullet.text)) }
    }
    var accept: String?
    if let productID = shown.alternateProduct, let index = session.catalog.index(of: productID) {
      let product = session.catalog.products[index]
      let label = "switch to \(name(productID)) (\(Self.price(product.price, session)))"
      lines.append(Line(label: "switch", text: label))
      accept = label
    }
    if let offerID = shown.promotionalOffer, let productID = shown.offerProductID,
      let index = session.catalog.index(of: productID)
    {
      let product = session.catalog.products[index]
      let offer = product.promotionalOffers.first { $0.id == offerID }
      let price = offer.map { " at \(Self.price($0.price, session))" } ?? ""
      let label = "redeem \(offer?.referenceName ?? offerID) for \(name(productID))\(price)"
      lines.append(Line(label: "offer", text: label))
      accept = label
    }
    let source = shown.source == .realtime ? "your server's answer" : "the default message"
    lines.append(Line(label: "", text: "(\(source), \(shown.messageID?.prefix(8) ?? "")…)"))
    return RetentionDialog(
      title: "Before you cancel \(name(shown.productID))", lines: lines, acceptLabel: accept,
      cancel: cancel)
  }

  private static func price(_ milliunits: Int64, _ session: SessionView) -> String {
    PriceFormat(locale: session.settings.locale)(
      milliunits, currency: session.settings.storefront.currency)
  }

  /// The keys at the bottom.
  var footer: String {
    (acceptLabel == nil ? "" : "a accept · ") + "c cancel anyway · k or Esc keep"
  }
}

extension InspectorState {
  /// A key in the retention dialog.
  mutating func handleRetention(_ dialog: RetentionDialog, _ key: Key) -> [InspectorEffect] {
    switch key {
    case .character("a") where dialog.acceptLabel != nil:
      overlay = nil
      return [Self.apply(.retention(.accept), success: "retention offer accepted")]
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

  /// What a `retention show` came to: the dialog, or when the page shows no message, straight on
  /// with `then` (auto-renew off, as without Retention Messaging).
  mutating func retentionShown(
    _ events: [StoreEvent], then: Command?, session: SessionView
  ) -> [InspectorEffect] {
    let shown = events.lazy.compactMap { event -> RetentionDisplay? in
      if case .retention(.shown(let display)) = event.kind { display } else { nil }
    }.last
    guard let shown else { return [] }
    guard shown.source != .none else {
      return then.map { [Self.apply($0, success: "\($0) done")] } ?? []
    }
    let cancel = then ?? .retention(.show(nil))
    overlay = .retention(RetentionDialog.make(shown, cancel: cancel, session: session))
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
