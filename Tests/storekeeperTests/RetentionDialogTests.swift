import Foundation
import StoreTestSupport
import Testing

/// The inspector's `o` on a subscription: the subscription page's retention message in a dialog
/// before auto-renew is turned off, with keys to accept, cancel anyway, or keep.
@Suite(.serialized) struct RetentionDialogTests {
  static let message = "33333333-3333-4333-8333-333333333333"
  static let upload =
    "retention upload-message \(message) \"{\\\"header\\\":\\\"Stay for the new menu\\\","
    + "\\\"body\\\":\\\"New trucks every week.\\\"}\""

  @Test func theDefaultMessageComesFirstAndKeepOrCancelDecide() throws {
    let tmux = try TmuxSession(
      TerminalTests.start + ["Configs/FoodTruck.storekit"], width: 80, height: 24)
    tmux.waitFor("Products")
    tmux.command(
      "buy socialfeed.monthly", Self.upload,
      "retention default socialfeed.monthly en-US \(Self.message)")
    tmux.waitFor("retention default")
    tmux.send("Tab", "o")
    tmux.waitFor("Before you cancel Social Feed+ Monthly")
    // The box's last line may reach the pane a moment after its title.
    let dialog = tmux.waitFor("k or Esc keep")
    #expect(dialog.contains("Stay for the new menu") && dialog.contains("New trucks every week."))
    #expect(dialog.contains("c cancel anyway · k or Esc keep") && !dialog.contains("a switch"))
    tmux.send("k")
    let kept = tmux.waitFor("kept the subscription")
    #expect(kept.contains("auto-renew on"))
    tmux.send("o")
    tmux.waitFor("Before you cancel")
    tmux.send("c")
    tmux.waitFor("auto-renew off")
    tmux.send("q")
    tmux.waitFor("EXIT=0")
  }

  @Test func aSwitchPlanAnswerIsOfferedAndAcceptedWithA() throws {
    let answer =
      #"{"alternateProduct":{"messageIdentifier":"\#(Self.message)","productId":"socialfeed.premium.monthly"}}"#
    let endpoint = try WebhookServer(
      reply: .raw(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
          + "\(answer.utf8.count)\r\nConnection: close\r\n\r\n\(answer)"))
    defer { endpoint.stop() }
    let tmux = try TmuxSession(
      TerminalTests.start + ["Configs/FoodTruck.storekit"], width: 80, height: 24)
    tmux.waitFor("Products")
    tmux.command(
      "buy socialfeed.monthly", Self.upload,
      "retention url http://127.0.0.1:\(endpoint.port)/retention")
    tmux.waitFor("retention url")
    tmux.send("Tab", "o")
    let dialog = tmux.waitFor("a switch plan")
    #expect(dialog.contains("switch to Social Feed+ Premium ($14.99)"), "\(dialog)")
    #expect(!dialog.contains("switch switch"), "\(dialog)")
    #expect(dialog.contains("your server's answer (message 33333333…)"), "\(dialog)")
    #expect(endpoint.requests().count == 1, "the App Store asked the endpoint once")
    #expect(endpoint.bodies.first?.contains("signedPayload") == true)
    tmux.send("a")
    let accepted = tmux.waitFor("switched to Social Feed+ Premium")
    #expect(accepted.contains("socialfeed.premi"), "the upgrade's transaction is listed")
    tmux.send("q")
    tmux.waitFor("EXIT=0")
  }

  /// Opened by a `:` line (as the control endpoint opens it), `c` turns auto-renew off once and
  /// closes the dialog: the developer's server is asked once, one `retention show` journaled.
  @Test func openedByALineCancelAnywayTurnsAutoRenewOffOnce() throws {
    let answer = #"{"message":{"messageIdentifier":"\#(Self.message)"}}"#
    let endpoint = try WebhookServer(
      reply: .raw(
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: "
          + "\(answer.utf8.count)\r\nConnection: close\r\n\r\n\(answer)"))
    defer { endpoint.stop() }
    let journal = try temporaryFolder("retention-line").appendingPathComponent("s.journal").path
    let tmux = try TmuxSession(
      TerminalTests.start + ["Configs/FoodTruck.storekit", "--journal", journal], width: 80,
      height: 24)
    tmux.waitFor("Products")
    tmux.command(
      "buy socialfeed.monthly", Self.upload, "retention review message \(Self.message) approved",
      "retention url http://127.0.0.1:\(endpoint.port)/retention")
    tmux.waitFor("retention url")
    tmux.command("retention show")
    tmux.waitFor("c cancel anyway")
    tmux.send("c")
    let screen = tmux.waitFor("auto-renew turned off")
    #expect(!screen.contains("Before you cancel"), "the dialog closed")
    tmux.send("q")
    tmux.waitFor("EXIT=0")
    #expect(endpoint.requests().count == 1, "the server was asked once")
    let text = try String(contentsOfFile: journal, encoding: .utf8)
    #expect(text.components(separatedBy: "retention show").count - 1 == 1, "\(text)")
    #expect(text.contains("auto-renew 0 off"), "\(text)")
  }

  /// A server that refuses the connection: the default message at once, and why, in one line.
  @Test func theDialogSaysWhyItFellBackToTheDefault() throws {
    let port = refusingPort
    let tmux = try TmuxSession(
      TerminalTests.start + ["Configs/FoodTruck.storekit"], width: 100, height: 30)
    tmux.waitFor("Products")
    tmux.command(
      "buy socialfeed.monthly", Self.upload,
      "retention default socialfeed.monthly en-US \(Self.message)",
      "retention url http://127.0.0.1:\(port)/retention")
    tmux.waitFor("retention url")
    tmux.send("Tab", "o")
    let dialog = tmux.waitFor("k or Esc keep")
    #expect(dialog.contains("the default message"), "\(dialog)")
    #expect(dialog.contains("because your server's answer was not used"), "\(dialog)")
    #expect(dialog.contains("refused"), "\(dialog)")
    tmux.send("k")
    tmux.send("q")
    tmux.waitFor("EXIT=0")
  }

  @Test func withNothingToShowAutoRenewTurnsOffAtOnce() throws {
    let tmux = try TmuxSession(
      TerminalTests.start + ["Configs/FoodTruck.storekit"], width: 80, height: 24)
    tmux.waitFor("Products")
    tmux.command("buy socialfeed.monthly", Self.upload)
    tmux.waitFor("retention upload-message")
    tmux.send("Tab", "o")
    let screen = tmux.waitFor("auto-renew off")
    #expect(!screen.contains("Before you cancel"))
    tmux.send("q")
    tmux.waitFor("EXIT=0")
  }
}
