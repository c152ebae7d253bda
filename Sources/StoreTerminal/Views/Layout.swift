/// Where each pane goes for a terminal size: side by side from 80 columns and 20 rows, stacked
/// below that, and a message below the minimum.
package struct Layout: Equatable, Sendable {
  /// The smallest usable terminal.
  package static let minimum = (width: 40, height: 12)

  /// The terminal's size.
  package let width: Int
  /// The terminal's height.
  package let height: Int
  /// Each shown pane and its rectangle.
  package private(set) var panes: [(Pane, Rect)] = []
  /// The bottom line.
  package let statusBar: Rect
  /// The line above it: the focused pane's keys, those the state forbids dimmed (from 16 rows).
  package let keyBar: Rect?

  /// Whether the terminal is smaller than ``minimum``.
  package var isTooSmall: Bool { width < Self.minimum.width || height < Self.minimum.height }

  /// Whether the panes are stacked (a narrow or short terminal).
  package var isStacked: Bool { width < 80 || height < 20 }

  /// Layouts are equal when their sizes and rectangles are.
  package static func == (lhs: Layout, rhs: Layout) -> Bool {
    lhs.width == rhs.width && lhs.height == rhs.height && lhs.statusBar == rhs.statusBar
      && lhs.keyBar == rhs.keyBar
      && lhs.panes.map(\.0) == rhs.panes.map(\.0) && lhs.panes.map(\.1) == rhs.panes.map(\.1)
  }

  /// The layout of a terminal.
  package init(width: Int, height: Int, showsLog: Bool, zoomed: Bool) {
    self.width = width
    self.height = height
    statusBar = Rect(x: 0, y: height - 1, width: width, height: 1)
    let tooSmall = width < Self.minimum.width || height < Self.minimum.height
    keyBar = !tooSmall && height >= 16 ? Rect(x: 0, y: height - 2, width: width, height: 1) : nil
    guard !tooSmall else { return }
    let area = height - 1 - (keyBar == nil ? 0 : 1)
    if zoomed {
      panes = [(.inspector, Rect(x: 0, y: 0, width: width, height: area))]
      return
    }
    if isStacked {
      let products = max(4, area * 22 / 100)
      let table = max(5, area * 38 / 100)
      let rest = area - products - table
      panes = [
        (.products, Rect(x: 0, y: 0, width: width, height: products)),
        (.transactions, Rect(x: 0, y: products, width: width, height: table)),
      ]
      if showsLog {
        let inspector = rest / 2
        panes.append((.inspector, Rect(x: 0, y: products + table, width: width, height: inspector)))
        panes.append(
          (
            .log,
            Rect(x: 0, y: products + table + inspector, width: width, height: rest - inspector)
          ))
      } else {
        panes.append((.inspector, Rect(x: 0, y: products + table, width: width, height: rest)))
      }
      return
    }
    let top = max(8, area * 56 / 100)
    let productWidth = max(30, min(48, width * 38 / 100))
    panes = [
      (.products, Rect(x: 0, y: 0, width: productWidth, height: top)),
      (.transactions, Rect(x: productWidth, y: 0, width: width - productWidth, height: top)),
    ]
    if showsLog {
      let inspectorWidth = width * 58 / 100
      panes.append((.inspector, Rect(x: 0, y: top, width: inspectorWidth, height: area - top)))
      panes.append(
        (.log, Rect(x: inspectorWidth, y: top, width: width - inspectorWidth, height: area - top)))
    } else {
      panes.append((.inspector, Rect(x: 0, y: top, width: width, height: area - top)))
    }
  }

  /// The rectangle of a pane, if shown.
  package func rect(of pane: Pane) -> Rect? { panes.first { $0.0 == pane }?.1 }
}
