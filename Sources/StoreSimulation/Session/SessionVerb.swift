/// A verb of the session with its arguments resolved: what every way into the engine (a key, a
/// `:` line, a script line, a journal record, the live clock) comes down to.
///
/// ``Session/refusal(_:)`` says whether it can apply now and, if not, why; ``Session/perform(_:_:)``
/// applies it. Every verb checks its refusal first, so the two never disagree.
public enum SessionVerb: Equatable, Sendable {
  /// ``Session/buy(_:_:_:)``.
  case buy(productID: String, options: PurchaseOptions)
  /// ``Session/approveAskToBuy(_:_:)``.
  case approveAskToBuy(UInt64)
  /// ``Session/declineAskToBuy(_:_:)``.
  case declineAskToBuy(UInt64)
  /// ``Session/resolveIssue(_:_:)``.
  case resolveIssue(UInt64)
  /// ``Session/refund(_:reason:share:_:)``; `share`: a prorated refund in thousandths of a
  /// percent, `nil` for a full one.
  case refund(UInt64, reason: RevocationReason, share: Int?)
  /// ``Session/requestRefund(_:reason:_:)``.
  case requestRefund(UInt64, reason: RefundRequestReason)
  /// ``Session/declineRefund(_:_:)``.
  case declineRefund(UInt64)
  /// ``Session/reverseRefund(_:_:)``.
  case reverseRefund(UInt64)
  /// ``Session/setAutoRenew(_:enabled:_:)``.
  case setAutoRenew(UInt64, enabled: Bool)
  /// ``Session/expireSubscription(_:_:)``.
  case expireSubscription(productID: String)
  /// ``Session/forceRenewal(_:_:)``.
  case forceRenewal(productID: String)
  /// ``Session/priceIncrease(_:_:newPrice:_:)``.
  case priceIncrease(PriceIncreaseAction, UInt64, newPrice: Int64? = nil)
  /// ``Session/finish(_:_:)``.
  case finish(UInt64)
  /// ``Session/finishAll(_:)``.
  case finishAll
  /// ``Session/delete(_:_:)``.
  case delete(UInt64)
  /// ``Session/clear(_:)``.
  case clear
  /// ``Session/restore(_:)``.
  case restore
  /// ``Session/launch(_:)``.
  case launch
  /// ``Session/advance(to:_:)``.
  case advance(to: Instant)
  /// ``Session/advanceToNextEvent(_:)``.
  case advanceToNextEvent
  /// ``Session/extendRenewalDate(_:days:reason:_:)``.
  case extendRenewalDate(UInt64, days: Int, reason: ExtendReason)
  /// ``Session/extendRenewalDates(of:days:reason:requestIdentifier:storefronts:_:)``.
  case extendRenewalDates(
    productID: String, days: Int, reason: ExtendReason, requestIdentifier: String?,
    storefronts: [String] = [])
  /// ``Session/call(_:transaction:reason:_:)``.
  case call(StoreKitAPI, transaction: UInt64?, reason: RefundSheetReason)
  /// ``Session/setWinBackEligibility(_:eligible:)``.
  case setWinBackEligibility(offerID: String, eligible: Bool)
  /// ``Session/reportConsumption(_:fields:_:)``.
  case reportConsumption(UInt64, fields: [ConsumptionInformation.Field])
  /// ``Session/setAppAccountToken(_:token:_:)``.
  case setAppAccountToken(UInt64, token: String?)
  /// ``Session/refreshReceipt(_:)``.
  case refreshReceipt
  /// ``Session/sendNotice(_:_:)``.
  case sendNotice(NoticeRequest)
  /// ``Session/changeFamily(_:_:)``.
  case family(FamilyAction)
  /// ``Session/selectCustomer(named:number:)``.
  case selectCustomer(name: String?, number: Int?)
  /// ``Session/performRetention(_:_:)``.
  case retention(RetentionAction)
  /// ``Session/changeSeats(_:_:)``.
  case seats(SeatAction)
  /// ``Session/declareCommerce(_:_:)`` (`set advanced-commerce`).
  case declareCommerce(productID: String, CommerceKind?)
  /// ``Session/performCommerce(_:_:)``: an Advanced Commerce API server request.
  case commerce(CommerceAction)
  /// ``Session/importTransaction(_:_:)``.
  case importTransaction(ImportedTransaction)
  /// ``Session/importRenewal(_:_:)``.
  case importRenewal(ImportedRenewal)
}

extension Session {
  /// Why `verb` cannot apply now, or `nil` when it can: the reason and, where there is one, a
  /// suggestion. This is the only place the engine's preconditions are decided.
  ///
  /// - Complexity: O(1) for most verbs; a purchase checks its offer, an advance its event budget.
  public func refusal(_ verb: SessionVerb) -> SessionError? {
    do throws(SessionError) {
      try check(verb)
      return nil
    } catch {
      return error
    }
  }

