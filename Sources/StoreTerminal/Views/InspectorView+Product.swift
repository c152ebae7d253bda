import StoreCommands
import StoreSimulation

extension InspectorPane {
  /// The selected product: prices, offers with eligibility, localizations.
  func productLines(_ product: CatalogProduct) -> [InspectorLine] {
    let sep = display.glyphs.separator
    let currency = session.settings.storefront.currency
    var lines = [
      InspectorLine(
        label: InspectorLabel.product.rawValue,
        text: "\(product.productID)\(sep)\(ProductKind(product.type).rawValue)"),
      InspectorLine(label: "Name", text: product.displayName(locale: session.settings.locale)),
      InspectorLine(
        label: InspectorLabel.price.rawValue,
        text:
          "\(prices(product.price, currency: currency))\(sep)written \"\(product.displayPrice)\""
          + (product.familyShareable ? "\(sep)family shareable" : "")),
    ]
    if let description = product.localizations.best(for: session.settings.locale)?.description,
      !description.isEmpty
    {
      lines.append(InspectorLine(label: "Description", text: description))
    }
    if let groupIndex = product.groupIndex, let period = product.period {
      let group = session.catalog.groups[groupIndex]
      lines.append(
        InspectorLine(
          label: "Subscription",
          text:
            "\(period.iso8601)\(sep)level \(product.level)\(sep)group \(group.name) (\(group.id))"))
      let eligible = session.isEligibleForIntroductoryOffer(groupID: group.id)
      if let intro = product.introductoryOffer {
        lines.append(
          InspectorLine(
            label: "Intro",
            text:
              "\(BuyDialog.describe(intro)) at \(prices(intro.price, currency: currency))\(sep)\(eligible ? "eligible" : "not eligible")"
          ))
      }
      for offer in product.promotionalOffers {
        lines.append(
          InspectorLine(
            label: "Promotional",
            text:
              "\(offer.id ?? "")\(sep)\(BuyDialog.describe(offer)) at \(prices(offer.price, currency: currency))"
          ))
      }
      for offer in product.codeOffers {
        let who = offer.eligibility.map(\.rawValue).joined(separator: "/")
        lines.append(
          InspectorLine(
            label: "Offer code",
            text:
              "\"\(offer.id ?? "")\"\(sep)\(BuyDialog.describe(offer))\(sep)for \(who)\(offer.isStackable ? "\(sep)stackable" : "")"
          ))
      }
      for offer in product.winBackOffers {
        lines.append(
          InspectorLine(
            label: "Win-back", text: "\(offer.id ?? "")\(sep)\(BuyDialog.describe(offer))"))
      }
    }
    lines.append(
      InspectorLine(
        label: "Locales", text: product.localizations.map(\.locale).joined(separator: ", ")))
    if let kind = session.commerceKind(ofProduct: product.productID) {
      lines.append(
        InspectorLine(
          label: InspectorLabel.commerce.rawValue,
          text: "generic Advanced Commerce product of "
            + (kind == .subscription ? "subscriptions" : "one-time charges")
            + "\(sep)bought with a request your server signs"))
    }
    lines.append(
      InspectorLine(
        label: "", text: "b buys it (choose quantity, offer and origin)",
        style: CellStyle(dim: true)))
    return lines
  }
}

extension SimulatedError {
  /// The SK1 error a failed payment carries, by name.
  var skErrorCodeName: String? {
    switch self {
    case .purchase(let code): code.rawValue
    case .generic(let code): code.rawValue
    default: nil
    }
  }
}
