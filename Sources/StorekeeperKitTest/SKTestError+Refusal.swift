internal import StoreCommands
internal import StoreSimulation

extension SKTestError.Code {
  /// StoreKitTest's code for what the engine refused: a missing transaction, product or
  /// subscription, a product of the wrong type, and otherwise an action the state forbids.
  init(_ refusal: Refusal?) {
    // Every refusal named, so that a new one is a compile error here until it has its code.
    switch refusal {
    case nil: self = .invalidAction
    case .noTransaction?, .noLastTransaction?, .noTransactionOfProduct?:
      self = .noTransactionFound
    case .noProduct?:
      self = .invalidProductIdentifier
    case .introJWSNeedsSubscription?, .offerOnOneTimeProduct?, .notAutoRenewable?,
      .productNotAutoRenewable?, .kindNotShared?, .notFamilyShareable?:
      self = .invalidProductType
    case .notPartOfSubscription?, .subscriptionOver?, .noActiveSubscription?:
      self = .noSubscriptionFound
    case .quantityOutOfRange?, .priceOverflow?, .purchaseDateInFuture?, .alreadyPurchased?,
      .commerce?,
      .backdatedTooManyRenewals?, .memberCannotBuy?, .noIntroductoryOffer?, .noSuchOffer?,
      .noSuchWinBackOffer?, .noSuchBillingPlan?, .offerWithMonthlyPlan?,
      .noCommitmentsInStorefront?, .notAwaitingApproval?, .alreadyDeclined?, .noIssueToResolve?,
      .noLongerInBillingRetry?, .neverPurchased?, .alreadyRefunded?, .refundPercentageOutOfRange?,
      .refundRequestWaiting?, .noRefundRequest?, .notRefunded?, .boughtAgainSinceRefund?,
      .noConsumptionRequest?, .consumptionRequestTooOld?, .neverPaidFor?, .familySharedTransaction?,
      .notOriginalTransaction?, .autoRenewAlready?, .newPriceNotAboveZero?, .priceOnlyOnRequest?,
      .noPriceIncreasePending?, .alreadyFinished?, .notLatestRun?, .notExtendable?,
      .unknownStorefront?, .extensionDaysOutOfRange?, .clockBackwards?, .clockBeyondLatest?,
      .tooManyEvents?, .nothingScheduled?, .callExercisedByBuying?, .refundRequestNeedsTransaction?,
      .tokenCreatedInFuture?, .tokenExpiresBeforeCreation?, .externalPurchaseIDNotOneWord?,
      .noSuchMember?, .alreadyInFamily?, .familyFull?, .familyNamesUsedUp?, .notInFamily?,
      .invalidMemberName?, .sharingAlready?, .invalidCustomerName?, .noSuchCustomer?, .retention?,
      .customerNumberWithoutName?, .customerNumberNotTheirs?, .customerNumberOutOfRange?,
      .customerNumberTaken?, .stepBackNeedsHistory?, .notifyNeedsDelivery?, .importedIDTaken?,
      .noImportedSubscription?, .importedIDNotDecimal?, .seats?:
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
