/// Where a value sits in a JSON document, written the way people read it:
/// `subscriptionGroups[0].subscriptions[1].introductoryOffer.subscriptionPeriod`.
public struct JSONPath: Hashable, Sendable, CustomStringConvertible {
  enum Component: Hashable, Sendable {
    case key(String)
    case index(Int)
  }

  private(set) var components: [Component]

  /// The document's root.
  public static let root = JSONPath(components: [])

  /// The path of the member `key` of the object at this path.
  public func appending(_ key: String) -> JSONPath {
    JSONPath(components: components + [.key(key)])
  }

  /// The path of the element at `index` of the array at this path.
  public func appending(index: Int) -> JSONPath {
    JSONPath(components: components + [.index(index)])
  }

  /// Whether this is the root path.
  public var isRoot: Bool { components.isEmpty }

  /// The path in dotted form; the root is written `(root)`.
  public var description: String {
    guard !components.isEmpty else { return "(root)" }
    var text = ""
    for component in components {
      switch component {
      case .key(let key):
        if !text.isEmpty { text += "." }
        text += key
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
  }
}
