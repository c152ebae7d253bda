import Foundation
import StoreCommands
import StoreSigning
import StoreSimulation

/// The inputs fuzzing starts from: small, written for it, covering each language's features.
enum FuzzSeeds {
  /// A configuration with every product type, a group of two levels, every kind of offer, two
  /// locales and non-default settings.
  static let configuration = #"""
    {
      "identifier" : "F0220001",
      "nonRenewingSubscriptions" : [
        {
          "displayPrice" : "4.99",
          "familyShareable" : false,
          "internalID" : "F0220002",
          "localizations" : [
            { "description" : "A season.", "displayName" : "Season", "locale" : "en_US" }
          ],
          "productID" : "fuzz.season",
          "referenceName" : "Season",
          "type" : "NonRenewingSubscription"
        }
      ],
      "products" : [
        {
          "displayPrice" : "0.99",
          "familyShareable" : false,
          "internalID" : "F0220003",
          "localizations" : [
            { "description" : "Coins.", "displayName" : "Coins", "locale" : "en_US" },
            { "description" : "コイン", "displayName" : "コイン", "locale" : "ja" }
          ],
          "productID" : "fuzz.coins",
          "referenceName" : "Coins",
          "type" : "Consumable"
        },
        {
          "displayPrice" : "19.99",
          "familyShareable" : true,
          "internalID" : "F0220004",
          "localizations" : [
            { "description" : "Forever.", "displayName" : "Lifetime", "locale" : "en_US" }
          ],
          "productID" : "fuzz.lifetime",
          "referenceName" : "Lifetime",
          "type" : "NonConsumable"
        }
      ],
      "settings" : {
        "_askToBuyEnabled" : false,
        "_billingGracePeriodEnabled" : true,
        "_billingIssuesEnabled" : false,
        "_locale" : "en_US",
        "_renewalBillingIssuesEnabled" : false,
        "_storefront" : "USA",
        "_timeRate" : 15
      },
      "subscriptionGroups" : [
        {
          "id" : "F0220010",
          "localizations" : [ ],
          "name" : "Fuzz Plus",
          "subscriptions" : [
            {
              "adHocOffers" : [
                {
                  "displayPrice" : "1.99",
                  "internalID" : "F0220011",
                  "numberOfPeriods" : 2,
                  "offerID" : "fuzz.promo",
                  "paymentMode" : "payAsYouGo",
                  "referenceName" : "Promo",
                  "subscriptionPeriod" : "P1M"
                }
              ],
              "codeOffers" : [
                {
                  "eligibility" : [ "new", "existing", "expired" ],
                  "internalID" : "F0220012",
                  "isStackable" : true,
                  "numberOfPeriods" : 1,
                  "paymentMode" : "free",
                  "referenceName" : "Free Month",
                  "subscriptionPeriod" : "P1M"
                }
              ],
              "displayPrice" : "4.99",
              "familyShareable" : false,
              "groupNumber" : 2,
              "internalID" : "F0220013",
              "introductoryOffer" : {
                "internalID" : "F0220014",
                "numberOfPeriods" : 1,
                "paymentMode" : "free",
                "subscriptionPeriod" : "P1W"
              },
              "localizations" : [
                { "description" : "Monthly.", "displayName" : "Plus Monthly", "locale" : "en_US" }
              ],
              "productID" : "fuzz.monthly",
              "recurringSubscriptionPeriod" : "P1M",
              "referenceName" : "Plus Monthly",
              "subscriptionGroupID" : "F0220010",
              "type" : "RecurringSubscription",
              "winbackOffers" : [
                {
                  "displayPrice" : "0.99",
                  "eligibilityDurationSinceLastSubscribed" : "P1M",
                  "internalID" : "F0220015",
                  "isPriority" : true,
                  "numberOfPeriods" : 1,
                  "offerID" : "fuzz.winback",
                  "paymentMode" : "payUpFront",
                  "referenceName" : "Come back",
                  "subscriptionPeriod" : "P3M"
                }
              ]
            },
            {
              "adHocOffers" : [ ],
              "codeOffers" : [ ],
              "displayPrice" : "49.99",
              "familyShareable" : false,
              "groupNumber" : 1,
              "internalID" : "F0220016",
              "introductoryOffer" : null,
              "localizations" : [
                { "description" : "Yearly.", "displayName" : "Plus Yearly", "locale" : "en_US" }
              ],
              "productID" : "fuzz.yearly",
              "recurringSubscriptionPeriod" : "P1Y",
              "referenceName" : "Plus Yearly",
              "subscriptionGroupID" : "F0220010",
              "type" : "RecurringSubscription",
              "winbackOffers" : [ ]
            }
          ]
        }
      ],
      "version" : { "major" : 4, "minor" : 0 }
    }
    """#

  /// One line of every command, with every option.
  static let commands = [
    "buy fuzz.monthly", "buy fuzz.coins quantity=10 from=store", "buy fuzz.monthly offer=intro",
    "buy fuzz.monthly offer=promo:fuzz.promo token=9F1C5E2A-8B5D-4C1E-9A7B-1D2E3F4A5B6C",
    "buy fuzz.monthly offer=code:\"Free Month\"", "buy fuzz.monthly offer=winback:fuzz.winback",
    "buy fuzz.yearly date=2026-11-01T00:00:00Z renew=auto",
    "buy fuzz.yearly date=2026-10-01 renew=once",
    "approve last", "decline last:fuzz.yearly", "resolve 0", "refund last reason=developerIssue",
    "refund 1 reason=other", "auto-renew last off", "auto-renew 0 on", "expire fuzz.monthly",
    "renew fuzz.monthly", "restore", "price-increase request last", "price-increase consent last",
    "price-increase decline 0", "finish all", "finish last", "delete 2", "clear",
    "advance 30s", "advance 5m", "advance 2h", "advance 3d", "advance 1w", "advance 1mo",
    "advance 1y", "advance P1M", "advance PT30S", "advance P1DT12H", "advance PT0.5S",
    "advance 500ms", "advance next", "advance 2026-12-01T00:00:00Z",
    "set ask-to-buy on", "set interrupted-purchases on", "set billing-retry on",
    "set grace-period off", "set dialogs off", "set fail-transactions paymentCancelled",
    "set fail-transactions off", "set error purchase networkError", "set error purchase off",
    "set time-rate oneRenewalEveryTwoSeconds", "set time-rate 1003", "set storefront JPN",
    "set locale ja", "set winback-eligible fuzz.winback on", "reset", "launch",
    "call products", "call status", "call sync", "call app-transaction",
    "call refund-request last reason=other", "call manage-subscriptions", "call redeem-sheet",
    "# a comment", "buy \"fuzz.coins\" quantity=2 # trailing",
    "refund last percentage=33.333", "refund-request last reason=unintendedPurchase",
    "refund-decline last", "refund-reverse 0", "extend last days=30 reason=serviceIssueOrOutage",
    "extend-all fuzz.monthly days=5 request=r-1",
  ]

  /// Filters with every field and form.
  static let filters = [
    "fuzz", "product:fuzz.monthly", "product:fuzz.monthly,fuzz.coins", "!product:fuzz.coins",
    "state:refunded", "state:pending,renewed", "type:consumable", "type:autoRenewable",
    "offer:intro", "offer:promo", "id:3", "id:1,2", "original:0", "after:2026-11-01",
    "before:2026-12-01T00:00:00Z", "on:2026-11-22", "date:2026-11-01..2026-12-01",
    "product:fuzz state:renewed after:2026-11-22", "!state:expired fuzz.yearly",
  ]

  /// Journals written by the real session: a short one, one with a configuration change and
  /// one with a torn last line.
  static func journals() -> [[UInt8]] {
    let bytes = Array(configuration.utf8)
    let header = JournalHeader(
      configurationPath: "fuzz.storekit", configuration: bytes, start: FuzzTarget.start)
    let commandLines = [
      "buy fuzz.monthly", "advance 1mo", "buy fuzz.coins quantity=2", "refund last",
      "set ask-to-buy on", "buy fuzz.yearly", "approve last",
    ]
    var records: [JournalRecord] = []
    var at = FuzzTarget.start
    for (index, line) in commandLines.enumerated() {
      records.append(.command(at: at, text: line))
      if index == 1 { at = at.adding(milliseconds: 30 * 86_400_000) }
    }
    records.append(.advance(to: at.adding(milliseconds: 90_000)))
    let short = header.line + records.flatMap(\.line)
    var changed = bytes
    changed.replaceSubrange(changed.startIndex..<changed.startIndex, with: Array(" ".utf8))
    let reloaded =
      header.line + records.prefix(2).flatMap(\.line)
      + JournalRecord.configuration(at: at, bytes: changed).line
    return [short, reloaded, short + Array(#"{"at":"2026-1"#.utf8), header.line]
  }

  /// Signed payloads from a throwaway identity: a transaction, a renewal info, an app
  /// transaction and a notification body.
  static func signed() throws -> [[UInt8]] {
    // Its own folder: test cases running at once each make their seeds.
    let folder = NSTemporaryDirectory() + "storekeeper-fuzz-keys-\(UUID().uuidString)"
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let signer = Signer(
      identity: try SigningIdentity.load(in: folder, chain: false), environment: .xcode,
      bundleID: "com.example.fuzz")
    let session = FuzzTarget.commandSession
    var seeds: [String] = []
    if let transaction = session.allTransactions().first {
      seeds.append(try signer.sign(transaction, signedDate: FuzzTarget.start))
    }
    if let status = session.subscriptionStatuses().first {
      seeds.append(try signer.sign(status, signedDate: FuzzTarget.start))
    }
    seeds.append(try signer.signAppTransaction(signedDate: FuzzTarget.start))
    seeds.append(try signer.testBody(at: FuzzTarget.start))
    let receipt = try signer.receipt(session.receiptContents())
    return seeds.map { Array($0.utf8) } + [
      receipt, Array(Data(receipt).base64EncodedString().utf8),
    ]
  }
}
