internal import Foundation
internal import StoreCommands
internal import StoreSimulation
public import StorekeeperKit

/// The Transaction Manager's actions: each is the command of the same name in the command
/// language, through the session's host (journaled, and seen by the app as in `run`).
extension SKTestSession {
  /// Every transaction of the session, oldest first.
  public func allTransactions() -> [SKTestTransaction] {
    store.read { session in session.allTransactions().map { SKTestTransaction($0, in: session) } }
  }

  /// Deletes every transaction.
  public func clearTransactions() { store.perform(.clear) }

  /// Deletes a transaction, as if it never happened.
  public func deleteTransaction(identifier: Int) throws {
    try act(.delete(try reference(identifier)))
  }

  /// Every setting back to the configuration file's.
  public func resetToDefaultState() { store.perform(.reset) }

  /// Expires a subscription now.
  public func expireSubscription(productIdentifier: String) throws {
    try act(.expire(productID: productIdentifier))
  }

  /// Renews a subscription now.
  public func forceRenewalOfSubscription(productIdentifier: String) throws {
    try act(.renew(productID: productIdentifier))
  }

  /// Turns a subscription's auto-renew on.
  public func enableAutoRenewForTransaction(identifier: Int) throws {
    try act(.autoRenew(try reference(identifier), enabled: true))
  }

  /// Turns a subscription's auto-renew off.
  public func disableAutoRenewForTransaction(identifier: Int) throws {
    try act(.autoRenew(try reference(identifier), enabled: false))
  }

  /// The App Store refunds a transaction (off the device).
  public func refundTransaction(identifier: Int) throws {
    try act(.refund(try reference(identifier), reason: nil, share: nil))
  }

  /// Resolves an interrupted purchase or a billing issue.
  public func resolveIssueForTransaction(identifier: Int) throws {
    try act(.resolve(try reference(identifier)))
  }

  /// A parent approves an Ask to Buy request.
  public func approveAskToBuyTransaction(identifier: Int) throws {
    try act(.approve(try reference(identifier)))
  }

  /// A parent declines an Ask to Buy request.
  public func declineAskToBuyTransaction(identifier: Int) throws {
    try act(.decline(try reference(identifier)))
  }

  /// The App Store asks the customer to consent to a price increase.
  public func requestPriceIncreaseConsentForTransaction(identifier: Int) throws {
    try act(.priceIncrease(.request, try reference(identifier), price: nil))
  }

  /// The customer consents to the price increase.
  public func consentToPriceIncreaseForTransaction(identifier: Int) throws {
    try act(.priceIncrease(.consent, try reference(identifier), price: nil))
  }

  /// The customer declines the price increase.
  public func declinePriceIncreaseForTransaction(identifier: Int) throws {
    try act(.priceIncrease(.decline, try reference(identifier), price: nil))
  }

  /// Buys a product outside the app (the Transaction Manager's "+"): the transaction arrives
  /// on `Transaction.updates`.
  @available(
    *, deprecated, message: "Use the Swift API: SKTestSession.buyProduct(identifier:, options:)"
  )
  public func buyProduct(productIdentifier: String) throws {
    _ = try buy(productIdentifier, options: [])
  }

  /// Buys a product outside the app with purchase options: the transaction, which also
  /// arrives on `Transaction.updates`.
  @discardableResult
  public func buyProduct(
    identifier: Product.ID, options: Set<Product.PurchaseOption> = []
  ) async throws -> StorekeeperKit.Transaction {
    try buy(identifier, options: options)
  }

  private func buy(
    _ productID: String, options: Set<Product.PurchaseOption>
  ) throws -> StorekeeperKit.Transaction {
    let result = try store.purchase(
      productID, options: options, origin: .store, refused: { SKTestError($0, $0.explanation) })
    switch result {
    case .success(let result): return result.unsafePayloadValue
    default: throw SKTestError(.invalidAction, "the purchase of \(productID) did not complete")
    }
  }

  /// The transaction an identifier names (an `Int` as Apple declares it, or the `UInt` code
  /// often passes); a negative one names none.
  func reference(_ identifier: some BinaryInteger) throws -> TransactionReference {
    guard let id = UInt64(exactly: identifier) else {
      throw SKTestError(.noTransactionFound, "no transaction has the identifier \(identifier)")
    }
    return .id(id)
  }

  /// Applies a command; the engine's refusal as `SKTestError`.
  func act(_ command: Command) throws {
    let outcome = store.perform(command)
    if let error = outcome.error {
      throw SKTestError(error, error.explanation)
    }
  }
}
