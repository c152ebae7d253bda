/// An in-app Advanced Commerce request, as the developer's server signs it into the JWS's
/// `request` claim and the app hands it to `AdvancedCommerceProduct.purchase(compactJWS:…)`.
public enum CommerceInAppRequest: Equatable, Sendable {
  /// `CREATE_ONE_TIME_CHARGE` (`OneTimeChargeCreateRequest`): one item, charged once.
  case createOneTimeCharge(CommerceRequestInfo, CommerceTerms, storefront: String?)
  /// `CREATE_SUBSCRIPTION` (`SubscriptionCreateRequest`).
  case createSubscription(
    CommerceRequestInfo, CommerceTerms, previousTransactionID: String?, storefront: String?)
  /// `MODIFY_SUBSCRIPTION` (`SubscriptionModifyInAppRequest`).
  case modify(CommerceRequestInfo, CommerceModification)
  /// `REACTIVATE_SUBSCRIPTION` (`SubscriptionReactivateInAppRequest`): auto-renew on again,
  /// with only the `items` named when there are some.
  case reactivate(CommerceRequestInfo, transactionID: UInt64, skus: [String], storefront: String?)

  /// Its `requestInfo`.
  public var info: CommerceRequestInfo {
    switch self {
    case .createOneTimeCharge(let info, _, _), .createSubscription(let info, _, _, _),
      .modify(let info, _), .reactivate(let info, _, _, _):
      info
    }
  }

  /// Apple's `operation`.
  public var operation: String {
    switch self {
    case .createOneTimeCharge: "CREATE_ONE_TIME_CHARGE"
    case .createSubscription: "CREATE_SUBSCRIPTION"
    case .modify: "MODIFY_SUBSCRIPTION"
    case .reactivate: "REACTIVATE_SUBSCRIPTION"
    }
  }

  /// The subscription a modification or reactivation names.
  public var transactionID: UInt64? {
    switch self {
    case .modify(_, let change): change.transactionID
    case .reactivate(_, let id, _, _): id
    case .createOneTimeCharge, .createSubscription: nil
    }
  }
}

/// `SubscriptionModifyInAppRequest`'s changes.
public struct CommerceModification: Equatable, Sendable {
  /// `transactionId`: any transaction of the subscription.
  public var transactionID: UInt64
  /// `retainBillingCycle`: immediate changes keep the period (a prorated charge) instead of
  /// starting a new one now.
  public var retainBillingCycle: Bool
  /// `addItems`, each with its `proratedPrice` when given; added now.
  public var addItems: [(item: CommerceItem, prorated: Int64?)]
  /// `changeItems`.
  public var changeItems: [CommerceItemChange]
  /// `removeItems`' SKUs: gone from what renews.
  public var removeItems: [String]
  /// `periodChange`.
  public var periodChange: (period: CommercePeriod, effective: CommerceEffective)?
  /// `descriptors`.
  public var descriptors: CommerceDescriptorChange?
  /// `currency`: the storefront's, when given.
  public var currency: String?
  /// `taxCode`: replaces the subscription's.
  public var taxCode: String?

  /// Whether two modifications ask the same (tuples keep the synthesized one away).
  public static func == (a: Self, b: Self) -> Bool {
    a.transactionID == b.transactionID && a.retainBillingCycle == b.retainBillingCycle
      && a.addItems.map(\.item) == b.addItems.map(\.item)
      && a.addItems.map(\.prorated) == b.addItems.map(\.prorated) && a.changeItems == b.changeItems
      && a.removeItems == b.removeItems && a.periodChange?.period == b.periodChange?.period
      && a.periodChange?.effective == b.periodChange?.effective && a.descriptors == b.descriptors
      && a.currency == b.currency && a.taxCode == b.taxCode
  }

  /// Whether something changes now (a new transaction), not only at the next renewal.
  public var changesNow: Bool {
    !addItems.isEmpty || changeItems.contains { $0.effective == .immediately }
      || periodChange?.effective == .immediately
  }

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(
    transactionID: UInt64, retainBillingCycle: Bool,
    addItems: [(item: CommerceItem, prorated: Int64?)], changeItems: [CommerceItemChange],
    removeItems: [String], periodChange: (period: CommercePeriod, effective: CommerceEffective)?,
    descriptors: CommerceDescriptorChange?, currency: String?, taxCode: String?
  ) {
    self.transactionID = transactionID
    self.retainBillingCycle = retainBillingCycle
    self.addItems = addItems
    self.changeItems = changeItems
    self.removeItems = removeItems
    self.periodChange = periodChange
    self.descriptors = descriptors
    self.currency = currency
    self.taxCode = taxCode
  }
}

/// A `changeItems` entry: one SKU for another (an upgrade, a downgrade, an offer).
public struct CommerceItemChange: Equatable, Sendable {
  /// `currentSKU`.
  public var currentSKU: String
  /// The new item.
  public var item: CommerceItem
  /// `reason`: UPGRADE, DOWNGRADE or APPLY_OFFER.
  public var reason: String
  /// `effective`.
  public var effective: CommerceEffective
  /// `proratedPrice`.
  public var prorated: Int64?

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(
    currentSKU: String, item: CommerceItem, reason: String, effective: CommerceEffective,
    prorated: Int64?
  ) {
    self.currentSKU = currentSKU
    self.item = item
    self.reason = reason
    self.effective = effective
    self.prorated = prorated
  }
}

