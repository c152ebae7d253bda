internal import StoreCommands
internal import StoreSimulation

extension Transaction {
  /// Opens the refund sheet for this transaction: the customer picks the reason the test chose
  /// for the session (`SKTestSession.refundSheetChoice`), or cancels. As in Xcode's
  /// environment the refund happens at once and arrives on `Transaction.updates` (with
  /// `refund-review on`, it waits for the App Store's review). StoreKit's
  /// `beginRefundRequest(in:)` without the scene.
  ///
  /// - Throws: `Transaction.RefundRequestError` (a refund already requested, a simulated
  ///   failure) or ``StoreKitError``.
  public func beginRefundRequest() async throws -> RefundRequestStatus {
    try await Self.beginRefundRequest(for: id)
  }

  /// Opens the refund sheet for a transaction.
  ///
  /// - Throws: `Transaction.RefundRequestError` or ``StoreKitError``.
  @MainActor
  public static func beginRefundRequest(
    for transactionID: UInt64
  ) async throws
    -> RefundRequestStatus
  {
    let store = Store.current
    guard let reason = store.choices.refundReason else { return .userCancelled }
    let performed = store.perform(.call(.refundRequest, .id(transactionID), reason: reason))
    if let error = performed.error {
      if case .lookup(.noTransaction) = error.refusal { throw RefundRequestError.failed }
      throw StoreKitError.systemError(error)
    }
    for case .apiCall(_, let error?, _) in performed.replies.lazy.map(\.kind) {
      throw error.storeKitError
    }
    return .success
  }
}
