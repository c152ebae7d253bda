import Foundation
import StoreCommands
import StoreConfiguration
import StoreSimulation
import StoreTestSupport

@testable import StoreTerminal

let start = Instant(iso8601: "2026-11-22T02:00:00Z")!

/// An app on a bundled configuration, without a journal, the clock paused at `start`.
func makeApp(
  _ name: String = "FoodTruck",
  display: DisplayOptions = DisplayOptions(color: true, glyphs: .unicode),
  clock: ClockState = ClockState(running: false, offset: 0),
  configure: (inout StoreKitConfiguration) -> Void = { _ in }
) -> App {
  TextCells.prepareLocale()
  let path = packageRoot.appendingPathComponent("Configs/\(name).storekit").path
  var configuration = StoreKitConfiguration.load(contentsOf: path).configuration!
  configure(&configuration)
  let session = Session(configuration: configuration, start: start)
  return App(
    journaled: JournaledSession(session: session, journal: nil), configurationPath: path,
    configurationBytes: configuration.xcodeFormattedBytes(), display: display, clock: clock)
}

extension App {
  /// Presses keys at `start`.
  mutating func press(_ keys: Key...) {
    for key in keys { handle(key, wall: start) }
  }

  /// Selects the table's row at `position` (of those shown) with the keys a person uses.
  mutating func select(visibleIndex position: Int) {
    press(.home)
    for _ in 0..<position { press(.down) }
  }

  /// Types text.
  mutating func type(_ text: String) {
    for character in text { handle(.character(character), wall: start) }
  }

  /// The screen as text.
  func screen(width: Int = 100, height: Int = 30) -> String {
    render(width: width, height: height, wall: start).text
  }
}
