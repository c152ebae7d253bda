import StoreSimulation

/// A full-screen list filtered as you type: the customers view and every customer's
/// transactions. The keys they treat alike are here once.
protocol FilteredList {
  /// The filter as typed.
  var filter: TextInput { get set }
  /// Whether the filter is being typed (keys edit it).
  var isFiltering: Bool { get set }
  /// Filters again after the filter's text changed.
  mutating func refilter(_ session: SessionView)
  /// Moves the selection by `delta` rows, within the list.
  mutating func move(by delta: Int)
}

extension FilteredList {
  /// Takes a key the lists treat alike: while the filter is typed, an edit of it (Enter keeps
  /// it, Esc clears it); otherwise `/` and the keys that move the selection (`page` rows a
  /// page). Whether the key was taken.
  mutating func takeListKey(_ key: Key, page: Int, _ session: SessionView) -> Bool {
    if isFiltering {
      switch key {
      case .enter: isFiltering = false
      case .escape:
        isFiltering = false
        filter = TextInput()
        refilter(session)
      default:
        filter.edit(key)
        refilter(session)
      }
      return true
    }
    switch key {
    case .character("/"): isFiltering = true
    case .up, .character("k"): move(by: -1)
    case .down, .character("j"): move(by: 1)
    case .pageUp: move(by: -page)
    case .pageDown: move(by: page)
    case .home, .character("g"): move(by: Int.min / 2)
    case .end, .character("G"): move(by: Int.max / 2)
    default: return false
    }
    return true
  }
}
