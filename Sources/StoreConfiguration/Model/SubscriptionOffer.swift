import StoreJSON

/// How an offer is paid, spelled as `.storekit` files spell it.
public enum PaymentMode: String, CaseIterable, Sendable {
  /// A free trial.
  case free
  /// A discounted price for each of `numberOfPeriods` periods.
  case payAsYouGo
  /// One discounted payment for the whole offer period.
  case payUpFront
  /// Seen once in the wild with no period; the offer does not apply.
  case none
  /// One reduced payment for a one-time product (an offer code of a consumable,
  /// non-consumable or non-renewing subscription); Storekeeper's spelling, written only on
  /// those [unverified].
  case oneTime
}

/// Who may redeem an offer code.
public enum CodeOfferEligibility: String, CaseIterable, Sendable {
  /// Customers who never subscribed in the group.
  case new
  /// Customers subscribed now.
  case existing
  /// Customers whose subscription expired.
  case expired
}

/// The four kinds of subscription offer a `.storekit` file can hold.
public enum OfferKind: String, CaseIterable, Sendable {
  /// `introductoryOffer` / `introductoryOffers[]`.
  case introductory
  /// `adHocOffers[]`: promotional offers, named by `offerID`.
  case promotional
  /// `codeOffers[]`: offer codes, named by `referenceName`.
  case code
  /// `winbackOffers[]`, named by `offerID`.
  case winBack
}

/// One subscription offer of any kind. Which keys are present depends on the kind; see the
/// format notes (§4.1).
public struct SubscriptionOffer: Equatable, Sendable {
  /// Xcode's local id.
  public var internalID: String
  /// How the offer is paid.
  public var paymentMode: PaymentMode
  /// The length of one offer period (absent only with `paymentMode "none"`).
  public var subscriptionPeriod: SubscriptionPeriod?
  /// How many periods a pay-as-you-go offer lasts; often absent (meaning 1) otherwise.
  public var numberOfPeriods: Int?
  /// The offer's price per period (pay as you go) or in total (pay up front).
  public var displayPrice: Price?
  /// Promotional and win-back offers: the id the app passes to StoreKit.
  public var offerID: String?
  /// Promotional, code and win-back offers: Xcode's name (the code's id for offer codes).
  public var referenceName: String?
  /// Offer codes: who may redeem them.
  public var eligibility: [CodeOfferEligibility]?
  /// Offer codes: whether the code can follow a running introductory offer.
  public var isStackable: Bool?
  /// Win-back offers: Xcode's per-offer eligibility toggle.
  public var isEligible: Bool?
  /// Format 5.0: `BILLED_UPFRONT` or `MONTHLY`.
  public var billingPlanType: String?
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates an offer.
  public init(
    internalID: String = "", paymentMode: PaymentMode, subscriptionPeriod: SubscriptionPeriod?,
    numberOfPeriods: Int? = nil, displayPrice: Price? = nil
  ) {
    self.internalID = internalID
    self.paymentMode = paymentMode
    self.subscriptionPeriod = subscriptionPeriod
    self.numberOfPeriods = numberOfPeriods
    self.displayPrice = displayPrice
  }

  /// How many offer periods apply: `numberOfPeriods` for pay as you go, otherwise one.
  public var periodCount: Int {
    paymentMode == .payAsYouGo ? max(1, numberOfPeriods ?? 1) : 1
  }

  init?(reading reader: inout ObjectReader, kind: OfferKind, log: inout DiagnosticLog) {
    let named: Presence = kind == .promotional || kind == .winBack ? .required : .optional
    internalID = reader.string("internalID", .expected, log: &log) ?? ""
    let mode: PaymentMode? = reader.enumeration("paymentMode", .required, log: &log)
    let noPeriod = mode == PaymentMode.none && kind == .introductory
    subscriptionPeriod = reader.period(
      "subscriptionPeriod", noPeriod ? .optional : .required, log: &log)
    numberOfPeriods = reader.int("numberOfPeriods", .optional, log: &log)
    displayPrice = reader.price("displayPrice", .optional, log: &log)
    offerID = reader.string("offerID", named, log: &log)
    referenceName = reader.string(
      "referenceName", kind == .code ? .required : kind == .introductory ? .optional : .expected,
      log: &log)
    billingPlanType = reader.string("billingPlanType", .optional, log: &log)
    if kind == .code {
      eligibility = reader.read(
        "eligibility", .required, expecting: "an array of \"new\", \"existing\", \"expired\"",
        log: &log
      ) { value in
        guard case .array(let items) = value else { return nil }
        let parsed = items.compactMap { item -> CodeOfferEligibility? in
          if case .string(let text) = item { CodeOfferEligibility(rawValue: text) } else { nil }
        }
        return parsed.count == items.count ? parsed : nil
      }
      isStackable = reader.bool("isStackable", .expected, log: &log)
      if eligibility?.isEmpty == true {
        log.warning(reader.path.appending("eligibility"), "no eligibility: nobody can redeem it")
      }
    }
    if kind == .winBack {
      isEligible = reader.bool("isEligible", .expected, log: &log)
    }
    unknown = reader.leftovers
    guard let mode else { return nil }
    paymentMode = mode
    validate(at: reader.path, log: &log)
  }

