import StoreConfiguration
import StoreJSON
import StoreSimulation

/// One line of the command language: a verb and its arguments. Scripts, the TUI's `:` prompt,
/// key presses and journal replay all become commands.
///
/// `Command(parsing:)` reads a line; `description` prints it back so that parsing the printed
/// line gives the same command.
public enum Command: Equatable, Sendable {
  /// `buy <productID> [quantity=N] [offer=…] [token=…] [date=…] [renew=…] [from=…]`.
  case buy(productID: String, options: PurchaseOptions)
  /// `approve <txn>`: a parent approves an Ask to Buy request.
  case approve(TransactionReference)
  /// `decline <txn>`: a parent declines it.
  case decline(TransactionReference)
  /// `resolve <txn>`: an interrupted purchase or a billing issue is resolved.
  case resolve(TransactionReference)
  /// `refund <txn> [reason=…] [percentage=P]`: a full refund, or a prorated one of P percent
  /// (`share` in thousandths of a percent).
  case refund(TransactionReference, reason: RevocationReason?, share: Int? = nil)
  /// `refund-request <txn> [reason=…]`: the customer asks Apple for a refund.
  case refundRequest(TransactionReference, reason: RefundRequestReason?)
  /// `refund-decline <txn>`: Apple declines the request.
  case refundDecline(TransactionReference)
  /// `refund-reverse <txn>`: Apple reverses a refund it granted.
  case refundReverse(TransactionReference)
  /// `extend <txn> days=N [reason=…]`: the App Store Server API extends one renewal date.
  case extend(TransactionReference, days: Int, reason: ExtendReason?)
  /// `extend-all <productID> days=N [reason=…] [request=ID] [storefronts=USA,CAN]`: every
  /// subscriber of a product (in those storefronts).
  case extendAll(
    productID: String, days: Int, reason: ExtendReason?, request: String?,
    storefronts: [String] = [])
  /// `auto-renew <txn> on|off`.
  case autoRenew(TransactionReference, enabled: Bool)
  /// `expire <productID>`: the subscription expires now.
  case expire(productID: String)
  /// `renew <productID>`: the subscription renews now.
  case renew(productID: String)
  /// `restore`: `AppStore.sync()`.
  case restore
  /// `price-increase request|consent|decline <txn> [price=P]`: `price=` (with `request`) is the
  /// new price in the storefront's currency; by default the price now plus 10%.
  case priceIncrease(PriceIncreaseAction, TransactionReference, price: Int64? = nil)
  /// `back` (before the last event) or `undo` (before the last command): the session steps back
  /// in its history by replay; it needs the history (a journaled session, the inspector).
  case stepBack(StepBack)
  /// `finish <txn>`, or `finish all` when `nil`.
  case finish(TransactionReference?)
  /// `delete <txn>`: as if it never happened.
  case delete(TransactionReference)
  /// `clear`: every transaction deleted.
  case clear
  /// `advance <duration>|next|<instant>`.
  case advance(Advance)
  /// `set <setting> <value>`.
  case set(SettingChange)
  /// `reset`: every setting back to the file's.
  case reset
  /// `launch`: the app starts (unfinished transactions are delivered again).
  case launch
  /// `call <api> [<txn>] [reason=…]`; the reason is the refund sheet's.
  case call(StoreKitAPI, TransactionReference?, reason: RefundSheetReason?)
  /// `call receipt`: the app refreshes its receipt (`SKReceiptRefreshRequest`).
  case refreshReceipt
  /// `consumption <txn> name=value…`: the app's server answers a refund request's
  /// `CONSUMPTION_REQUEST` (Apple's field names).
  case consumption(TransactionReference, fields: [ConsumptionInformation.Field])
  /// `account-token <txn> <uuid>|none`: the app's server sets a purchase's app account token.
  case accountToken(TransactionReference, token: String?)
  /// `notify retry` and `set notify-fault …`: what `storekeeper serve`'s notification delivery
  /// does (not the session's state: never journaled).
  case notify(NotifyAction)
  /// `notify rescind-consent` and `notify external-purchase-token <subtype> [id=…]
  /// [creation=…]`: a server notification with no purchase behind it (journaled).
  case notice(NoticeRequest)
  /// `family join <name>`, `family leave <name>`, `family sharing <productID> on|off`: the
  /// purchaser's family changes.
  case family(FamilyAction)
  /// `customer <name> [number=N]`: the following lines act as that customer (made on first
  /// use); `customer` alone, as the session's own.
  case customer(name: String?, number: Int?)
  /// `retention show|accept|review|url|default|upload-…|delete-…`: Retention Messaging.
  case retention(RetentionAction)
  /// `import transaction <JSON>`: a transaction Apple reported, placed under its own id.
  case importTransaction(ImportedTransaction)
  /// `import renewal <JSON>`: a subscription's state as Apple reported it.
  case importRenewal(ImportedRenewal)
  /// `seats <txn> N`, `seat-claim|seat-unclaim|seat-associate …`, `refund <txn> seats=N`, `set
  /// invitations apple|developer`, `group invite|remove <name>`: a multiseat subscription's
  /// seats.
  case seats(SeatCommand)
  /// `set advanced-commerce <productID> subscription|one-time|off`: App Store Connect's
  /// generic Advanced Commerce product.
  case declareCommerce(productID: String, CommerceKind?)
  /// `commerce <operation> <transaction> <body>`: an Advanced Commerce API server request,
  /// its body Apple's JSON.
  case commerce(CommerceCommand)

