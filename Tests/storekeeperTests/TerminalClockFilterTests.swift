import Foundation
import StoreTestSupport
import Testing

/// The real binary at the real clock (no `--start`), as a newcomer opens it: the filter's date
/// words mean the session's own day, and a purchase's outcome reads whole at 80 columns.
@Suite(.serialized, .enabled(if: tmuxIsAvailable, "tmux is not installed"))
struct TerminalClockFilterTests {
  /// Waits out the last seconds of a UTC day, so that a purchase and the filter that follows it
  /// fall on the same day.
  func awayFromMidnight() {
    let secondOfDay = Int(Date().timeIntervalSince1970) % 86_400
    if secondOfDay > 86_400 - 20 { sleep(UInt32(86_400 - secondOfDay + 1)) }
  }

  /// Clears the filter (Esc), then types a new one and keeps it.
  func filter(_ tmux: TmuxSession, _ text: String) {
    tmux.send("Escape", "/")
    tmux.type(text)
    tmux.send("Enter")
  }

  @Test func relativeDateWordsMeanTheSessionsOwnToday() throws {
    awayFromMidnight()
    let tmux = try TmuxSession([], width: 80, height: 24)
    tmux.waitFor("Products")
    tmux.command("buy foodtruck.donuts.box", "buy foodtruck.saleshistory")
    tmux.waitFor("1 foodtruck.sa")
    tmux.send("Tab")
    for word in ["today", "7d", "this-month", "this-year", "on:today", "after:24h"] {
      filter(tmux, word)
      tmux.waitFor("\(word)  (2 of 2)")
    }
    filter(tmux, "yesterday")
    tmux.waitFor("yesterday  (0 of 2)")
    // Two days on, the purchases are no longer today's but still within the week; the filter
    // in force follows the clock.
    filter(tmux, "today")
    tmux.waitFor("today  (2 of 2)")
    tmux.command("advance 2d")
    tmux.waitFor("today  (0 of 2)")
    filter(tmux, "7d")
    tmux.waitFor("7d  (2 of 2)")
    filter(tmux, "yesterday")
    tmux.waitFor("yesterday  (0 of 2)")
    tmux.send("q")
    tmux.waitFor("STTY-DONE")
  }

  @Test func anInterruptedPurchaseSaysSoFirstAt80Columns() throws {
    let tmux = try TmuxSession(["--start", "2026-11-22T02:00:00Z"], width: 80, height: 24)
    tmux.waitFor("Products")
    tmux.command("set interrupted-purchases on", "buy socialfeed.premium.monthly")
    tmux.waitFor(".pending: interrupted — r resolves it")
    tmux.command("set interrupted-purchases off", "set ask-to-buy on", "buy socialfeed.monthly")
    tmux.waitFor(".pending: Ask to Buy — a approves, D declines")
    tmux.send("q")
    tmux.waitFor("STTY-DONE")
  }
}
