import StoreConfiguration
import StoreSimulation

/// The product list's state: headings for types and groups, the products under them, a cursor
/// that skips headings.
struct ProductList {
  /// One line: a heading or a product.
  enum Entry: Equatable {
    case heading(String)
    case product(Int)
  }

  private(set) var entries: [Entry] = []
  private(set) var cursor = 0

  /// The selected product's catalog index.
  var selectedProduct: Int? {
    guard entries.indices.contains(cursor), case .product(let index) = entries[cursor] else {
      return nil
    }
    return index
  }

  /// The products, grouped by type and subscription group (named in the session's locale).
  mutating func rebuild(_ session: SessionView) {
    let catalog = session.catalog
    var entries: [Entry] = []
    let sections: [(String, ProductType)] = [
      ("Consumables", .consumable), ("Non-Consumables", .nonConsumable),
      ("Non-Renewing", .nonRenewingSubscription),
    ]
    for (title, type) in sections {
      let members = catalog.products.indices.filter {
        catalog.products[$0].type == type && catalog.products[$0].isAvailable
      }
      if members.isEmpty { continue }
      entries.append(.heading(title))
      entries += members.map { .product($0) }
    }
    for group in catalog.groups where !group.productIndices.isEmpty {
      let name = group.localizations.best(for: session.settings.locale)?.displayName ?? group.name
      entries.append(.heading(name.isEmpty ? group.id : name))
      entries += group.productIndices.sorted {
        catalog.products[$0].level < catalog.products[$1].level
      }
      .map { .product($0) }
    }
    self.entries = entries
    if selectedProduct == nil {
      cursor = productPositions.first { $0 >= cursor } ?? productPositions.last ?? 0
    }
  }

  private var productPositions: [Int] {
    entries.indices.filter { if case .product = entries[$0] { true } else { false } }
  }

  /// Moves the cursor by `delta` products (headings skipped), stopping at either end.
  mutating func move(by delta: Int) {
    let positions = productPositions
    guard !positions.isEmpty else { return }
    let current = positions.firstIndex { $0 >= cursor } ?? positions.count - 1
    let target = current.addingReportingOverflow(delta).partialValue
    cursor = positions[max(0, min(positions.count - 1, target))]
  }

  /// Puts the cursor on an entry, when it is a product.
  mutating func select(entry index: Int) {
    if entries.indices.contains(index), case .product = entries[index] { cursor = index }
  }
}
