import AsyncHTTPClient
import Foundation
import NIOCore
import StoreJSON
import StoreSigning

/// Reads one customer's whole history from the App Store Server API (Apple's, the sandbox's, or
/// any server that speaks it, such as `storekeeper serve`): every page of Get Transaction
/// History v2, Get All Subscription Statuses, every page of Get Refund History and, where the
/// server has it, Get Notification History. Each signed value is verified with `verifier` (the
/// roots given) before it is used, then checked to be this app's and one environment's
/// (``SourceCheck``); without a verifier (`--no-verify`) only decoded.
///
/// Bounded: the whole read ends by a deadline, each request by its own (a server that trickles
/// its answer cannot hold it), at most ``byteLimit`` bytes in all are read, and a list whose
/// pages repeat is stopped. A refused connection is said at once.
public final class HistoryFetcher: Sendable {
  let base: String
  let token: @Sendable () throws -> String
  private let verifier: SignedDataVerifier?
  private let source: SourceCheck
  let client: HTTPClient
  /// How long the whole read may take.
  let timeout: Duration
  /// Hears what the read waits for, when a request keeps it waiting (`import: waiting …`).
  let waiting: @Sendable (String) -> Void
  /// The most pages read of one list (a server that always says `hasMore` cannot hold us).
  static let pageLimit = 10_000
  /// The most bytes read in all (a customer's whole history is far smaller).
  static let byteLimit = 256 << 20

  /// A fetcher of `base` (`https://api.storekit.itunes.apple.com`), authenticating each request
  /// with a fresh `token()`, done within `timeout`.
  public init(
    base: String, verifier: SignedDataVerifier?, source: SourceCheck = SourceCheck(),
    timeout: Duration = .seconds(300), waiting: @escaping @Sendable (String) -> Void = { _ in },
    token: @escaping @Sendable () throws -> String
  ) {
    self.base = base.hasSuffix("/") ? String(base.dropLast()) : base
    self.verifier = verifier
    self.source = source
    self.timeout = timeout
    self.waiting = waiting
    self.token = token
    var configuration = HTTPClient.Configuration(
      redirectConfiguration: .follow(max: 5, allowCycles: false),
      timeout: .init(connect: .seconds(5), read: nil))
    configuration.proxy = nil
    // A refused connection is the answer (said at once), not something to retry until the
    // connect timeout.
    configuration.connectionPool.retryConnectionEstablishment = false
    client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
  }

  deinit { client.shutdown(queue: .global()) { _ in } }

  /// The customer's history, by any of their transaction ids, read within the fetcher's
  /// timeout.
  ///
  /// - Throws: ``ImportError``: an unknown id (Apple's 4040010, naming it), a refused token
  ///   (401), a server that cannot be reached or keeps it waiting past the timeout, a signature
  ///   that does not verify, another app's or environment's value, an answer not in Apple's
  ///   shape or past the size bound.
  public func fetch(transactionID: String) async throws(ImportError) -> FetchedHistory {
    let deadline = ContinuousClock.now + timeout
    let outcome = await withTaskGroup(of: Result<FetchedHistory, ImportError>?.self) { group in
      group.addTask { [self] in
        do throws(ImportError) {
          return .success(try await read(transactionID, deadline: deadline))
        } catch {
          return .failure(error)
        }
      }
      group.addTask { [timeout] in
        try? await Task.sleep(until: deadline, clock: .continuous)
        return Task.isCancelled
          ? nil
          : .failure(
            ImportError(
              "the import did not finish within \(timeout.components.seconds) s; "
                + "--timeout gives it longer"))
      }
      let first = await group.next() ?? nil
      group.cancelAll()
      return first
    }
    return try (outcome ?? .failure(ImportError("the import was cancelled"))).get()
  }

  private func read(
    _ transactionID: String, deadline: ContinuousClock.Instant
  ) async throws(ImportError) -> FetchedHistory {
    var history = FetchedHistory()
    history.source = source
    history.deadline = deadline
    do throws(ImportError) {
      history.transactions = try await pages(
        "/inApps/v2/history/\(transactionID)?sort=ASCENDING", key: "signedTransactions",
        what: "Get Transaction History", &history)
    } catch  where error.appleCode == 4_040_010 {
      throw ImportError(
        "the App Store knows no transaction \(transactionID) (4040010 "
          + "TransactionIdNotFoundError): give one of the customer's transaction ids",
        appleCode: error.appleCode)
    }
    history.mergeDuplicateTransactions()
    let statuses = try await object(
      "GET", "/inApps/v1/subscriptions/\(transactionID)", what: "Get All Subscription Statuses",
      &history)
    history.statuses = try readStatuses(statuses, &history)
    history.renewalInfos = history.statuses.map(\.renewalInfo)
    history.refunds = try await pages(
      "/inApps/v2/refund/lookup/\(transactionID)", key: "signedTransactions",
      what: "Get Refund History", &history)
    // The history only adds to what is imported: a failure is told, not fatal.
    do throws(ImportError) {
      history.notifications = try await notifications(transactionID, &history)
    } catch {
      history.notificationProblem = error.description
    }
    return history
  }

