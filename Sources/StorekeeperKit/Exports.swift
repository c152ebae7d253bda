/// `import StoreKit` brings Foundation with it (Apple's StoreKit module re-exports it), so a file
/// that imports only StoreKit can name `Date`, `Decimal`, `UUID`, `URL`, `Data` and `Bundle`;
/// `import StorekeeperKit` does the same.
@_exported public import Foundation
