extension Session {
  /// The app calls a StoreKit API. With a simulated error for it, the call fails with that error;
  /// otherwise it succeeds: `status` reports every group's status, `refundRequest` submits the
  /// refund sheet with the reason the customer picked. As in Xcode's and the sandbox's
  /// environments the transaction is refunded at once, its `revocationReason` the sheet's
  /// (an issue with the app is `developerIssue`, the rest `other`); with the `refund-review`
  /// setting (``SessionSettings/refundReviewEnabled``) it becomes a request that waits for the
  /// App Store's review, as in production.
  ///
  /// - Parameters:
  ///   - transaction: for `refundRequest`, the transaction the sheet is for.
  ///   - reason: for `refundRequest`, the reason chosen in the sheet.
  /// - Throws: ``SessionError`` when `refundRequest` names no transaction, or `purchase` or
  ///   `verification` is called (they happen through `buy`).
  public mutating func call(
    _ api: StoreKitAPI, transaction: UInt64? = nil, reason: RefundSheetReason = .other,
    _ sink: EventSink
  ) throws(SessionError) {
    try check(.call(api, transaction: transaction, reason: reason))
    let stamp = now.milliseconds
    switch api {
    case .purchase, .verification: return
    case .refundRequest:
      guard let transaction else { return }
      let position = try refundablePosition(transaction)
      if let error = settings.simulatedErrors[api] {
        emit(.apiCall(api, error: error, detail: nil), at: stamp, sink)
        return
      }
      if ledger[position].isRevoked || ledger[position].flags.contains(.refundRequested) {
        emit(.apiCall(api, error: .refundRequest(.duplicateRequest), detail: nil), at: stamp, sink)
        return
      }
      if settings.refundReviewEnabled {
        emit(
          .apiCall(api, error: nil, detail: "refund requested: \(reason.rawValue)"), at: stamp,
          sink)
        try requestRefund(transaction, reason: reason.requestReason, sink)
      } else {
        emit(
          .apiCall(api, error: nil, detail: "refunded: \(reason.revocationReason.rawValue)"),
          at: stamp, sink)
        try refund(transaction, reason: reason.revocationReason, sink)
      }
    default:
      if let error = settings.simulatedErrors[api] {
        emit(.apiCall(api, error: error, detail: nil), at: stamp, sink)
        return
      }
      emit(.apiCall(api, error: nil, detail: successDetail(api)), at: stamp, sink)
      if api == .subscriptionStatus {
        for index in groups.indices { emitStatus(group: index, at: stamp, sink) }
      }
    }
  }

  /// Why the app cannot call `api`: `purchase` and `verification` happen through `buy`, and a
  /// refund request needs a transaction that was purchased.
  func checkCall(_ api: StoreKitAPI, transaction: UInt64?) throws(SessionError) {
    switch api {
    case .purchase, .verification:
      throw SessionError(.callExercisedByBuying(api: api.rawValue))
    case .refundRequest:
      guard let transaction else {
        throw SessionError(.refundRequestNeedsTransaction)
      }
      _ = try refundablePosition(transaction)
    default: return
    }
  }

  private func successDetail(_ api: StoreKitAPI) -> String? {
    switch api {
    case .loadProducts:
      "\(catalog.products.filter(\.isAvailable).count) products"
    case .subscriptionStatus:
      "\(groups.filter { $0.phase != .none }.count) groups with a status"
    case .appStoreSync: "synced"
    case .appTransaction: "environment Xcode"
    default: nil
    }
  }
}