  /// Applies `verb`, handing its events to `sink`.
  ///
  /// - Throws: ``refusal(_:)``'s answer; nothing changes then.
  public mutating func perform(_ verb: SessionVerb, _ sink: EventSink) throws(SessionError) {
    switch verb {
    case .buy(let productID, let options): try buy(productID, options, sink)
    case .approveAskToBuy(let id): try approveAskToBuy(id, sink)
    case .declineAskToBuy(let id): try declineAskToBuy(id, sink)
    case .resolveIssue(let id): try resolveIssue(id, sink)
    case .refund(let id, let reason, let share): try refund(id, reason: reason, share: share, sink)
    case .requestRefund(let id, let reason): try requestRefund(id, reason: reason, sink)
    case .declineRefund(let id): try declineRefund(id, sink)
    case .reverseRefund(let id): try reverseRefund(id, sink)
    case .setAutoRenew(let id, let enabled): try setAutoRenew(id, enabled: enabled, sink)
    case .expireSubscription(let productID): try expireSubscription(productID, sink)
    case .forceRenewal(let productID): try forceRenewal(productID, sink)
    case .priceIncrease(let action, let id, let price):
      try priceIncrease(action, id, newPrice: price, sink)
    case .finish(let id): try finish(id, sink)
    case .finishAll: finishAll(sink)
    case .delete(let id): try delete(id, sink)
    case .clear: clear(sink)
    case .restore: restore(sink)
    case .launch: launch(sink)
    case .advance(let target): try advance(to: target, sink)
    case .advanceToNextEvent: try advanceToNextEvent(sink)
    case .extendRenewalDate(let id, let days, let reason):
      try extendRenewalDate(id, days: days, reason: reason, sink)
    case .extendRenewalDates(let productID, let days, let reason, let request, let storefronts):
      try extendRenewalDates(
        of: productID, days: days, reason: reason, requestIdentifier: request,
        storefronts: storefronts, sink)
    case .call(let api, let transaction, let reason):
      try call(api, transaction: transaction, reason: reason, sink)
    case .setWinBackEligibility(let offerID, let eligible):
      try setWinBackEligibility(offerID, eligible: eligible)
    case .reportConsumption(let id, let fields): try reportConsumption(id, fields: fields, sink)
    case .setAppAccountToken(let id, let token): try setAppAccountToken(id, token: token, sink)
    case .refreshReceipt: refreshReceipt(sink)
    case .sendNotice(let request): try sendNotice(request, sink)
    case .family(let action): try changeFamily(action, sink)
    case .selectCustomer(let name, let number): try selectCustomer(named: name, number: number)
    case .retention(let action): try performRetention(action, sink)
    case .seats(let action): try changeSeats(action, sink)
    case .declareCommerce(let productID, let kind):
      try checkDeclareCommerce(productID, kind)
      declareCommerce(productID, kind)
    case .commerce(let action): try performCommerce(action, sink)
    case .importTransaction(let imported): try importTransaction(imported, sink)
    case .importRenewal(let renewal): try importRenewal(renewal, sink)
    }
  }

  /// Throws why `verb` cannot apply; each verb calls this before it changes anything.
  func check(_ verb: SessionVerb) throws(SessionError) {
    switch verb {
    case .buy(let productID, let options): try checkPurchase(productID, options)
    case .approveAskToBuy(let id), .declineAskToBuy(let id): _ = try pendingRequest(id)
    case .resolveIssue(let id): _ = try issuePosition(id)
    case .refund(let id, _, let share): try checkRefund(id, share: share)
    case .requestRefund(let id, _): try checkRefundRequest(id)
    case .declineRefund(let id): _ = try requestedRefundPosition(id)
    case .reverseRefund(let id): _ = try refundedPosition(id)
    case .setAutoRenew(let id, let enabled):
      let groupIndex = try activeGroup(ofTransaction: id)
      guard groups[groupIndex].willAutoRenew != enabled else {
        throw SessionError(.autoRenewAlready(on: enabled))
      }
    case .expireSubscription(let productID), .forceRenewal(let productID):
      _ = try activeGroup(ofProduct: productID)
    case .priceIncrease(let action, let id, let price):
      let groupIndex = try activeGroup(ofTransaction: id)
      if let price, action != .request || price <= 0 {
        throw SessionError(
          action == .request
            ? .subscription(.newPriceNotAboveZero) : .subscription(.priceOnlyOnRequest))
      }
      if action != .request && groups[groupIndex].priceIncrease != .pending {
        throw SessionError(.noPriceIncreasePending(transaction: id))
      }
    case .finish(let id):
      if let share = locateShare(id) {
        guard !family.members[share.member].shares[share.index].isFinished else {
          throw SessionError(.alreadyFinished(transaction: id))
        }
        return
      }
      let position = try requireTransaction(id)
      guard !ledger[position].flags.contains(.finished) else {
        throw SessionError(.alreadyFinished(transaction: id))
      }
    case .delete(let id): _ = try requireTransaction(id)
    case .finishAll, .clear, .restore, .launch, .refreshReceipt: return
    case .advance(let target): try checkAdvance(to: target)
    case .advanceToNextEvent:
      guard let next = nextScheduledEvent else {
        throw SessionError(.nothingScheduled)
      }
      try checkAdvance(to: max(next, now))
    case .extendRenewalDate(let id, let days, _): _ = try extensionGroup(id, days: days)
    case .extendRenewalDates(let productID, let days, _, _, let storefronts):
      try checkExtensionDays(days)
      try checkStorefronts(storefronts)
      let productIndex = try requireProduct(productID)
      guard catalog.products[productIndex].groupIndex != nil else {
        throw SessionError(.productNotAutoRenewable(productID: productID))
      }
    case .call(let api, let transaction, _): try checkCall(api, transaction: transaction)
    case .setWinBackEligibility(let offerID, _): try checkWinBackOffer(offerID)
    case .reportConsumption(let id, _): try checkConsumption(id)
    case .setAppAccountToken(let id, _): try checkAppAccountToken(id)
    case .sendNotice(let request): try checkNotice(request)
    case .family(let action): try checkFamily(action)
    case .selectCustomer(let name, let number): try checkCustomer(named: name, number: number)
    case .retention(let action): try checkRetention(action)
    case .seats(let action): try checkSeats(action)
    case .declareCommerce(let productID, let kind): try checkDeclareCommerce(productID, kind)
    case .commerce(let action): try checkCommerce(action)
    case .importTransaction(let imported): try checkImport(imported)
    case .importRenewal(let renewal): try importedGroup(renewal)
    }
  }
}