  /// The command's verb.
  public var verb: String {
    switch self {
    case .buy: "buy"
    case .approve: "approve"
    case .decline: "decline"
    case .resolve: "resolve"
    case .refund: "refund"
    case .refundRequest: "refund-request"
    case .refundDecline: "refund-decline"
    case .refundReverse: "refund-reverse"
    case .extend: "extend"
    case .extendAll: "extend-all"
    case .autoRenew: "auto-renew"
    case .expire: "expire"
    case .renew: "renew"
    case .restore: "restore"
    case .priceIncrease: "price-increase"
    case .stepBack(let kind): kind.rawValue
    case .finish: "finish"
    case .delete: "delete"
    case .clear: "clear"
    case .advance: "advance"
    case .set: "set"
    case .reset: "reset"
    case .launch: "launch"
    case .call: "call"
    case .consumption: "consumption"
    case .accountToken: "account-token"
    case .notify, .notice: "notify"
    case .refreshReceipt: "call"
    case .seats(.refund): "refund"
    case .seats(.invitations), .seats(.pricing): "set"
    case .seats(.change): "seats"
    case .seats(.claim): "seat-claim"
    case .seats(.unclaim): "seat-unclaim"
    case .seats(.associate): "seat-associate"
    case .seats(.invite), .seats(.remove): "group"
    case .declareCommerce: "set"
    case .commerce: "commerce"
    case .family: "family"
    case .customer: "customer"
    case .retention: "retention"
    case .importTransaction, .importRenewal: "import"
    }
  }
}

extension Command {
  /// What a verb that takes one thing and nothing else names: a transaction (`approve`,
  /// `decline`, `resolve`, `delete`, `refund-decline`, `refund-reverse`) or a subscription
  /// (`expire`, `renew`).
  var soleArgument: (reference: TransactionReference?, productID: String?)? {
    switch self {
    case .approve(let reference), .decline(let reference), .resolve(let reference),
      .delete(let reference), .refundDecline(let reference), .refundReverse(let reference):
      (reference, nil)
    case .expire(let productID), .renew(let productID): (nil, productID)
    default: nil
    }
  }
}

/// How a command names a transaction.
public enum TransactionReference: Equatable, Sendable, CustomStringConvertible {
  /// By id.
  case id(UInt64)
  /// `last`: the highest existing id.
  case last
  /// `last:<productID>`: the highest existing id of a product.
  case lastOf(String)

  /// `7`, `last`, `last:socialfeed.monthly`.
  public var description: String {
    switch self {
    case .id(let id): String(id)
    case .last: "last"
    case .lastOf(let productID): "last:\(productID)"
    }
  }
}

/// How far `advance` moves the clock.
public enum Advance: Equatable, Sendable {
  /// By a duration.
  case by(CommandDuration)
  /// To the next scheduled transition.
  case next
  /// To an instant.
  case to(Instant)
}

/// A span of time: calendar months plus milliseconds. `30s 5m 2h 3d 1w 1mo 1y`, `500ms`, or
/// ISO-8601 (`P1M`, `PT30S`, `P1DT12H`).
public struct CommandDuration: Equatable, Sendable, CustomStringConvertible {
  /// Calendar months (a year is 12).
  public var months: Int64
  /// Milliseconds on top of the months.
  public var milliseconds: Int64

  /// The longest duration a command takes, in years (a month is a twelfth of one).
  public static let maximumYears: Int64 = 10_000
  /// The longest duration in milliseconds: ``maximumYears`` years of 365.25 days.
  public static let maximumMilliseconds: Int64 = maximumYears * 36_525 * 864_000

