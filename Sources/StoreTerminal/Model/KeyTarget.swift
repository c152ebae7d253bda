import StoreCommands
import StoreSimulation

/// What a key that reaches the engine would do now: a command, a menu or dialog of commands,
/// or nothing, with the reason.
enum KeyTarget: Equatable {
  /// Apply a command.
  case command(CommandRequest)
  /// Choose a command from a menu.
  case menu(ChoiceMenu)
  /// Ask before applying a command.
  case confirm(String, Command)
  /// Open the buy dialog for a product.
  case buyDialog(Int)
  /// Nothing to act on.
  case refused(String)

  /// Why the key cannot act now, or `nil` when it can: the engine's answer for a command; for
  /// a menu, the first choice's answer when every choice is refused.
  func refusal(in session: SessionView) -> String? {
    switch self {
    case .command(let request):
      return request.command.refusal(in: session).map(Self.reason)
    case .confirm(_, let command):
      return command.refusal(in: session).map(Self.reason)
    case .menu(let menu):
      let refusals = menu.choices.map { $0.command.refusal(in: session) }
      guard refusals.allSatisfy({ $0 != nil }), let first = refusals.first else { return nil }
      return first.map(Self.reason)
    case .buyDialog(let index):
      let product = session.catalog.products[index].productID
      // A generic Advanced Commerce product's dialog hands over the `:` line for a request.
      guard session.commerceKind(ofProduct: product) == nil else { return nil }
      return Command.buy(productID: product, options: PurchaseOptions()).refusal(in: session).map(
        Self.reason)
    case .refused(let why): return why
    }
  }

  /// A refusal as the status line and the help say it: the engine's reason and suggestions,
  /// without the command's text.
  static func reason(_ error: CommandError) -> String { error.explanation }
}

extension KeyTarget {
  /// What an action's key would do now on the selected transaction (`row`) or product, or
  /// `nil` for keys that do not reach the engine (moving, panes, overlays).
  static func of(
    _ action: Action, row: LedgerRow?, product: Int?, session: SessionView
  ) -> KeyTarget? {
    switch action {
    case .buy:
      guard let product else { return .refused("select a product first") }
      return .buyDialog(product)
    case .nextEvent:
      let next = session.nextScheduledEvent.map {
        "jumped to \(Formatting.clock($0)), the next scheduled event"
      }
      return .command(CommandRequest(.advance(.next), success: next))
    case .launch: return .command(CommandRequest(.launch))
    case .receipt: return .command(CommandRequest(.refreshReceipt))
    case .stepBack: return .command(CommandRequest(.stepBack(.event)))
    case .finishAll: return .command(CommandRequest(.finish(nil)))
    case .approve, .decline, .resolve, .refund, .extend, .toggleAutoRenew, .expire, .forceRenew,
      .priceIncrease, .finish, .delete, .seats:
      guard let row else {
        return .refused("select a transaction first (Tab to the Transactions pane)")
      }
      return transactionTarget(action, row: row, session: session)
    default: return nil
    }
  }

  private static func transactionTarget(
    _ action: Action, row: LedgerRow, session: SessionView
  ) -> KeyTarget {
    let id = TransactionReference.id(row.id)
    let product = session.catalog.products[Int(row.product)]
    let status = product.groupIndex.flatMap {
      session.status(forGroup: session.catalog.groups[$0].id)
    }
    func command(_ command: Command) -> KeyTarget { .command(CommandRequest(command)) }
    switch action {
    case .approve: return command(.approve(id))
    case .decline: return command(.decline(id))
    case .resolve: return command(.resolve(id))
    case .refund: return .menu(.refund(row.id))
    case .extend: return .menu(.extend(row.id))
    case .priceIncrease: return .menu(.priceIncrease(row.id))
    case .toggleAutoRenew:
      let off = Command.autoRenew(id, enabled: !(status?.renewalInfo.willAutoRenew ?? false))
      // Turning auto-renew off opens the subscription page: its retention message first.
      guard status?.renewalInfo.willAutoRenew == true, session.mayShowRetention(for: product)
      else { return command(off) }
      return .command(
        CommandRequest(.retention(.show(nil)), success: "the subscription page", then: off))
    case .expire, .forceRenew:
      // The subscription's current product: after an upgrade, not the selected row's.
      let current = status?.renewalInfo.currentProductID ?? product.productID
      return command(action == .expire ? .expire(productID: current) : .renew(productID: current))
    case .finish: return command(.finish(id))
    case .seats:
      guard let group = session.seatGroup(ofTransaction: row.id) else {
        return .refused(
          "not a multiseat subscription (buy one with seats: the buy dialog's Seats, or "
            + ":buy <productID> seats=N)")
      }
      return .menu(.seats(row.id, group, customers: session.customers))
    default:
      let question =
        row.originalID == row.id && product.groupIndex != nil
        ? "Delete transaction \(row.id) and every renewal of it?" : "Delete transaction \(row.id)?"
      return .confirm(question, .delete(id))
    }
  }

}

extension InspectorState {
  /// What an action's key would do now on the selection.
  func target(of action: Action, session: SessionView) -> KeyTarget? {
    // Buying outside the product list buys the selected transaction's product.
    let product =
      action == .buy && focus != .products
      ? table.selectedRow.map { Int($0.product) } ?? products.selectedProduct
      : products.selectedProduct
    return KeyTarget.of(action, row: table.selectedRow, product: product, session: session)
  }

  /// Why an action's key cannot act now (shown dimmed in the key bar and the help), or `nil`.
  package func refusal(of action: Action, session: SessionView) -> String? {
    target(of: action, session: session)?.refusal(in: session)
  }
}
