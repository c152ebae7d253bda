internal import StoreCommands
internal import StoreSimulation

extension SKTestError.Code {
  /// StoreKitTest's code for what the engine refused: a missing transaction, product or
  /// subscription, a product of the wrong type, and otherwise an action the state forbids.
  init(_ refusal: Refusal?) {
    // Every family named, so that a new family is a compile error here until it has its code;
    // a new refusal gets its family's unless it is named.
    switch refusal {
    case nil: self = .invalidAction
    case .lookup(.noProduct)?:
      self = .invalidProductIdentifier
    case .lookup?:
      self = .noTransactionFound
    case .purchase(.introJWSNeedsSubscription)?, .purchase(.offerOnOneTimeProduct)?,
      .subscription(.notAutoRenewable)?, .subscription(.productNotAutoRenewable)?,
      .family(.kindNotShared)?, .family(.notFamilyShareable)?:
      self = .invalidProductType
    case .subscription(.notPartOfSubscription)?, .subscription(.subscriptionOver)?,
      .subscription(.noActiveSubscription)?:
      self = .noSubscriptionFound
    case .purchase?, .refund?, .subscription?, .clock?, .call?, .bareSession?, .imported?,
      .customer?, .family?, .retention?, .seats?, .commerce?:
      self = .invalidAction
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
