internal import StoreCommands
internal import StoreSimulation

extension SKTestError.Code {
  /// StoreKitTest's code for what the engine refused: a missing transaction, product or
  /// subscription, a product of the wrong type, and otherwise an action the state forbids.
  init(_ refusal: Refusal?) {
    switch refusal {
    case .noTransaction, .noLastTransaction, .noTransactionOfProduct: self = .noTransactionFound
    case .noProduct: self = .invalidProductIdentifier
    case .introJWSNeedsSubscription, .offerOnOneTimeProduct, .notAutoRenewable,
      .productNotAutoRenewable, .kindNotShared, .notFamilyShareable:
      self = .invalidProductType
    case .notPartOfSubscription, .subscriptionOver, .noActiveSubscription:
      self = .noSubscriptionFound
    default: self = .invalidAction
    }
  }
}

extension SKTestError {
  /// A command's error as StoreKitTest's: the code of the engine's refusal (`invalidAction`
  /// for a line that is not a command) and `text` as its message.
  init(_ error: CommandError, _ text: String) {
    self.init(Code(error.refusal), text)
  }
}
