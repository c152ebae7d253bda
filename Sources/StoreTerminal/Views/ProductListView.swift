import StoreSimulation

/// The product list pane.
struct ProductListView: ScreenPart {
  let screen: Screen

  /// The product list: headings for types and groups, the localized name, the price in the
  /// storefront's currency, offer tags, and marks for what the customer holds.
  func drawProducts(into canvas: inout Canvas, _ rect: Rect) {
    let glyphs = display.glyphs
    canvas.box(rect, title: "Products", focused: focus == .products, glyphs: glyphs)
    let inner = rect.inner
    guard inner.height > 0 else { return }
    let entitled = entitledProducts
    let top = scrollTop(selected: products.cursor, height: inner.height)
    let currency = session.settings.storefront.currency
    for row in 0..<inner.height {
      let index = top + row
      guard products.entries.indices.contains(index) else { break }
      let y = inner.y + row
      switch products.entries[index] {
      case .heading(let title):
        canvas.put(
          title, x: inner.x, y: y, limit: inner.width,
          style: styled(CellStyle(foreground: .blue, bold: true)))
      case .product(let productIndex):
        let product = session.catalog.products[productIndex]
        let selected = index == products.cursor
        let mark =
          selected ? glyphs.selected : entitled.contains(product.productID) ? glyphs.owned : " "
        let level = product.groupIndex != nil ? "L\(product.level) " : ""
        let price = prices(product.price, currency: currency)
        var tags: [String] = []
        if product.introductoryOffer != nil { tags.append("intro") }
        if !product.promotionalOffers.isEmpty { tags.append("promo") }
        if !product.codeOffers.isEmpty { tags.append("code") }
        if !product.winBackOffers.isEmpty { tags.append("win-back") }
        if session.commerceKind(ofProduct: product.productID) != nil { tags.append("ACA") }
        let name = product.displayName(locale: session.settings.locale)
        let right = price
        let nameWidth = inner.width - 2 - TextCells.width(right) - 1
        // Tags are never dropped: cramped, they shrink to initials ([IPCW]) and the name is
        // cut instead.
        let full = tags.isEmpty ? "" : " [" + tags.joined(separator: ",") + "]"
        let initials =
          tags.isEmpty ? "" : " [" + tags.map { $0.prefix(1).uppercased() }.joined() + "]"
        let tagText =
          TextCells.width(level + name + full) <= nameWidth
            || nameWidth - TextCells.width(full) >= 12 ? full : initials
        let title =
          TextCells.truncate(
            level + name, to: max(1, nameWidth - TextCells.width(tagText)),
            ellipsis: glyphs.ellipsis) + tagText
        var style = CellStyle(
          reverse: selected && focus == .products, underline: selected && focus != .products)
        if entitled.contains(product.productID) { style.bold = true }
        canvas.fill(Rect(x: inner.x, y: y, width: inner.width, height: 1), style: style)
        canvas.put(mark, x: inner.x, y: y, limit: 2, style: style)
        canvas.put(
          TextCells.truncate(title, to: nameWidth, ellipsis: glyphs.ellipsis), x: inner.x + 2, y: y,
          style: style)
        canvas.put(right, x: inner.x + inner.width - TextCells.width(right), y: y, style: style)
      }
    }
  }
}
