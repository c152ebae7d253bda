import NIOConcurrencyHelpers
import StoreDelivery
import StoreJSON
import StoreSigning
import StoreSimulation

/// What the App Store Server API's reads answer from: a session as it was committed, whose
/// account a request asks about, and how payloads are signed. A value: a read runs on any
/// thread, beside the command under way on the session's own (``ReadAccess`` holds the last
/// committed one).
struct SessionReader {
  /// The purchaser's session.
  let base: Session
  /// The host's revision `base` is at (the caches' key).
  let revision: Int
  let signer: Signer
  /// The outbox notifications go through, when they go anywhere.
  let outbox: NotificationOutbox?
  /// What is kept between requests: history orders, member views, test notifications.
  let shared: ReadCache
  /// Whose transactions the request reads (the context's, which ``customer(_:)`` chose): the
  /// purchaser's, or a family member's.
  var account = Account.purchaser

  /// The simulated present.
  var now: Instant { base.now }
  /// The bundle id payloads carry.
  var bundleID: String { signer.bundleID }
  /// The environment payloads carry.
  var environment: String { signer.environment.rawValue }

  /// The session as the request's account sees it, made once per revision and account.
  var session: SessionView { view(of: account) }

  /// The session as `account` sees it: the committed session itself for the customer it acts
  /// as, else a view made once per revision and account.
  func view(of account: Account) -> SessionView {
    guard account != Account(customer: base.customer) else { return SessionView(base) }
    return shared.view(revision: revision, now: base.now, account: account) {
      base.view(of: account)
    }
  }

  /// The session as the customer whose id range holds `id` sees it (the request's own view
  /// when that is the request's customer); `nil` when no customer's range holds it.
  func view(holding id: UInt64) -> SessionView? {
    guard let customer = base.customer(owningID: id) else { return nil }
    return customer == account.customer ? session : view(of: Account(customer: customer))
  }

  /// The ledger's rows ordered as Transaction History orders them (purchase date, then id),
  /// sorted once per revision and account.
  func historyOrder() -> [LedgerRow] {
    shared.historyOrder(revision: revision, account: account) {
      var rows = session.ledgerRows()
      if !zip(rows, rows.dropFirst()).allSatisfy({
        ($0.purchaseDate, $0.id) <= ($1.purchaseDate, $1.id)
      }) {
        rows.sort { ($0.purchaseDate, $0.id) < ($1.purchaseDate, $1.id) }
      }
      return rows
    }
  }

  /// `GET /storekeeper/v1/health`.
  func health() -> ServerResponse {
    json(
      .object(
        JSONObject([
          JSONMember("status", .string("ok")), JSONMember("now", .string(now.iso8601)),
        ])))
  }

