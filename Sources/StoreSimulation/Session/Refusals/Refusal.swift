/// Why the engine refused a verb: what was refused and why, with the values a message needs,
/// by family (each family's cases and messages in one file of `Refusals/`).
///
/// The engine decides every rule; a front end maps a reason to its own shape (the App Store
/// Server API's error code, a StoreKit or `SKTestError` error, ``message`` for a person) and
/// decides nothing again, naming a case only where it answers that case apart from its family.
/// A ``SessionError`` carries one.
public enum Refusal: Equatable, Sendable {
  /// A transaction or product that is not there.
  case lookup(LookupRefusal)
  /// A purchase: its quantity, date, offer or billing plan, Ask to Buy and purchase issues.
  case purchase(PurchaseRefusal)
  /// A refund, refund request, consumption report, or a change of a server record.
  case refund(RefundRefusal)
  /// A subscription verb: renewal, auto-renew, price increases, finishing and extensions.
  case subscription(SubscriptionRefusal)
  /// A move of the clock.
  case clock(ClockRefusal)
  /// A simulated StoreKit call or an external purchase notice.
  case call(CallRefusal)
  /// A command a bare session cannot apply.
  case bareSession(BareSessionRefusal)
  /// An imported customer's transaction or renewal.
  case imported(ImportRefusal)
  /// A customer of the session.
  case customer(CustomerRefusal)
  /// A Family Sharing change.
  case family(FamilyRefusal)
  /// A retention action refused, by the rule it broke.
  case retention(RetentionRefusal)
  /// A seat change refused, by the rule it broke.
  case seats(SeatRefusal)
  /// An Advanced Commerce request refused, by the rule it broke.
  case commerce(CommerceRefusal)

  /// What is wrong, for a person: the state that forbids the verb.
  public var message: String {
    switch self {
    case .lookup(let refusal): refusal.message
    case .purchase(let refusal): refusal.message
    case .refund(let refusal): refusal.message
    case .subscription(let refusal): refusal.message
    case .clock(let refusal): refusal.message
    case .call(let refusal): refusal.message
    case .bareSession(let refusal): refusal.message
    case .imported(let refusal): refusal.message
    case .customer(let refusal): refusal.message
    case .family(let refusal): refusal.message
    case .retention(let refusal): refusal.message
    case .seats(let refusal): refusal.message
    case .commerce(let refusal):
      "\(refusal.message) (Apple's \(refusal.rule.appleName), \(refusal.rule.appleCode))"
    }
  }
}

extension SessionError {
  /// The refusal of a verb for a transaction or product that is not there.
  public init(_ reason: LookupRefusal, suggestions: [String] = []) {
    self.init(.lookup(reason), suggestions: suggestions)
  }

  /// The refusal of a purchase.
  public init(_ reason: PurchaseRefusal, suggestions: [String] = []) {
    self.init(.purchase(reason), suggestions: suggestions)
  }

  /// The refusal of a refund or a change of a server record.
  public init(_ reason: RefundRefusal, suggestions: [String] = []) {
    self.init(.refund(reason), suggestions: suggestions)
  }

  /// The refusal of a subscription verb.
  public init(_ reason: SubscriptionRefusal, suggestions: [String] = []) {
    self.init(.subscription(reason), suggestions: suggestions)
  }

  /// The refusal of a move of the clock.
  public init(_ reason: ClockRefusal, suggestions: [String] = []) {
    self.init(.clock(reason), suggestions: suggestions)
  }

  /// The refusal of a simulated call or notice.
  public init(_ reason: CallRefusal, suggestions: [String] = []) {
    self.init(.call(reason), suggestions: suggestions)
  }

  /// The refusal of a command a bare session cannot apply.
  public init(_ reason: BareSessionRefusal, suggestions: [String] = []) {
    self.init(.bareSession(reason), suggestions: suggestions)
  }

  /// The refusal of an imported customer's transaction or renewal.
  public init(_ reason: ImportRefusal, suggestions: [String] = []) {
    self.init(.imported(reason), suggestions: suggestions)
  }

  /// The refusal of a customer named or made wrongly.
  public init(_ reason: CustomerRefusal, suggestions: [String] = []) {
    self.init(.customer(reason), suggestions: suggestions)
  }

  /// The refusal of a Family Sharing change.
  public init(_ reason: FamilyRefusal, suggestions: [String] = []) {
    self.init(.family(reason), suggestions: suggestions)
  }
}
