// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Storekeeper",
  platforms: [.macOS(.v13)],
  products: [
    .executable(name: "storekeeper", targets: ["storekeeper"]),
    .library(name: "StoreConfiguration", targets: ["StoreConfiguration"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0")
  ],
  targets: [
    // The C module map and shim over ncurses' wide-character API. macOS has no libncursesw:
    // its system libncurses already holds the wide API.
    .target(
      name: "CNcurses",
      linkerSettings: [
        .linkedLibrary("ncursesw", .when(platforms: [.linux])),
        .linkedLibrary("ncurses", .when(platforms: [.macOS])),
      ]
    ),
    .target(name: "StoreConfiguration"),
    .executableTarget(
      name: "storekeeper",
      dependencies: [
        "StoreConfiguration",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Speed and memory figures, run with `swift run -c release storekeeper-benchmarks`.
    .executableTarget(
      name: "storekeeper-benchmarks",
      dependencies: [
        "StoreConfiguration",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    .testTarget(name: "CNcursesTests", dependencies: ["CNcurses"]),
    .testTarget(name: "StoreConfigurationTests", dependencies: ["StoreConfiguration"]),
    .testTarget(name: "storekeeperTests", dependencies: ["storekeeper"], exclude: ["Fixtures"]),
  ]
)
