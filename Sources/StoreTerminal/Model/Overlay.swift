import StoreCommands
import StoreSimulation

/// A dialog or text line that takes the keys until it closes.
package enum Overlay: Equatable, Sendable {
  /// The help box: the focused pane's keys or the filter's syntax.
  case help(HelpOverlay)
  /// The `:` command prompt.
  case prompt(TextInput)
  /// The `/` filter line.
  case filter(FilterLine)
  /// The event log's search line (`/` in the log), and the search before it opened.
  case logSearch(TextInput, before: String)
  /// Buying the selected product.
  case buy(BuyDialog)
  /// A question before something destructive: `y` or Enter applies the command.
  case confirm(String, Command)
  /// A choice of commands, one key each (refunds, extensions, price increases).
  case menu(ChoiceMenu)
  /// The session's switches.
  case settings(Int)
  /// The customers view (`c`).
  case customers(CustomersView)
  /// Every customer's transactions (`t` in the customers view).
  case everyTransaction(EveryTransactionView)
  /// The subscription page's retention message, before auto-renew is turned off.
  case retention(RetentionDialog)
}

/// A small menu of commands, one key each. Choices the session refuses now are shown dimmed
/// with the engine's reason, and their keys say why instead of applying.
package struct ChoiceMenu: Equatable, Sendable {
  /// One choice.
  package struct Choice: Equatable, Sendable {
    /// The key that picks it.
    package var key: Key
    /// What it does, for a person.
    package var label: String
    /// The command it applies.
    package var command: Command
  }

  /// The box's title.
  package var title: String
  /// The choices, in order.
  package var choices: [Choice]
  /// The hint at the bottom.
  package var footer: String

  /// The choice a key picks, if any.
  func choice(for key: Key) -> Choice? { choices.first { $0.key == key } }

  /// The refund menu for a transaction: refund (other, developer issue, half), a customer's
  /// request, Apple declining it, Apple reversing a refund.
  static func refund(_ id: UInt64) -> ChoiceMenu {
    let txn = TransactionReference.id(id)
    return ChoiceMenu(
      title: "Refund transaction \(id)",
      choices: [
        Choice(
          key: .character("o"), label: "refund (reason: other)",
          command: .refund(txn, reason: .other)),
        Choice(
          key: .character("d"), label: "refund (reason: developer issue)",
          command: .refund(txn, reason: .developerIssue)),
        Choice(
          key: .character("h"), label: "refund half (prorated, 50%)",
          command: .refund(txn, reason: nil, share: 50_000)),
        Choice(
          key: .character("a"), label: "the customer asks Apple (CONSUMPTION_REQUEST)",
          command: .refundRequest(txn, reason: nil)),
        Choice(
          key: .character("n"), label: "Apple declines the request", command: .refundDecline(txn)),
        Choice(
          key: .character("v"), label: "Apple reverses the refund", command: .refundReverse(txn)),
      ], footer: "Esc cancel")
  }

  /// The extension menu: 1, 7, 30 or 90 days.
  static func extend(_ id: UInt64) -> ChoiceMenu {
    let days: [(Character, Int)] = [("1", 1), ("7", 7), ("3", 30), ("9", 90)]
    return ChoiceMenu(
      title: "Extend the renewal date · transaction \(id)",
      choices: days.map { key, count in
        Choice(
          key: .character(key), label: "\(count) day\(count == 1 ? "" : "s")",
          command: .extend(.id(id), days: count, reason: nil))
      }, footer: "days at the session's rate · Esc cancel")
  }

  /// The price-increase menu: request consent, consent, decline.
  static func priceIncrease(_ id: UInt64) -> ChoiceMenu {
    let steps: [(Character, PriceIncreaseAction, String)] = [
      ("r", .request, "request consent (sends the message)"), ("c", .consent, "consent"),
      ("d", .decline, "decline"),
    ]
    return ChoiceMenu(
      title: "Price increase · transaction \(id)",
      choices: steps.map { key, action, label in
        Choice(key: .character(key), label: label, command: .priceIncrease(action, .id(id)))
      }, footer: "Esc cancel")
  }

  /// The seats menu of a multiseat subscription: a seat more now, one fewer from the next
  /// renewal, Apple refunding one; for Apple-hosted invitations, a new member invited (the
  /// next free `memberN` name; `:group invite <name>` names one) and each of the first nine
  /// members removed.
  static func seats(_ id: UInt64, _ group: SeatGroup, customers: [Customer]) -> ChoiceMenu {
    let txn = TransactionReference.id(id)
    var choices = [
      Choice(
        key: .character("+"), label: "one seat more now (\(group.total + 1))",
        command: .seats(.change(txn, total: group.total + 1))),
      Choice(
        key: .character("-"),
        label: "one seat fewer from the next renewal (\(max(1, group.renewalTotal - 1)))",
        command: .seats(.change(txn, total: max(1, group.renewalTotal - 1)))),
      Choice(
        key: .character("r"), label: "Apple refunds a seat (REFUND / SEATS)",
        command: .seats(.refund(txn, seats: 1))),
    ]
    if group.invitations == .apple {
      let names = Set(customers.compactMap(\.name))
      let next = (1...).lazy.map { "member\($0)" }.first { !names.contains($0) }!
      choices.append(
        Choice(
          key: .character("i"), label: "invite a new member (\(next))",
          command: .seats(.invite(member: next))))
      let byNumber = Dictionary(customers.map { ($0.number, $0) }) { first, _ in first }
      for (place, member) in group.members.prefix(9).enumerated() {
        let name = byNumber[member.customer]?.name ?? "?"
        choices.append(
          Choice(
            key: .character(Character(String(place + 1))), label: "remove \(name)",
            command: .seats(.remove(member: name))))
      }
    }
    return ChoiceMenu(
      title: "Seats · transaction \(id)", choices: choices,
      footer: "members by name: :group invite|remove <name> · Esc cancel")
  }
}
