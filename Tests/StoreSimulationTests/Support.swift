import StoreConfiguration
import Testing

@testable import StoreSimulation

/// A configuration for engine tests: every product type, a group with levels for plan changes,
/// and one group per period length.
let testConfigurationJSON = """
  {
    "identifier" : "7E570001",
    "nonRenewingSubscriptions" : [\(product("season", "NonRenewingSubscription", "9.99"))],
    "products" : [\(product("coins", "Consumable", "0.99", extra: oneTimeCode("COINS", "0.49"))), \(product("pro", "NonConsumable", "4.99", extra: oneTimeCode("PROFREE", "0")))],
    "settings" : { "_storefront" : "USA", "_timeRate" : 0 },
    "subscriptionGroups" : [
      {
        "id" : "G1", "localizations" : [], "name" : "Main",
        "subscriptions" : [
          \(subscription("annual", "G1", 1, "P1Y", "39.99")),
          \(subscription("premium.monthly", "G1", 1, "P1M", "9.99")),
          \(subscription("monthly", "G1", 2, "P1M", "4.99", extra: introJSON)),
          \(subscription("plus.monthly", "G1", 2, "P1M", "5.99")),
          \(subscription("basic.monthly", "G1", 3, "P1M", "2.99")),
          \(subscription("basic.yearly", "G1", 3, "P1Y", "29.99"))
        ]
      },
      \(rateGroup("weekly", "P1W")), \(rateGroup("every2months", "P2M")),
      \(rateGroup("quarterly", "P3M")), \(rateGroup("semiannual", "P6M")),
      \(rateGroup("yearly", "P1Y")), \(rateGroup("solo.monthly", "P1M"))
    ],
    "version" : { "major" : 4, "minor" : 0 }
  }
  """

let introJSON = """
  "introductoryOffer" : {"displayPrice" : "0.99", "internalID" : "I1", "numberOfPeriods" : 3,
    "paymentMode" : "payAsYouGo", "subscriptionPeriod" : "P1M"},
  "adHocOffers" : [{"displayPrice" : "1.99", "internalID" : "A1", "numberOfPeriods" : 1,
    "offerID" : "promo.quarter", "paymentMode" : "payUpFront", "referenceName" : "Quarter", "subscriptionPeriod" : "P3M"}],
  "codeOffers" : [{"eligibility" : ["new", "existing", "expired"], "internalID" : "C1", "isStackable" : true,
    "numberOfPeriods" : 1, "paymentMode" : "free", "referenceName" : "CODE1", "subscriptionPeriod" : "P1M"},
    {"eligibility" : ["expired"], "internalID" : "C2", "isStackable" : false,
    "numberOfPeriods" : 1, "paymentMode" : "free", "referenceName" : "COMEBACK", "subscriptionPeriod" : "P1M"}],
  "winbackOffers" : [{"internalID" : "W1", "isEligible" : true, "numberOfPeriods" : 1, "offerID" : "winback.free",
    "paymentMode" : "free", "referenceName" : "Win back", "subscriptionPeriod" : "P1W"}],
  """

func product(_ id: String, _ type: String, _ price: String, extra: String = "") -> String {
  """
  {\(extra)"displayPrice" : "\(price)", "familyShareable" : false, "internalID" : "\(id)",
   "localizations" : [{"description" : "", "displayName" : "\(id) name", "locale" : "en_US"},
                      {"description" : "", "displayName" : "\(id) 日本", "locale" : "ja"}],
   "productID" : "\(id)", "referenceName" : "\(id)", "type" : "\(type)"}
  """
}

/// A one-time product's offer code (`products[].codeOffers`), as a key and a comma.
func oneTimeCode(_ name: String, _ price: String) -> String {
  """
  "codeOffers" : [{"displayPrice" : "\(price)", "internalID" : "\(name)", "paymentMode" : "oneTime",
  "referenceName" : "\(name)"}],
  """
}

func subscription(
  _ id: String, _ group: String, _ level: Int, _ period: String, _ price: String, extra: String = ""
) -> String {
  let offers = extra.isEmpty ? "\"adHocOffers\" : [], \"introductoryOffer\" : null," : extra
  return """
    {\(offers) "displayPrice" : "\(price)", "familyShareable" : false, "groupNumber" : \(level),
     "internalID" : "\(id)", "localizations" : [{"description" : "", "displayName" : "\(id) name", "locale" : "en_US"}],
     "productID" : "\(id)", "recurringSubscriptionPeriod" : "\(period)", "referenceName" : "\(id)",
     "subscriptionGroupID" : "\(group)", "type" : "RecurringSubscription"}
    """
}

func rateGroup(_ id: String, _ period: String) -> String {
  """
  {"id" : "G-\(id)", "localizations" : [], "name" : "\(id)",
   "subscriptions" : [\(subscription(id, "G-\(id)", 1, period, "1.99"))]}
  """
}

let testConfiguration: StoreKitConfiguration = {
  let result = StoreKitConfiguration.load(Array(testConfigurationJSON.utf8))
  precondition(!result.hasErrors, "\(result.diagnostics)")
  return result.configuration!
}()

/// 2026-01-15T10:00:00Z.
let t0 = Instant(iso8601: "2026-01-15T10:00:00Z")!

func instant(_ text: String) -> Instant { Instant(iso8601: text)! }

/// A fresh session on the test configuration at `t0`, optionally at another rate.
func makeSession(
  rate: TimeRate = .realTime, start: Instant = t0,
  _ configure: (inout SessionSettings) -> Void = { _ in }
)
  -> Session
{
  var session = Session(configuration: testConfiguration, start: start)
  session.updateSettings {
    $0.timeRate = rate
    configure(&$0)
  }
  return session
}

/// Runs `body` with a sink and returns what it received.
func events(_ body: (EventSink) throws -> Void) rethrows -> [StoreEvent] {
  var received: [StoreEvent] = []
  try body { received.append($0) }
  return received
}

func seconds(_ value: Int64) -> Int64 { value * 1000 }

extension Instant {
  func plus(seconds value: Int64) -> Instant { adding(milliseconds: value * 1000) }
}

extension [StoreEvent] {
  /// The transactions and their deliveries, in order.
  var transactions: [(Transaction, Delivery?)] {
    compactMap { if case .transaction(let t, let d) = $0.kind { (t, d) } else { nil } }
  }

  var statuses: [SubscriptionStatus] {
    compactMap { if case .status(let s) = $0.kind { s } else { nil } }
  }

  var paymentQueue: [PaymentQueueUpdate] {
    compactMap { if case .paymentQueue(let u) = $0.kind { u } else { nil } }
  }

  var purchaseResults: [PurchaseResult] {
    compactMap { if case .purchaseResult(let r) = $0.kind { r } else { nil } }
  }

  var messages: [MessageReason] {
    compactMap { if case .message(let m, _) = $0.kind { m } else { nil } }
  }

  var removed: [UInt64] {
    compactMap { if case .transactionRemoved(let id, _) = $0.kind { id } else { nil } }
  }
}
