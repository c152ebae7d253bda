import StoreCommands
import StoreConfiguration
import StoreSimulation

/// A dialog or text line that takes the keys until it closes.
public enum Overlay: Equatable, Sendable {
  /// The keymap for the focused pane.
  case help
  /// The `:` command prompt.
  case prompt(TextInput)
  /// The `/` filter line.
  case filter(TextInput)
  /// Buying the selected product.
  case buy(BuyDialog)
  /// A question before something destructive.
  case confirm(String, Command)
  /// Refunding, asking for a refund, declining or reversing one.
  case refundReason(UInt64)
  /// Extending a subscription's renewal date.
  case extend(UInt64)
  /// Choosing a price-increase step.
  case priceIncrease(UInt64)
  /// The session's switches.
  case settings(Int)
}

/// A line of text being typed, with a cursor and history.
public struct TextInput: Equatable, Sendable {
  /// The text.
  public var text = ""
  /// The cursor, in characters.
  public var cursor = 0
  /// Position in the history while browsing it.
  public var historyIndex: Int?

  /// Inserts a character at the cursor.
  mutating func insert(_ character: Character) {
    let index = text.index(text.startIndex, offsetBy: cursor)
    text.insert(character, at: index)
    cursor += 1
  }

  /// Deletes the character before the cursor.
  mutating func backspace() {
    guard cursor > 0 else { return }
    let index = text.index(text.startIndex, offsetBy: cursor - 1)
    text.remove(at: index)
    cursor -= 1
  }

  /// Replaces the text, cursor at the end.
  mutating func set(_ value: String) {
    text = value
    cursor = value.count
  }
}

/// The buy dialog: quantity, offer, origin.
public struct BuyDialog: Equatable, Sendable {
  /// The product's index in the catalog.
  public var product: Int
  /// How many (consumables).
  public var quantity = 1
  /// The offers to choose from; the first is "none".
  public var offers: [(label: String, selection: OfferSelection?)]
  /// The chosen offer.
  public var offerIndex = 0
  /// Bought in the app or outside it.
  public var origin: PurchaseOrigin = .app
  /// How far back the purchase is dated (the Transaction Manager's purchase date).
  public var backDate = 0
  /// For a back-dated subscription: renew until now, or one period only.
  public var renewal: RenewalBehavior = .automatic
  /// The field with focus: 0 quantity, 1 offer, 2 origin, 3 date, 4 renewal.
  public var field = 0

  /// The purchase-date choices: now, or this long ago.
  static let backDates: [(label: String, milliseconds: Int64)] = [
    ("now", 0), ("1 hour ago", 3_600_000), ("1 day ago", 86_400_000), ("1 week ago", 604_800_000),
    ("30 days ago", 2_592_000_000),
  ]

  /// Dialogs are equal when their product, choices and focus are.
  public static func == (lhs: BuyDialog, rhs: BuyDialog) -> Bool {
    lhs.product == rhs.product && lhs.quantity == rhs.quantity && lhs.offerIndex == rhs.offerIndex
      && lhs.origin == rhs.origin && lhs.field == rhs.field && lhs.backDate == rhs.backDate
      && lhs.renewal == rhs.renewal
      && lhs.offers.map(\.label) == rhs.offers.map(\.label)
  }
}

/// The session's clock as the TUI runs it: the simulated now follows the wall clock at a fixed
/// offset while running, stands still while paused.
public struct ClockState: Equatable, Sendable {
  /// Whether time flows.
  public var running: Bool
  /// Wall time minus simulated time, in milliseconds.
  public var offset: Int64

  /// A clock.
  public init(running: Bool, offset: Int64) {
    self.running = running
    self.offset = offset
  }

  /// The simulated instant for a wall-clock instant.
  func simulated(at wall: Instant, current: Instant) -> Instant {
    running ? max(current, wall.adding(milliseconds: -offset)) : current
  }
}

/// Options that shape how the TUI looks.
public struct DisplayOptions: Equatable, Sendable {
  /// Colors in use.
  public var color: Bool
  /// The glyph set.
  public var glyphs: Glyphs

  /// Creates options.
  public init(color: Bool, glyphs: Glyphs) {
    self.color = color
    self.glyphs = glyphs
  }
}

/// One line of the product list: a heading or a product.
enum ProductEntry: Equatable {
  case heading(String)
  case product(Int)
}