  /// Every page of a list that pages with `revision` and `hasMore`, each item verified.
  private func pages(
    _ path: String, key: String, what: String, _ history: inout FetchedHistory
  ) async throws(ImportError) -> [JSONObject] {
    var items: [JSONObject] = []
    var revision: String?
    var revisions: Set<String> = []
    for page in 0..<Self.pageLimit {
      let separator = path.contains("?") ? "&" : "?"
      let query = revision.map { "\(separator)revision=\(percentEncoded($0))" } ?? ""
      let answer = try await object("GET", path + query, what: what, &history)
      guard case .array(let signed)? = answer[key] else {
        throw ImportError("\(what) answered without \(key) (page \(page + 1))")
      }
      for (index, value) in signed.enumerated() {
        items.append(try verified(value, "\(what), page \(page + 1), \(key)[\(index)]", &history))
      }
      guard answer["hasMore"] == .bool(true), case .string(let next)? = answer["revision"] else {
        return items
      }
      guard revisions.insert(next).inserted else {
        throw ImportError(
          "\(what) gave revision \(next.prefix(40)) again on page \(page + 1) and still says "
            + "hasMore: its pages go round in a circle")
      }
      revision = next
    }
    throw ImportError("\(what) still said hasMore after \(Self.pageLimit) pages")
  }

  private func readStatuses(
    _ answer: JSONObject, _ history: inout FetchedHistory
  )
    throws(ImportError) -> [FetchedHistory.Status]
  {
    guard case .array(let groups)? = answer["data"] else {
      throw ImportError("Get All Subscription Statuses answered without data")
    }
    var statuses: [FetchedHistory.Status] = []
    for case .object(let group) in groups {
      guard case .string(let groupID)? = group["subscriptionGroupIdentifier"],
        case .array(let last)? = group["lastTransactions"]
      else { throw ImportError("a subscription group's status is not in Apple's shape") }
      for case .object(let item) in last {
        let place = "Get All Subscription Statuses, group \(groupID)"
        guard case .number(let status)? = item["status"], let code = Int(status.text),
          let transaction = item["signedTransactionInfo"], let renewal = item["signedRenewalInfo"]
        else { throw ImportError("\(place): a last transaction is not in Apple's shape") }
        statuses.append(
          FetchedHistory.Status(
            groupID: groupID, status: code,
            transaction: try verified(transaction, place + ", signedTransactionInfo", &history),
            renewalInfo: try verified(renewal, place + ", signedRenewalInfo", &history)))
      }
    }
    return statuses
  }

  /// Get Notification History for the customer, from their first purchase to now.
  private func notifications(
    _ transactionID: String, _ history: inout FetchedHistory
  )
    async throws(ImportError) -> [JSONObject]
  {
    let dates = history.transactions.compactMap { Self.milliseconds($0["purchaseDate"]) }
    let end = max(history.latestSignedDate, Int64(Date().timeIntervalSince1970 * 1000))
    // Apple keeps 180 days of history and refuses a start before them
    // (StartDateTooFarInPastError): the latest 180 days at most, an hour to spare.
    let oldest = history.latestSignedDate - 180 * 86_400_000 + 3_600_000
    let start = max((dates.min() ?? history.latestSignedDate) - 86_400_000, oldest)
    var found: [JSONObject] = []
    var token: String?
    for page in 0..<Self.pageLimit {
      let body =
        #"{"startDate":\#(start),"endDate":\#(end),"transactionId":"\#(transactionID)"}"#
      let query = token.map { "?paginationToken=\(percentEncoded($0))" } ?? ""
      let answer = try await object(
        "POST", "/inApps/v1/notifications/history" + query, body: body,
        what: "Get Notification History", &history)
      guard case .array(let items)? = answer["notificationHistory"] else { return found }
      for case .object(let item) in items {
        guard let payload = item["signedPayload"] else { continue }
        found.append(
          try verified(payload, "Get Notification History, page \(page + 1)", &history))
      }
      guard answer["hasMore"] == .bool(true), case .string(let next)? = answer["paginationToken"]
      else { return found }
      token = next
    }
    return found
  }

  /// A signed value verified (or, without a verifier, decoded).
  private func verified(
    _ value: JSONValue, _ place: String, _ history: inout FetchedHistory
  )
    throws(ImportError) -> JSONObject
  {
    guard case .string(let jws) = value else { throw ImportError("\(place) is not a JWS") }
    let payload: JSONObject
    do {
      if let verifier {
        payload = try verifier.verify(jws)
      } else if case .object(let object) = try JWS.decode(jws).payload {
        payload = object
      } else {
        throw SigningError("the payload is not a JSON object")
      }
    } catch {
      throw ImportError("\(place) does not verify: \(error)")
    }
    try history.source.check(payload, place: place)
    if let signed = Self.milliseconds(payload["signedDate"]) {
      history.latestSignedDate = max(history.latestSignedDate, signed)
    }
    return payload
  }

  static func milliseconds(_ value: JSONValue?) -> Int64? {
    guard case .number(let number)? = value, let double = Double(number.text) else { return nil }
    return Int64(double)
  }

  private func percentEncoded(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}