/// A change of the descriptors (`descriptors` with `effective`).
public struct CommerceDescriptorChange: Equatable, Sendable {
  /// The new `description`, if it changes.
  public var description: String?
  /// The new `displayName`, if it changes.
  public var displayName: String?
  /// When the new names show.
  public var effective: CommerceEffective

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(description: String?, displayName: String?, effective: CommerceEffective) {
    self.description = description
    self.displayName = displayName
    self.effective = effective
  }
}

/// The six server endpoints' operations, by the path after `/advancedCommerce/v1/`.
public enum CommerceOperation: String, Sendable, CaseIterable {
  case cancel
  case revoke
  case changePrice
  case changeMetadata
  case migrate
  case requestRefund

  /// The path's words before `{transactionId}`.
  public var path: String {
    self == .requestRefund ? "transaction/requestRefund" : "subscription/\(rawValue)"
  }

  /// The command language's word (`commerce change-price …`).
  public var word: String {
    switch self {
    case .cancel: "cancel"
    case .revoke: "revoke"
    case .changePrice: "change-price"
    case .changeMetadata: "change-metadata"
    case .migrate: "migrate"
    case .requestRefund: "refund"
    }
  }
}

/// A server request's body, typed (Apple's request models).
public enum CommerceServerRequest: Equatable, Sendable {
  /// `SubscriptionCancelRequest`.
  case cancel(CommerceRequestInfo)
  /// `SubscriptionRevokeRequest`.
  case revoke(CommerceRequestInfo, refundType: String, refundReason: String)
  /// `SubscriptionPriceChangeRequest`.
  case changePrice(CommerceRequestInfo, items: [CommercePriceChange], currency: String?)
  /// `SubscriptionChangeMetadataRequest`.
  case changeMetadata(
    CommerceRequestInfo, descriptors: CommerceDescriptorChange?, items: [CommerceMetadataChange],
    taxCode: String?)
  /// `SubscriptionMigrateRequest`: the ordinary subscription becomes `targetProductId`'s terms.
  case migrate(
    CommerceRequestInfo, CommerceTerms, targetProductID: String, renewalItems: [CommerceItem]?)
  /// `RequestRefundRequest`.
  case requestRefund(CommerceRequestInfo, items: [CommerceRefundItem], currency: String?)

  /// Its `requestInfo`.
  public var info: CommerceRequestInfo {
    switch self {
    case .cancel(let info), .revoke(let info, _, _), .changePrice(let info, _, _),
      .changeMetadata(let info, _, _, _), .migrate(let info, _, _, _),
      .requestRefund(let info, _, _):
      info
    }
  }

  /// Its operation.
  public var operation: CommerceOperation {
    switch self {
    case .cancel: .cancel
    case .revoke: .revoke
    case .changePrice: .changePrice
    case .changeMetadata: .changeMetadata
    case .migrate: .migrate
    case .requestRefund: .requestRefund
    }
  }
}

/// A Change Subscription Price item.
public struct CommercePriceChange: Equatable, Sendable {
  /// The item's `SKU`.
  public var sku: String
  /// Its new price (milliunits).
  public var price: Int64
  /// `dependentSKUs`: the items whose prices change with it.
  public var dependentSKUs: [String]

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(sku: String, price: Int64, dependentSKUs: [String]) {
    self.sku = sku
    self.price = price
    self.dependentSKUs = dependentSKUs
  }
}

/// A Change Subscription Metadata item.
public struct CommerceMetadataChange: Equatable, Sendable {
  /// `currentSKU`: the item changed.
  public var currentSKU: String
  /// When the change shows.
  public var effective: CommerceEffective
  /// Its new `SKU`, if it changes.
  public var sku: String?
  /// Its new `description`, if it changes.
  public var description: String?
  /// Its new `displayName`, if it changes.
  public var displayName: String?

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(
    currentSKU: String, effective: CommerceEffective, sku: String?, description: String?,
    displayName: String?
  ) {
    self.currentSKU = currentSKU
    self.effective = effective
    self.sku = sku
    self.description = description
    self.displayName = displayName
  }
}

/// A Request Transaction Refund item.
public struct CommerceRefundItem: Equatable, Sendable {
  /// The item's `SKU`.
  public var sku: String
  /// `revoke`: the item's access ends now.
  public var revoke: Bool
  /// `refundReason`.
  public var reason: String
  /// FULL, PRORATED or CUSTOM.
  public var type: String
  /// `refundAmount` (CUSTOM).
  public var amount: Int64?

  /// Made by the edges that read Apple's JSON (StoreCommands' Commerce readers).
  package init(sku: String, revoke: Bool, reason: String, type: String, amount: Int64?) {
    self.sku = sku
    self.revoke = revoke
    self.reason = reason
    self.type = type
    self.amount = amount
  }
}

/// A server request, naming its transaction by `Reference` (as written, or resolved to an id):
/// the command language's `commerce <operation> <transaction> <body>`.
public struct CommerceCall<Reference: Equatable & Sendable>: Equatable, Sendable {
  /// The transaction the path names.
  public var reference: Reference
  /// The typed body.
  public var request: CommerceServerRequest

  /// A call.
  public init(_ reference: Reference, _ request: CommerceServerRequest) {
    self.reference = reference
    self.request = request
  }
}

/// A server request with its transaction resolved: what the engine applies.
public typealias CommerceAction = CommerceCall<UInt64>
