import StorekeeperKit

// A file that imports only StoreKit, as app code does: Foundation comes with it (this file
// compiles only if it does).

/// Where the app receipt is, read as a receipt-validation file that imports only StoreKit reads
/// it.
func receiptURL() -> URL? { Bundle.main.appStoreReceiptURL }

/// Foundation's types, named without importing Foundation.
func foundationComesWithStoreKit(
  _ transaction: StoreKit.Transaction
) -> (UUID?, Decimal?, Date, Data) {
  (
    transaction.appAccountToken, transaction.price, transaction.purchaseDate,
    transaction.jsonRepresentation
  )
}
