import StoreConfiguration
import StoreSimulation

/// What a command comes down to in a session once its references are resolved: a verb of the
/// engine, or a change of settings (which always applies).
public enum ResolvedCommand: Equatable, Sendable {
  /// A verb the engine decides on.
  case verb(SessionVerb)
  /// A setting changed.
  case setting(SettingChange)
  /// Every setting back to the file's.
  case resetSettings
  /// A step back in the session's history (it takes the journaled session).
  case stepBack(StepBack)
  /// A change to `serve`'s notification delivery (its owner handles it).
  case notify(NotifyAction)
}

extension Command {
  /// What this command means in `session` now: `last` and `last:<product>` resolved to ids, a
  /// duration to an instant.
  ///
  /// - Throws: ``SessionError`` when a reference names nothing.
  public func resolved(in session: SessionView) throws(SessionError) -> ResolvedCommand {
    func id(_ reference: TransactionReference) throws(SessionError) -> UInt64 {
      try reference.resolve(in: session)
    }
    let verb: SessionVerb
    switch self {
    case .stepBack(let kind): return .stepBack(kind)
    case .notify(let action): return .notify(action)
    case .buy(let productID, let options): verb = .buy(productID: productID, options: options)
    case .approve(let reference): verb = .approveAskToBuy(try id(reference))
    case .decline(let reference): verb = .declineAskToBuy(try id(reference))
    case .resolve(let reference): verb = .resolveIssue(try id(reference))
    case .refund(let reference, let reason, let share):
      verb = .refund(try id(reference), reason: reason ?? .other, share: share)
    case .refundRequest(let reference, let reason):
      verb = .requestRefund(try id(reference), reason: reason ?? .other)
    case .refundDecline(let reference): verb = .declineRefund(try id(reference))
    case .refundReverse(let reference): verb = .reverseRefund(try id(reference))
    case .extend(let reference, let days, let reason):
      verb = .extendRenewalDate(try id(reference), days: days, reason: reason ?? .undeclared)
    case .extendAll(let productID, let days, let reason, let request, let storefronts):
      verb = .extendRenewalDates(
        productID: productID, days: days, reason: reason ?? .undeclared, requestIdentifier: request,
        storefronts: storefronts)
    case .autoRenew(let reference, let enabled):
      verb = .setAutoRenew(try id(reference), enabled: enabled)
    case .expire(let productID): verb = .expireSubscription(productID: productID)
    case .renew(let productID): verb = .forceRenewal(productID: productID)
    case .restore: verb = .restore
    case .clear: verb = .clear
    case .launch: verb = .launch
    case .reset: return .resetSettings
    case .priceIncrease(let action, let reference, let price):
      verb = .priceIncrease(action, try id(reference), newPrice: price)
    case .finish(let reference?): verb = .finish(try id(reference))
    case .finish(nil): verb = .finishAll
    case .delete(let reference): verb = .delete(try id(reference))
    case .advance(.next): verb = .advanceToNextEvent
    case .advance(.by(let duration)): verb = .advance(to: duration.after(session.now))
    case .advance(.to(let instant)): verb = .advance(to: instant)
    case .set(.winBackEligible(let offerID, let eligible)):
      verb = .setWinBackEligibility(offerID: offerID, eligible: eligible)
    case .set(let change): return .setting(change)
    case .call(let api, let reference, let reason):
      verb = .call(api, transaction: try reference.map(id), reason: reason ?? .other)
    case .consumption(let reference, let fields):
      verb = .reportConsumption(try id(reference), fields: fields)
    case .accountToken(let reference, let token):
      verb = .setAppAccountToken(try id(reference), token: token)
    case .refreshReceipt: verb = .refreshReceipt
    case .notice(let request): verb = .sendNotice(request)
    case .family(let action): verb = .family(action)
    case .customer(let name, let number): verb = .selectCustomer(name: name, number: number)
    case .retention(let action): verb = .retention(action)
    case .importTransaction(let imported): verb = .importTransaction(imported)
    case .importRenewal(let renewal): verb = .importRenewal(renewal)
    case .seats(let seats): verb = .seats(try seats.resolved(in: session))
    case .declareCommerce(let productID, let kind):
      verb = .declareCommerce(productID: productID, kind)
    case .commerce(let call):
      verb = .commerce(CommerceAction(try id(call.reference), call.request))
    }
    return .verb(verb)
  }

