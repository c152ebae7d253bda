import StoreJSON
import StoreSimulation

extension FetchedHistory {
  /// The product ids the history names that `catalog` lacks, each with the catalog's closest
  /// products; empty when the configuration can hold the customer.
  public func missingProducts(in catalog: Catalog) -> [(productID: String, suggestions: [String])] {
    var named: [String] = []
    for payload in transactions + renewalInfos {
      for key in ["productId", "autoRenewProductId"] {
        if case .string(let id)? = payload[key], !named.contains(id) { named.append(id) }
      }
    }
    return named.filter { catalog.index(of: $0) == nil }.map {
      ($0, catalog.productIDs(closeTo: $0))
    }
  }

  /// Why the history cannot be imported into a session on `catalog`, if it cannot: the
  /// products it lacks, named, with suggestions.
  public func refusal(for catalog: Catalog, configurationPath: String) -> ImportError? {
    let missing = missingProducts(in: catalog)
    guard !missing.isEmpty else { return nil }
    let lines = missing.map { item in
      "\"\(item.productID)\""
        + (item.suggestions.isEmpty
          ? "" : " (did you mean \(item.suggestions.joined(separator: ", "))?)")
    }
    return ImportError(
      "\(configurationPath) has no product " + lines.joined(separator: ", ")
        + ": the customer's history names it; add it to the configuration or import with another")
  }
}
