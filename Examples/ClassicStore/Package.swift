// swift-tools-version: 6.0
import PackageDescription

// A store written against StoreKit 1, the original API, the way apps written before StoreKit 2
// write one (a payment queue observer, products requests, local receipt validation), with its
// XCTest tests. On Apple platforms it builds with StoreKit and CryptoKit; on Linux with
// Storekeeper's StorekeeperKit and swift-crypto — the only difference is the imports.
let package = Package(
  name: "ClassicStore",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [.library(name: "ClassicStore", targets: ["ClassicStore"])],
  dependencies: [
    .package(name: "Storekeeper", path: "../.."),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
  ],
  targets: [
    .target(
      name: "ClassicStore",
      dependencies: [
        .product(
          name: "StorekeeperKit", package: "Storekeeper", condition: .when(platforms: [.linux])),
        .product(name: "Crypto", package: "swift-crypto", condition: .when(platforms: [.linux])),
      ]),
    .testTarget(
      name: "ClassicStoreTests",
      dependencies: [
        "ClassicStore",
        .product(
          name: "StorekeeperKitTest", package: "Storekeeper",
          condition: .when(platforms: [.linux])),
      ],
      resources: [.copy("Products.storekit")]),
    // A second target with a `Products.storekit` of its own: each target's tests get theirs.
    .testTarget(
      name: "GiftShopTests",
      dependencies: [
        "ClassicStore",
        .product(
          name: "StorekeeperKitTest", package: "Storekeeper",
          condition: .when(platforms: [.linux])),
      ],
      resources: [.copy("Products.storekit")]),
  ]
)