  /// Why the command cannot apply to `session` now, or `nil` when it can: the engine's answer
  /// (``Session/refusal(_:)``), as `run`, the `:` prompt and the inspector's keys all see it.
  public func refusal(in session: SessionView) -> CommandError? {
    do throws(SessionError) {
      guard case .verb(let verb) = try resolved(in: session) else { return nil }
      return session.refusal(verb).map { CommandError($0, command: description) }
    } catch {
      return CommandError(error, command: description)
    }
  }

  /// Applies the command to a session at its present, handing the events to `sink`.
  ///
  /// - Throws: ``CommandError`` (with this command's text) when the session refuses it; the
  ///   session is unchanged then.
  public func apply(to session: inout Session, _ sink: EventSink) throws(CommandError) {
    do throws(SessionError) {
      switch try resolved(in: SessionView(session)) {
      case .verb(let verb): try session.perform(verb, sink)
      case .setting(let change): change.apply(to: &session)
      case .resetSettings: session.resetSettings()
      case .stepBack:
        throw SessionError(.stepBackNeedsHistory)
      case .notify:
        throw SessionError(.notifyNeedsDelivery)
      }
    } catch {
      throw CommandError(error, command: description)
    }
  }
}

extension SeatChange where Reference == TransactionReference {
  /// The engine's seat action: the transaction resolved.
  func resolved(in session: SessionView) throws(SessionError) -> SeatAction {
    try map { (reference) throws(SessionError) in try reference.resolve(in: session) }
  }

  /// The line's words.
  var words: [String] {
    switch self {
    case .change(let reference, let total): ["seats", "\(reference)", "\(total)"]
    case .refund(let reference, let seats): ["refund", "\(reference)", "seats=\(seats)"]
    case .claim(let reference, let request, let member):
      ["seat-claim", "\(reference)", "request=\(request)"]
        + (member.map { ["app-transaction=\($0)"] } ?? [])
    case .unclaim(let reference, let claim): ["seat-unclaim", "\(reference)", claim]
    case .associate(let reference, let claim, let member):
      ["seat-associate", "\(reference)", claim, member]
    case .invitations(let hosting): ["set", "invitations", hosting.word]
    case .pricing(let productID, let pricing):
      ["set", "seat-pricing", productID] + SeatPricing.words(pricing)
    case .invite(let member): ["group", "invite", member]
    case .remove(let member): ["group", "remove", member]
    }
  }
}

extension SeatPricing {
  /// `on` (the product's own price), `off`, or the tiers: `5:9.99 10:7.99 *:5.99`.
  static func words(_ pricing: SeatPricing?) -> [String] {
    switch pricing {
    case nil: ["on"]
    case .disabled?: ["off"]
    case .tiers(let tiers)?:
      tiers.map { "\($0.maximumSeats.map(String.init) ?? "*"):\(decimalText($0.price))" }
    }
  }
}

extension TransactionReference {
  /// The id this reference names in `session`.
  public func resolve(in session: SessionView) throws(SessionError) -> UInt64 {
    switch self {
    case .id(let id): return id
    case .last:
      guard let id = session.lastTransactionID() else {
        throw SessionError(.noLastTransaction)
      }
      return id
    case .lastOf(let productID):
      guard session.catalog.index(of: productID) != nil else {
        throw SessionError(
          .noProduct(productID), suggestions: session.catalog.productIDs(closeTo: productID))
      }
      guard let id = session.lastTransactionID(productID: productID) else {
        throw SessionError(.noTransactionOfProduct(productID))
      }
      return id
    }
  }
}

extension SettingChange {
  /// Changes the setting; a win-back eligibility goes through the engine's verb instead.
  func apply(to session: inout Session) {
    switch self {
    case .flag(let id, let on):
      session.updateSettings { $0[flag: id] = SettingDescriptor[id].inverted ? !on : on }
    case .failTransactions(let code):
      session.updateSettings {
        $0.failTransactionsEnabled = code != nil
        if let code { $0.failureError = code }
      }
    case .simulatedError(let api, let error):
      session.updateSettings { $0.simulatedErrors[api] = error }
    case .timeRate(let rate): session.updateSettings { $0.timeRate = rate }
    case .storefront(let storefront): session.updateSettings { $0.storefront = storefront }
    case .locale(let locale): session.updateSettings { $0.locale = locale }
    case .winBackEligible(let offerID, let flag):
      try? session.setWinBackEligibility(offerID, eligible: flag)
    }
  }
}
