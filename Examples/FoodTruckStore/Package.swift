// swift-tools-version: 6.0
import PackageDescription

// A small store written against StoreKit 2 the way Apple's sample code writes one, with its
// StoreKitTest tests. On Apple platforms it builds with StoreKit; on Linux with Storekeeper's
// StorekeeperKit and StorekeeperKitTest — the only difference is the import.
let package = Package(
  name: "FoodTruckStore",
  platforms: [.macOS(.v14), .iOS(.v17)],
  products: [.library(name: "FoodTruckStore", targets: ["FoodTruckStore"])],
  dependencies: [.package(name: "Storekeeper", path: "../..")],
  targets: [
    .target(
      name: "FoodTruckStore",
      dependencies: [
        .product(
          name: "StorekeeperKit", package: "Storekeeper",
          condition: .when(platforms: [.linux]))
      ]),
    .testTarget(
      name: "FoodTruckStoreTests",
      dependencies: [
        "FoodTruckStore",
        .product(
          name: "StorekeeperKitTest", package: "Storekeeper",
          condition: .when(platforms: [.linux])),
        .product(
          name: "StorekeeperKit", package: "Storekeeper",
          condition: .when(platforms: [.linux])),
      ],
      resources: [.copy("Products.storekit")]),
  ]
)
