import Foundation
import StoreConfiguration
import StoreTestSupport

/// Loads a configuration from JSON text.
func load(_ json: String) -> LoadResult {
  StoreKitConfiguration.load(Array(json.utf8))
}

/// The diagnostics of `json`, formatted for a file named `F`.
func diagnostics(_ json: String) -> [String] {
  load(json).diagnostics.map { $0.formatted(file: "F") }
}

/// A minimal valid file with one subscription whose JSON object is `subscription` merged over a
/// default, in format 4.0.
func fileWithSubscription(_ fields: String = "", groupFields: String = "") -> String {
  """
  {
    "identifier" : "ABCD1234",
    "nonRenewingSubscriptions" : [],
    "products" : [],
    "settings" : {},
    "subscriptionGroups" : [
      {
        "id" : "G1",
        "localizations" : [],
        "name" : "Group",
        \(groupFields)
        "subscriptions" : [
          {
            "adHocOffers" : [],
            "codeOffers" : [],
            "displayPrice" : "9.99",
            "familyShareable" : false,
            "groupNumber" : 1,
            "internalID" : "S1",
            "localizations" : [{"description" : "d", "displayName" : "n", "locale" : "en_US"}],
            "productID" : "sub.monthly",
            "recurringSubscriptionPeriod" : "P1M",
            "referenceName" : "Monthly",
            "subscriptionGroupID" : "G1",
            \(fields)
            "type" : "RecurringSubscription"
          }
        ]
      }
    ],
    "version" : { "major" : 4, "minor" : 0 }
  }
  """
}

/// A minimal valid file whose `products` array holds `products`.
func fileWithProducts(_ products: String, extraRoot: String = "") -> String {
  """
  {
    "identifier" : "ABCD1234",
    "products" : [\(products)],
    "settings" : {},
    "subscriptionGroups" : [],
    \(extraRoot)
    "version" : { "major" : 4, "minor" : 0 }
  }
  """
}

func product(
  _ id: String, type: String = "NonConsumable", price: String = "\"0.99\"", extra: String = ""
) -> String {
  """
  {"displayPrice" : \(price), "familyShareable" : false, "internalID" : "I",
   "localizations" : [{"description" : "", "displayName" : "N", "locale" : "en_US"}],
   \(extra)
   "productID" : "\(id)", "referenceName" : "R", "type" : "\(type)"}
  """
}