  /// The transaction an id names: 4000006 when it is not an id, 4040010 when there is none.
  func transaction(_ text: String) throws(AppStoreError) -> Transaction {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }),
      let id = UInt64(text)
    else { throw .invalidTransactionID }
    guard let transaction = view(holding: id)?.transaction(id) else {
      throw .transactionIDNotFound
    }
    return transaction
  }

  /// The account a customer id names, for the endpoints that take any of the customer's ids
  /// (Apple's `transactionId` "or appTransactionId"): a transaction id, an original one, or the
  /// account's `appTransactionId`. 4000006 when it is not an id, 4040010 when there is none.
  /// A member's transaction id or `appTransactionId` names the member: their history,
  /// statuses and app transaction.
  func customer(_ text: String) throws(AppStoreError) -> Account {
    if let imported = base.customer(importedAppTransactionID: text) {
      return Account(customer: imported)
    }
    if let numbers = Account.numbers(ofAppTransactionID: text),
      let customer = base.customer(number: numbers.customer),
      numbers.member != 0 || !base.hasImportedAppTransactionID(customer)
    {
      let view = view(of: Account(customer: customer))
      let accounts =
        [Account(customer: customer)]
        + view.everyFamilyMember.map { Account(customer: customer, member: $0) }
      if let named = accounts.first(where: { $0.appTransactionID == text }) { return named }
    }
    let transaction = try transaction(text)
    return view(holding: transaction.id)?.owner(ofTransaction: transaction.id)
      ?? transaction.owner
  }

  /// An original transaction id: 4000008 when it is not an id, 4040005 when no purchase has it.
  func originalTransaction(_ text: String) throws(AppStoreError) -> Transaction {
    guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let id = UInt64(text)
    else {
      throw AppStoreError(.invalidOriginalTransactionID)
    }
    guard let transaction = view(holding: id)?.transaction(id), transaction.originalID == id
    else {
      throw AppStoreError(.originalTransactionIDNotFound)
    }
    return transaction
  }

  func sign(_ transaction: Transaction) throws(AppStoreError) -> String {
    do {
      return try signer.sign(transaction, signedDate: now, for: .server)
    } catch {
      throw AppStoreError(.generalInternal)
    }
  }

  /// `GET /inApps/v1/transactions/{transactionId}` (Get Transaction Info).
  func transactionInfo(_ id: String) throws(AppStoreError) -> JSONValue {
    .object(
      JSONObject([JSONMember("signedTransactionInfo", .string(try sign(try transaction(id))))]))
  }

  /// Look Up Order ID: the order's signed transactions and status 0, or status 1 when there is
  /// no such order (Apple answers 200 either way).
  func lookUp(order: String) throws(AppStoreError) -> JSONValue {
    guard let id = OrderID.transactionID(order),
      let transaction = view(holding: id)?.transaction(id), transaction.orderID == order
    else {
      return .object(
        JSONObject([
          JSONMember("status", .number(JSONNumber(1))),
          JSONMember("signedTransactions", .array([])),
        ]))
    }
    return .object(
      JSONObject([
        JSONMember("status", .number(JSONNumber(0))),
        JSONMember("signedTransactions", .array([.string(try sign(transaction))])),
      ]))
  }

  /// `GET /inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}` (Get Status of
  /// Subscription Renewal Date Extensions).
  func extensionStatus(product: String, request: String) throws(AppStoreError) -> JSONValue {
    guard let done = base.massExtension(productID: product, requestIdentifier: request) else {
      throw AppStoreError(
        .statusRequestNotFound, message: "No extension request \(request) for \(product) was found."
      )
    }
    return .object(
      JSONObject([
        JSONMember("requestIdentifier", .string(request)),
        JSONMember("complete", .bool(true)),
        JSONMember("completeDate", .number(JSONNumber(Int(done.completeDate.milliseconds)))),
        JSONMember("succeededCount", .number(JSONNumber(done.summary.succeededCount))),
        JSONMember("failedCount", .number(JSONNumber(done.summary.failedCount))),
      ]))
  }

  func json(_ value: JSONValue, status: Int = 200) -> ServerResponse {
    ServerResponse(status: status, body: Array(JSONWriter.compact(value).utf8))
  }
}

/// What reads keep between requests, safe from any thread: each is good for one revision of
/// the session (and one account), and the test notifications' tokens.
final class ReadCache: Sendable {
  /// A value made for one key: the session's revision, its present when that matters (a
  /// quiet advance moves it without a new revision), and the account.
  private struct Key: Equatable, Sendable {
    var revision: Int
    var now: Instant?
    var account: Account
  }
  private struct Kept<Value: Sendable>: Sendable {
    var key: Key
    var value: Value
  }
  private struct State {
    var history: Kept<[LedgerRow]>?
    var view: Kept<SessionView>?
    var tests: [String: Int] = [:]
  }
  private let state = NIOLockedValueBox(State())

  /// The history order at `revision` for `account`, made by `make` when not kept.
  func historyOrder(
    revision: Int, account: Account, _ make: () -> [LedgerRow]
  ) -> [LedgerRow] {
    kept(\.history, Key(revision: revision, now: nil, account: account), make)
  }

  /// A member's view at `revision` and `now`, made by `make` when not kept.
  func view(
    revision: Int, now: Instant, account: Account, _ make: () -> SessionView
  ) -> SessionView {
    kept(\.view, Key(revision: revision, now: now, account: account), make)
  }

  /// What `path` keeps when it was made for `key`, else what `make` makes (kept in its place;
  /// made outside the lock, so two reads may both make it).
  private func kept<Value: Sendable>(
    _ path: WritableKeyPath<State, Kept<Value>?>, _ key: Key, _ make: () -> Value
  ) -> Value {
    if let kept = state.withLockedValue({ $0[keyPath: path] }), kept.key == key {
      return kept.value
    }
    let value = make()
    state.withLockedValue { $0[keyPath: path] = Kept(key: key, value: value) }
    return value
  }

  /// How many test notifications were asked for.
  var testCount: Int { state.withLockedValue { $0.tests.count } }

  /// Keeps a test notification's outbox entry under its token.
  func keepTest(_ token: String, entry: Int) {
    state.withLockedValue { $0.tests[token] = entry }
  }

  /// The outbox entry of a test notification's token.
  func test(_ token: String) -> Int? { state.withLockedValue { $0.tests[token] } }
}
