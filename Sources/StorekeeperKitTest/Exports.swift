/// `import StoreKitTest` brings StoreKit with it (its API is written in StoreKit's types), so a
/// test that imports only StoreKitTest can name `Product` and `Transaction`;
/// `import StorekeeperKitTest` does the same with StorekeeperKit (and Foundation).
@_exported public import StorekeeperKit
