internal import StoreCommands

/// The transaction actions with a `UInt` identifier. Apple documents them with `Int`
/// (`refundTransaction(identifier: Int)`; the Objective-C header declares `NSUInteger`), and
/// much real code passes `UInt(transaction.id)`: both compile, and both name the same
/// transaction. An integer literal picks Apple's `Int`.
extension SKTestSession {
  /// ``deleteTransaction(identifier:)-(Int)`` with a `UInt`.
  public func deleteTransaction(identifier: UInt) throws {
    try act(.delete(try reference(identifier)))
  }

  /// ``enableAutoRenewForTransaction(identifier:)-(Int)`` with a `UInt`.
  public func enableAutoRenewForTransaction(identifier: UInt) throws {
    try act(.autoRenew(try reference(identifier), enabled: true))
  }

  /// ``disableAutoRenewForTransaction(identifier:)-(Int)`` with a `UInt`.
  public func disableAutoRenewForTransaction(identifier: UInt) throws {
    try act(.autoRenew(try reference(identifier), enabled: false))
  }

  /// ``refundTransaction(identifier:)-(Int)`` with a `UInt`.
  public func refundTransaction(identifier: UInt) throws {
    try act(.refund(try reference(identifier), reason: nil, share: nil))
  }

  /// ``resolveIssueForTransaction(identifier:)-(Int)`` with a `UInt`.
  public func resolveIssueForTransaction(identifier: UInt) throws {
    try act(.resolve(try reference(identifier)))
  }

  /// ``approveAskToBuyTransaction(identifier:)-(Int)`` with a `UInt`.
  public func approveAskToBuyTransaction(identifier: UInt) throws {
    try act(.approve(try reference(identifier)))
  }

  /// ``declineAskToBuyTransaction(identifier:)-(Int)`` with a `UInt`.
  public func declineAskToBuyTransaction(identifier: UInt) throws {
    try act(.decline(try reference(identifier)))
  }

  /// ``requestPriceIncreaseConsentForTransaction(identifier:)-(Int)`` with a `UInt`.
  public func requestPriceIncreaseConsentForTransaction(identifier: UInt) throws {
    try act(.priceIncrease(.request, try reference(identifier), price: nil))
  }

  /// ``consentToPriceIncreaseForTransaction(identifier:)-(Int)`` with a `UInt`.
  public func consentToPriceIncreaseForTransaction(identifier: UInt) throws {
    try act(.priceIncrease(.consent, try reference(identifier), price: nil))
  }

  /// ``declinePriceIncreaseForTransaction(identifier:)-(Int)`` with a `UInt`.
  public func declinePriceIncreaseForTransaction(identifier: UInt) throws {
    try act(.priceIncrease(.decline, try reference(identifier), price: nil))
  }
}
