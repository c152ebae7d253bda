import StoreJSON

/// An auto-renewable subscription: a product with a period, a level in its group and offers.
public struct Subscription: Equatable, Sendable {
  /// The fields every product has (its `type` is ``ProductType/autoRenewableSubscription``).
  public var product: Product
  /// The id of the group the subscription belongs to.
  public var subscriptionGroupID: String
  /// The service level within the group; 1 is the highest. Several subscriptions may share one.
  public var groupNumber: Int
  /// How long one billing period lasts.
  public var recurringSubscriptionPeriod: SubscriptionPeriod
  /// The introductory offer: an object, `null`, or absent (format 4.0 and later).
  public var introductoryOffer: Nullable<SubscriptionOffer>
  /// Format 5.0: introductory offers per billing plan.
  public var introductoryOffers: [SubscriptionOffer]?
  /// Promotional offers.
  public var adHocOffers: [SubscriptionOffer]
  /// Offer codes (format 1.2 and later).
  public var codeOffers: [SubscriptionOffer]?
  /// Win-back offers (format 4.0 and later).
  public var winbackOffers: [SubscriptionOffer]?
  /// Format 5.0 billing plans.
  public var billingPlans: [BillingPlan]?

  /// Creates a subscription.
  public init(
    product: Product, subscriptionGroupID: String, groupNumber: Int,
    recurringSubscriptionPeriod: SubscriptionPeriod,
    introductoryOffer: Nullable<SubscriptionOffer> = .null, adHocOffers: [SubscriptionOffer] = [],
    codeOffers: [SubscriptionOffer]? = [], winbackOffers: [SubscriptionOffer]? = []
  ) {
    self.product = product
    self.subscriptionGroupID = subscriptionGroupID
    self.groupNumber = groupNumber
    self.recurringSubscriptionPeriod = recurringSubscriptionPeriod
    self.introductoryOffer = introductoryOffer
    self.adHocOffers = adHocOffers
    self.codeOffers = codeOffers
    self.winbackOffers = winbackOffers
  }

  /// The introductory offer that applies: the `BILLED_UPFRONT` entry of `introductoryOffers`
  /// (or its only entry), else `introductoryOffer`; `nil` for none or `paymentMode "none"`.
  public var effectiveIntroductoryOffer: SubscriptionOffer? {
    let candidates = introductoryOffers ?? []
    let offer =
      candidates.first { $0.billingPlanType == "BILLED_UPFRONT" }
      ?? (candidates.count == 1 ? candidates.first : nil)
      ?? introductoryOffer.wrapped
    guard let offer, offer.paymentMode != .none, offer.subscriptionPeriod != nil else { return nil }
    return offer
  }

  init?(reading reader: inout ObjectReader, groupID: String?, log: inout DiagnosticLog) {
    let product = Product(readingCommonFieldsOf: &reader, log: &log)
    let groupReference = reader.string("subscriptionGroupID", .expected, log: &log)
    let level = reader.int("groupNumber", .required, log: &log)
    let period = reader.period("recurringSubscriptionPeriod", .required, log: &log)
    introductoryOffer = reader.nullableObject("introductoryOffer", log: &log) { reader, log in
      SubscriptionOffer(reading: &reader, kind: .introductory, log: &log)
    }
    introductoryOffers = reader.offers("introductoryOffers", .introductory, .optional, log: &log)
    adHocOffers = reader.offers("adHocOffers", .promotional, .expected, log: &log) ?? []
    codeOffers = reader.offers("codeOffers", .code, .optional, log: &log)
    winbackOffers = reader.offers("winbackOffers", .winBack, .optional, log: &log)
    billingPlans = reader.objects("billingPlans", .optional, log: &log) { reader, log in
      BillingPlan(reading: &reader, log: &log)
    }
    guard var product, let level, let period else { return nil }
    product.unknown = reader.leftovers
    if product.type != .autoRenewableSubscription {
      log.error(
        reader.path.appending("type"),
        "a subscription in a group must have type \"RecurringSubscription\", found \"\(product.type.rawValue)\""
      )
    }
    if level < 1 {
      log.error(
        reader.path.appending("groupNumber"), "levels start at 1 (the highest), found \(level)")
    }
    if let groupID, let groupReference, groupReference != groupID {
      log.error(
        reader.path.appending("subscriptionGroupID"),
        "\"\(groupReference)\" is not its group's id \"\(groupID)\"")
    }
    self.product = product
    self.subscriptionGroupID = groupReference ?? groupID ?? ""
    self.groupNumber = level
    self.recurringSubscriptionPeriod = period
    checkUniqueNames(at: reader.path, log: &log)
  }

