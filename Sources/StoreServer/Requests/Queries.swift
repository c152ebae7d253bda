import StoreJSON

/// Get All Subscription Statuses' query (`?status=`, repeated): Apple's status numbers 1 to 5
/// (4000025 otherwise); none asks for every status.
struct StatusQuery {
  var wanted = Set<Int>()

  init(_ query: [String: [String]]) throws(AppStoreError) {
    for text in query["status"] ?? [] {
      guard let value = Int(text), (1...5).contains(value) else {
        throw AppStoreError(.invalidStatus)
      }
      wanted.insert(value)
    }
  }
}

/// Get Refund History's query: `revision`, where the previous page ended.
struct RefundHistoryQuery {
  var after: HistoryCursor?

  init(_ query: [String: [String]]) throws(AppStoreError) {
    after = try HistoryCursor(revision: query["revision"]?.last)
  }
}

/// Get Notification History's body and query, checked as Apple checks them: the dates (start
/// not after end), a known `notificationType`, a `transactionId` only without type filters, and
/// `paginationToken` one this server gave. How far back the start may be is the session's to
/// say (it knows the time).
struct NotificationHistoryRequest {
  var startDate: Int64
  var endDate: Int64
  var notificationType: String?
  var notificationSubtype: String?
  /// The transaction whose customer's notifications are asked for, as written.
  var transactionID: String?
  var onlyFailures: Bool
  /// Where the page starts among the notifications sent.
  var offset = 0

  init(query: [String: [String]], body bytes: [UInt8]) throws(AppStoreError) {
    let body = try JSONObject(requestBody: bytes)
    func date(_ name: String, _ error: AppStoreServerAPIError) throws(AppStoreError) -> Int64 {
      guard case .number(let number)? = body[name], let value = number.intValue, value >= 0
      else {
        throw AppStoreError(error, message: "Invalid \(name).")
      }
      return Int64(value)
    }
    startDate = try date("startDate", .invalidStartDate)
    endDate = try date("endDate", .invalidEndDate)
    guard startDate <= endDate else {
      throw AppStoreError(
        .startDateAfterEndDate, message: "The start date is later than the end date.")
    }
    if let value = body["notificationType"], value != .null {
      guard case .string(let text) = value, SessionReader.notificationTypes.contains(text) else {
        throw AppStoreError(.invalidNotificationType)
      }
      notificationType = text
    }
    if case .string(let text)? = body["notificationSubtype"] { notificationSubtype = text }
    if let value = body["transactionId"], value != .null {
      guard notificationType == nil, notificationSubtype == nil else {
        throw AppStoreError(.multipleFiltersSupplied)
      }
      guard case .string(let text) = value else { throw .invalidTransactionID }
      transactionID = text
    }
    onlyFailures = body["onlyFailures"] == .bool(true)
    if let token = query["paginationToken"]?.last {
      guard token.hasPrefix("sk1-"), let value = Int(token.dropFirst(4)), value >= 0 else {
        throw AppStoreError(.invalidPaginationToken)
      }
      offset = value
    }
  }
}
