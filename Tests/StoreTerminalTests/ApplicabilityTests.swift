import StoreCommands
import StoreConfiguration
import StoreSimulation
import Testing

@testable import StoreTerminal

/// The inspector's keys and `run` share one answer to "can this apply now?": for every state
/// these scenarios reach, every transaction and every key that reaches the engine, what the
/// inspector says (allowed, or the reason shown dimmed) is what applying the same command the
/// way `run` does gives.
@Suite struct ApplicabilityTests {
  /// Scenarios, line by line; each line's state is checked.
  static let scenarios: [(String, [String])] = [
    (
      "purchases",
      ["buy foodtruck.donuts.box quantity=2", "buy foodtruck.saleshistory", "finish 0"]
    ),
    (
      "ask to buy",
      [
        "set ask-to-buy on", "buy socialfeed.monthly", "buy foodtruck.saleshistory",
        "decline 1", "approve 0",
      ]
    ),
    ("interrupted", ["set interrupted-purchases on", "buy socialfeed.yearly", "resolve 0"]),
    (
      "billing",
      [
        "set billing-retry on", "set grace-period on", "buy socialfeed.premium.monthly",
        "advance next", "advance next", "resolve last", "advance next",
      ]
    ),
    (
      "refunds",
      [
        "buy socialfeed.monthly", "advance next", "refund-request 0",
        "refund-decline 0", "refund 1", "refund-reverse 1", "refund 0 percentage=50",
      ]
    ),
    (
      "lifecycle",
      [
        "buy socialfeed.monthly", "price-increase request 0", "price-increase decline 0",
        "auto-renew 0 on", "extend 0 days=7", "buy socialfeed.premium.monthly",
        "expire socialfeed.premium.monthly",
        "advance 1d", "delete 0",
      ]
    ),
    (
      "failures",
      [
        "set fail-transactions paymentNotAllowed", "buy foodtruck.donuts.box",
        "set fail-transactions off", "buy socialfeed.monthly", "expire socialfeed.monthly",
      ]
    ),
  ]

  static let engineActions: [Action] = [
    .approve, .decline, .resolve, .refund, .extend, .toggleAutoRenew, .expire, .forceRenew,
    .priceIncrease, .finish, .finishAll, .delete, .nextEvent, .launch,
  ]

  /// The commands a target stands for.
  static func commands(_ target: KeyTarget, _ session: Session) -> [Command] {
    switch target {
    case .command(let request): [request.command]
    case .menu(let menu): menu.choices.map(\.command)
    case .confirm(_, let command): [command]
    case .buyDialog(let index):
      [.buy(productID: session.catalog.products[index].productID, options: PurchaseOptions())]
    case .refused: []
    }
  }

  /// What `run` makes of a command in this session: `nil` when it applies, else its error.
  static func run(_ command: Command, on session: Session) -> String? {
    var journaled = JournaledSession(session: session, journal: nil)
    do throws(CommandError) {
      try journaled.apply(command) { _ in }
      return nil
    } catch {
      return error.explanation
    }
  }

  @Test(arguments: scenarios.map(\.0))
  func theInspectorAndRunAgreeInEveryStateTheScenarioReaches(_ name: String) {
    let lines = Self.scenarios.first { $0.0 == name }!.1
    var app = makeApp()
    var checked = 0
    var refusals = 0
    for line in lines {
      app.perform(line: line)
      #expect(app.message?.isError != true, "\(name): \(line): \(app.message?.text ?? "")")
      for position in app.table.visible.indices {
        app.select(visibleIndex: position)
        for action in Self.engineActions {
          guard let target = app.state.target(of: action, session: app.viewedSession) else {
            Issue.record("\(action) does not reach the engine")
            continue
          }
          let answer = target.refusal(in: app.viewedSession)
          let commands = Self.commands(target, app.session)
          let outcomes = commands.map { Self.run($0, on: app.session) }
          // Allowed when any of its commands applies; else the first one's reason.
          let expected = outcomes.contains { $0 == nil } ? nil : outcomes.first ?? nil
          #expect(
            answer == expected,
            "\(name) after \"\(line)\", transaction \(app.table.selectedID ?? 0), \(action)")
          for (command, outcome) in zip(commands, outcomes) {
            #expect(
              command.refusal(in: app.viewedSession)?.explanation == outcome,
              "\(name) after \"\(line)\": \(command)")
            checked += 1
            if outcome != nil { refusals += 1 }
          }
        }
      }
    }
    #expect(checked > 20 && refusals > 5, "\(name): \(checked) commands, \(refusals) refused")
  }

  @Test func aForbiddenKeySaysTheEnginesReasonAndChangesNothing() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.saleshistory")
    app.press(.tab)
    let before = app.session.emittedEventCount
    let reason = app.state.refusal(of: .approve, session: app.viewedSession)
    #expect(reason == "transaction 0 is not awaiting approval (it is purchased)")
    app.press(.character("a"))
    #expect(app.message == StatusMessage(reason!, isError: true))
    #expect(app.session.emittedEventCount == before)
  }

  @Test func forbiddenKeysAreDimmedInTheKeyBarAndExplainedInTheHelp() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.saleshistory")
    app.press(.tab)
    let canvas = app.render(width: 140, height: 30, wall: start)
    let bar = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)[28]
    #expect(bar.contains("a approve"))
    func style(of word: String) -> CellStyle {
      let x = canvas.text.split(separator: "\n", omittingEmptySubsequences: false)[28]
        .distance(from: bar.startIndex, to: bar.range(of: word)!.lowerBound)
      return canvas.cells[28 * 140 + x].style
    }
    #expect(style(of: "approve").dim, "approve is refused for a purchase")
    #expect(!style(of: "finish").dim, "finish applies to an unfinished purchase")
    app.press(.character("?"))
    let help = app.screen(width: 140, height: 40)
    #expect(help.contains("approve Ask to Buy — not now: transaction 0 is not awaiting approval"))
    #expect(help.contains("finish the transaction  ") || !help.contains("finish the transaction —"))
  }

  @Test func aRefusedMenuChoiceIsDimmedWithItsReason() {
    var app = makeApp()
    app.perform(line: "buy foodtruck.saleshistory")
    app.press(.tab)
    app.press(.character("R"))
    let screen = app.screen(width: 140, height: 30)
    #expect(screen.contains("Apple reverses the refund (transaction 0 is not refunded"))
    #expect(
      screen.contains("refund (reason: other)  ") || screen.contains("refund (reason: other) "))
    app.press(.character("v"))
    #expect(app.message?.isError == true)
    #expect(app.overlay == nil)
  }
}
