import StorekeeperKit

/// Where the app receipt is, read as a file that imports only StoreKit reads it.
func receiptURL() -> URL? { Bundle.main.appStoreReceiptURL }
