import StoreCommands
import StoreConfiguration
import StoreJSON
import StoreSimulation

/// The App Store Server API calls that change the session. Each comes down to a command of the
/// language (so it is journaled, replayed and shown as any command is): `extend`, `extend-all`,
/// `consumption`, `account-token`, `finish`.
extension ServedSession {
  /// `PUT /inApps/v1/subscriptions/extend/{originalTransactionId}` (Extend a Subscription
  /// Renewal Date) of `original`.
  func extend(
    _ original: Transaction, _ request: ExtensionRequest
  ) throws(AppStoreError) -> JSONValue {
    let events = try applyCall(
      .extend(.id(original.id), days: request.days, reason: request.reason),
      for: original.owner.customer, refused: { Self.extensionError($0) })
    let extended = events.lazy.compactMap { event -> RenewalExtension? in
      if case .renewalExtension(let extended) = event.kind { extended } else { nil }
    }.first
    var members = [
      JSONMember("originalTransactionId", .string(String(original.id))),
      JSONMember("webOrderLineItemId", .string(String(extended?.transactionID ?? original.id))),
      JSONMember("success", .bool(extended?.newExpirationDate != nil)),
    ]
    if let date = extended?.newExpirationDate {
      members.append(JSONMember("effectiveDate", .number(JSONNumber(Int(date.milliseconds)))))
    }
    return .object(JSONObject(members))
  }

  /// Apple's error for an extension the engine refused.
  private static func extensionError(_ error: CommandError) -> AppStoreError {
    switch ServedRefusal(error.refusal) {
    case .familyShared:
      // FamilySharedSubscriptionExtensionIneligibleError: extend the purchaser's.
      AppStoreError(
        .familySharedSubscriptionExtensionIneligible,
        message: "Subscription is ineligible for renewal date extension because it was obtained "
          + "through Family Sharing.")
    case .extendedTooOften:
      AppStoreError(.subscriptionMaxExtension)
    case .notOriginal, .alreadyDone, .refused:
      AppStoreError(
        .subscriptionExtensionIneligible,
        message: "The subscription is not eligible for an extension: \(error.message)")
    }
  }

  /// `POST /inApps/v1/subscriptions/extend/mass` (Extend Subscription Renewal Dates for All
  /// Active Subscribers): applied at once; its summary is kept for the status call.
  func extendAll(_ request: ExtensionRequest) throws(AppStoreError) -> JSONValue {
    guard let product = request.productID, let item = host.session.catalog.product(product),
      item.groupIndex != nil
    else {
      throw AppStoreError(.invalidProductID)
    }
    _ = try applyCall(
      .extendAll(
        productID: product, days: request.days, reason: request.reason,
        request: request.identifier, storefronts: request.storefronts),
      refused: { AppStoreError(.generalBadRequest, message: $0.message) })
    return .object(JSONObject([JSONMember("requestIdentifier", .string(request.identifier))]))
  }

  /// `PUT /inApps/v1|v2/transactions/consumption/{transactionId}` (Send Consumption
  /// Information): accepted (202) only while a refund request waits, within 12 hours of it.
  func consumption(
    _ transaction: Transaction, _ fields: [ConsumptionInformation.Field]
  ) throws(AppStoreError) {
    _ = try applyCall(
      .consumption(.id(transaction.id), fields: fields), for: transaction.owner.customer,
      refused: {
        AppStoreError(.generalBadRequest, message: "Bad request. \($0.message)")
      })
  }

  /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` (Set App Account
  /// Token): the engine takes only a purchaser's original transaction.
  func setAppAccountToken(
    _ transaction: Transaction, _ request: AppAccountTokenRequest
  ) throws(AppStoreError) {
    _ = try applyCall(
      .accountToken(.id(transaction.id), token: request.token), for: transaction.owner.customer,
      refused: Self.accountTokenError)
  }

  /// Apple's error for an app account token the engine refused.
  private static func accountTokenError(_ error: CommandError) -> AppStoreError {
    switch ServedRefusal(error.refusal) {
    case .familyShared:
      // Apple's FamilyTransactionNotSupportedError.
      AppStoreError(
        .familyTransactionNotSupported,
        message: "Invalid request. The transaction is for a product obtained through Family "
          + "Sharing, which this endpoint does not support.")
    case .notOriginal:
      AppStoreError(.transactionIDIsNotOriginalTransactionID)
    case .alreadyDone, .extendedTooOften, .refused:
      AppStoreError(.generalBadRequest, message: error.message)
    }
  }

  /// `POST /inApps/v1/transactions/{transactionId}/finish`: a transaction already finished
  /// stays so (the engine's refusal, answered as done).
  func finish(_ id: String) throws(AppStoreError) {
    let transaction = try reader.transaction(id)
    _ = try applyCall(
      .finish(.id(transaction.id)), for: transaction.owner.customer, refused: Self.finishError)
  }

  /// Apple's error for a finish the engine refused; none when it is finished already.
  private static func finishError(_ error: CommandError) -> AppStoreError? {
    switch ServedRefusal(error.refusal) {
    case .alreadyDone: nil
    case .familyShared, .notOriginal, .extendedTooOften, .refused:
      AppStoreError(.generalBadRequest, message: error.message)
    }
  }
}

/// What the App Store Server API's changes make of the engine's refusals. Every family is
/// named here, so that a new one is a compile error until it is given its answer; a new refusal
/// is refused as its family unless it is named.
enum ServedRefusal {
  /// The transaction is a family member's: Apple's family-sharing errors.
  case familyShared
  /// Set App Account Token named a transaction that is not an original one (4000187).
  case notOriginal
  /// The change is made already (a finished transaction finished again): answered as done.
  case alreadyDone
  /// The subscription was extended twice in the past year (4030005).
  case extendedTooOften
  /// Anything else the request or the session's state forbids.
  case refused

  init(_ refusal: Refusal?) {
    switch refusal {
    case nil: self = .refused
    case .subscription(.notExtendable(_, .extendedTwiceThisYear))?:
      self = .extendedTooOften
    case .refund(.familySharedTransaction)?:
      self = .familyShared
    case .refund(.notOriginalTransaction)?:
      self = .notOriginal
    case .subscription(.alreadyFinished)?:
      self = .alreadyDone
    case .lookup?, .purchase?, .refund?, .subscription?, .clock?, .call?, .bareSession?,
      .imported?, .customer?, .family?, .retention?, .seats?, .commerce?:
      self = .refused
    }
  }
}