  /// An offer code of a one-time product (`products[].codeOffers[]`): a reference name and the
  /// price paid with it (`0` for free); no period, no eligibility.
  init?(readingOneTime reader: inout ObjectReader, log: inout DiagnosticLog) {
    internalID = reader.string("internalID", .expected, log: &log) ?? ""
    let mode: PaymentMode? = reader.enumeration("paymentMode", .optional, log: &log)
    if let mode, mode != .oneTime {
      log.error(
        reader.path.appending("paymentMode"),
        "an offer code of a one-time product is paid once: \"oneTime\", not \"\(mode.rawValue)\"")
    }
    referenceName = reader.string("referenceName", .required, log: &log)
    displayPrice = reader.price("displayPrice", .required, log: &log)
    unknown = reader.leftovers
    guard referenceName != nil, displayPrice != nil else { return nil }
    paymentMode = .oneTime
  }

  private func validate(at path: JSONPath, log: inout DiagnosticLog) {
    if paymentMode == .oneTime {
      log.error(
        path.appending("paymentMode"),
        "\"oneTime\" is for offer codes of one-time products, not subscriptions")
    }
    if paymentMode == .none {
      log.warning(path.appending("paymentMode"), "paymentMode \"none\": the offer never applies")
    }
    if let numberOfPeriods, numberOfPeriods < 1 {
      log.error(path.appending("numberOfPeriods"), "must be 1 or more, found \(numberOfPeriods)")
    }
    if paymentMode == .payAsYouGo && numberOfPeriods == nil {
      log.warning(path, "a pay-as-you-go offer without numberOfPeriods lasts one period")
    }
    if (paymentMode == .payAsYouGo || paymentMode == .payUpFront) && displayPrice == nil {
      log.warning(path, "a \(paymentMode.rawValue) offer without displayPrice is treated as free")
    }
  }

  var json: JSONValue {
    var object = unknown
    object["internalID"] = .string(internalID)
    object["paymentMode"] = .string(paymentMode.rawValue)
    object["subscriptionPeriod"] = subscriptionPeriod.map { .string($0.iso8601) }
    object["numberOfPeriods"] = numberOfPeriods.map { .number(JSONNumber($0)) }
    object["displayPrice"] = displayPrice.map { .string($0.text) }
    object["offerID"] = offerID.map { .string($0) }
    object["referenceName"] = referenceName.map { .string($0) }
    object["billingPlanType"] = billingPlanType.map { .string($0) }
    object["eligibility"] = eligibility.map { .array($0.map { .string($0.rawValue) }) }
    object["isStackable"] = isStackable.map { .bool($0) }
    object["isEligible"] = isEligible.map { .bool($0) }
    return .object(object)
  }
}

/// A format 5.0 billing plan (`BILLED_UPFRONT`, or `MONTHLY` with a 12-month commitment).
public struct BillingPlan: Equatable, Sendable {
  /// `BILLED_UPFRONT` or `MONTHLY`.
  public var billingPlanType: String
  /// The price of the whole commitment.
  public var commitmentDisplayPrice: Price
  /// The price per billing.
  public var displayPrice: Price
  /// Xcode's local id.
  public var internalID: String
  /// Whether the plan is offered.
  public var isEnabled: Bool
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  init?(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    let type = reader.string("billingPlanType", .required, log: &log)
    commitmentDisplayPrice =
      reader.price("commitmentDisplayPrice", .expected, log: &log) ?? Price("")
    displayPrice = reader.price("displayPrice", .expected, log: &log) ?? Price("")
    internalID = reader.string("internalID", .expected, log: &log) ?? ""
    isEnabled = reader.bool("isEnabled", .expected, log: &log) ?? true
    unknown = reader.leftovers
    guard let type else { return nil }
    billingPlanType = type
  }

  var json: JSONValue {
    var object = unknown
    object["billingPlanType"] = .string(billingPlanType)
    object["commitmentDisplayPrice"] = .string(commitmentDisplayPrice.text)
    object["displayPrice"] = .string(displayPrice.text)
    object["internalID"] = .string(internalID)
    object["isEnabled"] = .bool(isEnabled)
    return .object(object)
  }
}