  /// Creates a duration.
  public init(months: Int64 = 0, milliseconds: Int64 = 0) {
    self.months = months
    self.milliseconds = milliseconds
  }

  /// The instant this long after `start`: months as calendar months in UTC, then milliseconds.
  public func after(_ start: Instant) -> Instant {
    var result = start
    if months != 0 {
      result = TimeRate.realTime.end(
        of: .init(Int(months), .month), startingAt: start)
    }
    return result.adding(milliseconds: milliseconds)
  }

  /// The shortest form that reads back the same: `30s`, `1mo`, `2w`, or ISO-8601 when mixed.
  public var description: String {
    if milliseconds == 0 && months == 0 { return "0s" }
    if milliseconds == 0 {
      if months % 12 == 0 && months != 0 { return "\(months / 12)y" }
      return "\(months)mo"
    }
    if months == 0 {
      for (unit, length) in Self.units.reversed() where milliseconds % length == 0 {
        return "\(milliseconds / length)\(unit)"
      }
    }
    let seconds = milliseconds / 1000
    let fraction = milliseconds % 1000
    let secondsText =
      fraction == 0 ? "\(seconds)" : "\(seconds).\(String(fraction + 1000).dropFirst())"
    return "P\(months)MT\(secondsText)S"
  }

  static let units: [(String, Int64)] = [
    ("ms", 1), ("s", 1000), ("m", 60_000), ("h", 3_600_000), ("d", 86_400_000),
    ("w", 604_800_000),
  ]
}

/// What `notify` asks of the notification delivery.
public enum NotifyAction: Equatable, Sendable {
  /// `notify retry`: send every notification that never reached the backend again, now.
  case retry
  /// `set notify-fault off|drop|duplicate|delay <duration>`: what happens to every attempt.
  case fault(NotificationFault)
}

/// A fault real delivery does to a backend, injected into every attempt while it is set.
public enum NotificationFault: Equatable, Sendable {
  /// Attempts go out as they are.
  case off
  /// Each attempt is lost on the way: it times out without reaching the backend.
  case drop
  /// Each attempt reaches the backend twice (the same `notificationUUID`).
  case duplicate
  /// Each notification's first attempt waits this long in simulated time.
  case delay(CommandDuration)

  /// The words after `set notify-fault`.
  public var words: [String] {
    switch self {
    case .off: ["off"]
    case .drop: ["drop"]
    case .duplicate: ["duplicate"]
    case .delay(let duration): ["delay", "\(duration)"]
    }
  }
}

/// A seat change as written, its transaction not yet resolved (``SeatAction`` once it is).
public typealias SeatCommand = SeatChange<TransactionReference>

/// An Advanced Commerce server request as the command language writes it: the transaction as
/// written, and the body as Apple's JSON (kept to print the line back).
public struct CommerceCommand: Equatable, Sendable {
  /// The endpoint.
  public var operation: CommerceOperation
  /// The transaction the path names.
  public var reference: TransactionReference
  /// The body, as given.
  public var body: JSONObject
  /// The body, typed and checked.
  public var request: CommerceServerRequest

  /// A command of `operation` on `reference` with `body`.
  ///
  /// - Throws: ``CommandError`` naming the JSON path and Apple's rule it breaks.
  public init(
    _ operation: CommerceOperation, _ reference: TransactionReference, body: JSONObject
  ) throws(CommandError) {
    self.operation = operation
    self.reference = reference
    self.body = body
    do throws(CommerceRefusal) {
      request = try CommerceServerRequest(operation, json: body)
    } catch {
      throw CommandError(SessionError(.commerce(error)), command: "commerce \(operation.word)")
    }
  }
}

/// A change of one session setting.
public enum SettingChange: Equatable, Sendable {
  /// `set ask-to-buy|interrupted-purchases|billing-retry|grace-period|dialogs on|off`: a flag
  /// of ``SettingDescriptor/flags``, on or off as a person says it (`dialogs on` shows them).
  case flag(SettingID, Bool)
  /// `set fail-transactions off|<SKError name>`.
  case failTransactions(SKErrorCode?)
  /// `set error <api> off|<error>`.
  case simulatedError(StoreKitAPI, SimulatedError?)
  /// `set time-rate <name or raw value>`.
  case timeRate(TimeRate)
  /// `set storefront <alpha-3 code>`.
  case storefront(Storefront)
  /// `set locale <identifier>`.
  case locale(String)
  /// `set winback-eligible <offerID> on|off`.
  case winBackEligible(String, Bool)
}