  /// Offers sharing a name load, as Xcode loads them (a public SDK's files have three
  /// promotional offers under one ID, and its tests expect all three back): a warning, since a
  /// purchase that names the offer gets the first of them.
  private func checkUniqueNames(at path: JSONPath, log: inout DiagnosticLog) {
    func check(
      _ offers: [SubscriptionOffer]?, _ key: String, _ name: (SubscriptionOffer) -> String?
    ) {
      var seen = Set<String>()
      for (index, offer) in (offers ?? []).enumerated() {
        if let value = name(offer), !seen.insert(value).inserted {
          log.warning(
            path.appending(key).appending(index: index),
            "a second offer named \"\(value)\": a purchase naming it gets the first")
        }
      }
    }
    check(adHocOffers, "adHocOffers", \.offerID)
    check(codeOffers, "codeOffers", \.referenceName)
    check(winbackOffers, "winbackOffers", \.offerID)
  }

  var json: JSONValue {
    var object = product.commonJSON
    object["subscriptionGroupID"] = .string(subscriptionGroupID)
    object["groupNumber"] = .number(JSONNumber(groupNumber))
    object["recurringSubscriptionPeriod"] = .string(recurringSubscriptionPeriod.iso8601)
    object["introductoryOffer"] = introductoryOffer.json(\.json)
    object["introductoryOffers"] = introductoryOffers.map { .array($0.map(\.json)) }
    object["adHocOffers"] = .array(adHocOffers.map(\.json))
    object["codeOffers"] = codeOffers.map { .array($0.map(\.json)) }
    object["winbackOffers"] = winbackOffers.map { .array($0.map(\.json)) }
    object["billingPlans"] = billingPlans.map { .array($0.map(\.json)) }
    return .object(object)
  }
}

extension ObjectReader {
  mutating func offers(
    _ key: String, _ kind: OfferKind, _ presence: Presence, log: inout DiagnosticLog
  ) -> [SubscriptionOffer]? {
    objects(key, presence, log: &log) { reader, log in
      SubscriptionOffer(reading: &reader, kind: kind, log: &log)
    }
  }
}

/// A subscription group: subscriptions among which a customer holds at most one at a time.
public struct SubscriptionGroup: Equatable, Sendable {
  /// The group's id (8 hex digits locally, an App Store Connect id when synced).
  public var id: String
  /// The group's reference name.
  public var name: String
  /// The group's names per locale (usually empty).
  public var localizations: [Localization]
  /// The subscriptions, in file order.
  public var subscriptions: [Subscription]
  /// Keys this model does not know, written back unchanged.
  public var unknown = JSONObject()

  /// Creates a group.
  public init(
    id: String, name: String, localizations: [Localization] = [], subscriptions: [Subscription]
  ) {
    self.id = id
    self.name = name
    self.localizations = localizations
    self.subscriptions = subscriptions
  }

  init?(reading reader: inout ObjectReader, log: inout DiagnosticLog) {
    let id = reader.string("id", .required, log: &log)
    name = reader.string("name", .expected, log: &log) ?? ""
    localizations = reader.localizations("localizations", log: &log) ?? []
    subscriptions =
      reader.objects("subscriptions", .expected, log: &log) { reader, log in
        Subscription(reading: &reader, groupID: id, log: &log)
      } ?? []
    unknown = reader.leftovers
    guard let id else { return nil }
    self.id = id
  }

  var json: JSONValue {
    var object = unknown
    object["id"] = .string(id)
    object["name"] = .string(name)
    object["localizations"] = .array(localizations.map(\.json))
    object["subscriptions"] = .array(subscriptions.map(\.json))
    return .object(object)
  }
}
