import StoreSimulation

extension Command {
  /// Applies the command to a session at its present, handing the events to `sink`.
  ///
  /// - Parameter maximumEvents: not used; the session's own limit applies.
  /// - Throws: ``CommandError`` (with this command's text) when the session refuses it; the
  ///   session is unchanged then.
  public func apply(to session: inout Session, _ sink: EventSink) throws(CommandError) {
    do throws(SessionError) {
      try perform(on: &session, sink)
    } catch {
      throw CommandError(error.message, suggestions: error.suggestions, command: description)
    }
  }

  private func perform(on session: inout Session, _ sink: EventSink) throws(SessionError) {
    func id(_ reference: TransactionReference) throws(SessionError) -> UInt64 {
      try reference.resolve(in: session)
    }
    switch self {
    case .buy(let productID, let options): try session.buy(productID, options, sink)
    case .approve(let reference): try session.approveAskToBuy(try id(reference), sink)
    case .decline(let reference): try session.declineAskToBuy(try id(reference), sink)
    case .resolve(let reference): try session.resolveIssue(try id(reference), sink)
    case .refund(let reference, let reason, let share):
      try session.refund(try id(reference), reason: reason ?? .other, share: share, sink)
    case .refundRequest(let reference, let reason):
      try session.requestRefund(try id(reference), reason: reason ?? .other, sink)
    case .refundDecline(let reference): try session.declineRefund(try id(reference), sink)
    case .refundReverse(let reference): try session.reverseRefund(try id(reference), sink)
    case .extend(let reference, let days, let reason):
      try session.extendRenewalDate(
        try id(reference), days: days, reason: reason ?? .undeclared, sink)
    case .extendAll(let productID, let days, let reason, let request):
      try session.extendRenewalDates(
        of: productID, days: days, reason: reason ?? .undeclared, requestIdentifier: request,
        sink)
    case .autoRenew(let reference, let enabled):
      try session.setAutoRenew(try id(reference), enabled: enabled, sink)
    case .expire(let productID): try session.expireSubscription(productID, sink)
    case .renew(let productID): try session.forceRenewal(productID, sink)
    case .restore: session.restore(sink)
    case .clear: session.clear(sink)
    case .reset: session.resetSettings()
    case .launch: session.launch(sink)
    case .priceIncrease(let action, let reference):
      try session.priceIncrease(action, try id(reference), sink)
    case .finish(let reference):
      if let reference {
        try session.finish(try id(reference), sink)
      } else {
        session.finishAll(sink)
      }
    case .delete(let reference): try session.delete(try id(reference), sink)
    case .advance(.next): try session.advanceToNextEvent(sink)
    case .advance(.by(let duration)): try session.advance(to: duration.after(session.now), sink)
    case .advance(.to(let instant)): try session.advance(to: instant, sink)
    case .set(let change): try change.apply(to: &session)
    case .call(let api, let reference, let reason):
      try session.call(api, transaction: try reference.map(id), reason: reason ?? .other, sink)
    }
  }
}

extension TransactionReference {
  /// The id this reference names in `session`.
  public func resolve(in session: Session) throws(SessionError) -> UInt64 {
    switch self {
    case .id(let id): return id
    case .last:
      guard let id = session.lastTransactionID() else {
        throw SessionError(.noTransactionFound, "there is no transaction yet, so no last one")
      }
      return id
    case .lastOf(let productID):
      guard session.catalog.index(of: productID) != nil else {
        throw SessionError(
          .invalidProductIdentifier, "there is no product \"\(productID)\" in the configuration",
          suggestions: session.catalog.productIDs(closeTo: productID))
      }
      guard let id = session.lastTransactionID(productID: productID) else {
        throw SessionError(.noTransactionFound, "there is no transaction for \(productID)")
      }
      return id
    }
  }
}

extension SettingChange {
  func apply(to session: inout Session) throws(SessionError) {
    switch self {
    case .askToBuy(let flag): session.updateSettings { $0.askToBuyEnabled = flag }
    case .interruptedPurchases(let flag):
      session.updateSettings { $0.interruptedPurchasesEnabled = flag }
    case .billingRetry(let flag):
      session.updateSettings { $0.shouldEnterBillingRetryOnRenewal = flag }
    case .gracePeriod(let flag): session.updateSettings { $0.billingGracePeriodIsEnabled = flag }
    case .dialogs(let flag): session.updateSettings { $0.disableDialogs = !flag }
    case .failTransactions(let code):
      session.updateSettings {
        $0.failTransactionsEnabled = code != nil
        if let code { $0.failureError = code }
      }
    case .simulatedError(let api, let error):
      session.updateSettings { $0.simulatedErrors[api] = error }
    case .timeRate(let rate): session.updateSettings { $0.timeRate = rate }
    case .storefront(let code):
      guard let storefront = Storefront(countryCode: code) else {
        throw SessionError(.invalidAction, "\"\(code)\" is not a known storefront")
      }
      session.updateSettings { $0.storefront = storefront }
    case .locale(let locale): session.updateSettings { $0.locale = locale }
    case .winBackEligible(let offerID, let flag):
      try session.setWinBackEligibility(offerID, eligible: flag)
    }
  }
}
