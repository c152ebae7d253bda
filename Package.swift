// swift-tools-version: 6.0
import PackageDescription

let package = Package(
  name: "Storekeeper",
  platforms: [.macOS(.v14)],
  products: [
    .executable(name: "storekeeper", targets: ["storekeeper"]),
    // The JSON values the libraries' payloads and configurations are made of.
    .library(name: "StoreJSON", targets: ["StoreJSON"]),
    .library(name: "StoreConfiguration", targets: ["StoreConfiguration"]),
    .library(name: "StoreSimulation", targets: ["StoreSimulation"]),
    // The command language and journals, for driving sessions from Swift.
    .library(name: "StoreCommands", targets: ["StoreCommands"]),
    // Signed transactions, renewal info and server notifications, for a backend's tests.
    .library(name: "StoreSigning", targets: ["StoreSigning"]),
    // The notification outbox: webhooks and files with Apple's retry schedule.
    .library(name: "StoreDelivery", targets: ["StoreDelivery"]),
    // StoreKit 2's API over the engine, for an app's own code on Linux.
    .library(name: "StorekeeperKit", targets: ["StorekeeperKit"]),
    // StoreKitTest's API (SKTestSession …) over the engine, for an app's unit tests.
    .library(name: "StorekeeperKitTest", targets: ["StorekeeperKitTest"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.1.0"),
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.0"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
    .package(url: "https://github.com/apple/swift-certificates", from: "1.21.1"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-asn1", from: "1.7.4"),
    .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
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
    // zlib's inflate (linked by swift-nio-extras already), for Upload Image's PNG check.
    .target(name: "CZlib", linkerSettings: [.linkedLibrary("z")]),
    // The JSON toolkit: values, parser, writers, Base64URL, paths into a document.
    .target(name: "StoreJSON"),
    // What the front ends share that is no store's: standard streams, atomic files, text safe
    // for a terminal, the house's lock (`Locked`).
    .target(
      name: "StoreUtilities",
      dependencies: [
        "StoreJSON", .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
      ]),
    .target(name: "StoreConfiguration", dependencies: ["StoreJSON", "StoreUtilities"]),
    .target(
      name: "StoreSimulation",
      dependencies: [
        "StoreJSON",
        "StoreConfiguration",
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "OrderedCollections", package: "swift-collections"),
        // Verifying promotional offer signatures as StoreKit does (no signing, no randomness).
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    .target(
      name: "StoreCommands",
      dependencies: ["StoreJSON", "StoreUtilities", "StoreConfiguration", "StoreSimulation"],
      // The crash tests' kill switch exists in test (debug) builds only.
      swiftSettings: [.define("STOREKEEPER_TEST_HOOKS", .when(configuration: .debug))]),
    .target(
      name: "StoreSigning",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreSimulation",
        "StoreConfiguration",
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "X509", package: "swift-certificates"),
        .product(name: "SwiftASN1", package: "swift-asn1"),
      ]
    ),
    // The notification outbox every front end sends through: retry policy, webhooks over
    // AsyncHTTPClient, files, faults, the history.
    .target(
      name: "StoreDelivery",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreSigning", "StoreCommands", "StoreSimulation",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "HeapModule", package: "swift-collections"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOSSL", package: "swift-nio-ssl"),
      ]
    ),
    // `storekeeper import`: a customer's history read from the App Store Server API, verified.
    .target(
      name: "StoreImport",
      dependencies: [
        "StoreJSON", "StoreSigning", "StoreSimulation", "StoreCommands", "StoreConfiguration",
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    ),
    // `storekeeper serve`: the App Store Server API and a control endpoint over a live session.
    .target(
      name: "StoreServer",
      dependencies: [
        "StoreJSON", "StoreUtilities", "CZlib",
        "StoreCommands", "StoreConfiguration", "StoreSimulation", "StoreSigning", "StoreDelivery",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
      ]
    ),
    // StoreKit 2's API (Product, Transaction, VerificationResult …) over one command host per
    // session.
    .target(
      name: "StorekeeperKit",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreCommands", "StoreConfiguration", "StoreSimulation", "StoreSigning",
        .product(name: "Crypto", package: "swift-crypto"),
      ]
    ),
    // StoreKitTest's API: SKTestSession, SKTestTransaction, simulated errors, testing options.
    .target(
      name: "StorekeeperKitTest",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StorekeeperKit", "StoreCommands", "StoreConfiguration", "StoreSimulation",
      ]
    ),
    .target(
      name: "StoreTerminal",
      dependencies: [
        "StoreJSON", "StoreUtilities", "CNcurses", "StoreConfiguration", "StoreSimulation",
        "StoreCommands",
      ]
    ),
    // A population of customers living their lives by a seeded behaviour model (`simulate`).
    .target(
      name: "StorePopulation",
      dependencies: [
        "StoreJSON", "StoreConfiguration", "StoreSimulation", "StoreCommands", "StoreDelivery",
        .product(name: "HeapModule", package: "swift-collections"),
      ]),
    .executableTarget(
      name: "storekeeper",
      dependencies: [
        "StorePopulation",
        "StoreJSON", "StoreUtilities",
        "StoreConfiguration",
        "StoreSimulation",
        "StoreCommands",
        "StoreTerminal",
        "StoreSigning",
        "StoreDelivery",
        "StoreServer",
        "StoreImport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Fuzz targets for everything that reads untrusted input, with seeds and a mutator.
    .target(
      name: "StoreFuzzing",
      dependencies: [
        "StoreJSON", "StoreUtilities", "StoreConfiguration", "StoreSimulation", "StoreCommands",
        "StoreSigning",
      ]
    ),
    // Long fuzz runs: `swift run -c release storekeeper-fuzz --inputs 1000000`.
    .executableTarget(
      name: "storekeeper-fuzz",
      dependencies: [
        "StoreFuzzing", .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // Speed and memory figures, run with `swift run -c release storekeeper-benchmarks`.
    .executableTarget(
      name: "storekeeper-benchmarks",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreConfiguration", "StorePopulation",
        "StoreSimulation",
        "StoreCommands",
        "StoreTerminal",
        "StoreSigning",
        "StorekeeperKit",
        "StorekeeperKitTest",
        // The webhook the simulate benchmark POSTs to.
        "StoreTestSupport",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "NIOCore", package: "swift-nio"),
      ]
    ),
    // What the tests share: the package's paths, temporary folders, journals opened despite a
    // sibling test's fork, and in-memory terminal, clock and file for the inspector's loop.
    .target(
      name: "StoreTestSupport",
      dependencies: [
        "StoreJSON", "StoreUtilities", "StoreSimulation", "StoreCommands", "StoreTerminal",
      ],
      path: "Tests/StoreTestSupport"),
    .testTarget(
      name: "StoreCommandsTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreCommands", "StoreConfiguration", "StoreSimulation", "StoreTestSupport",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]),
    .testTarget(
      name: "StoreTerminalTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreTerminal", "StoreCommands", "StoreConfiguration", "StoreSimulation",
        "StoreTestSupport",
      ]),
    .testTarget(
      name: "StoreSigningTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreSigning", "StoreCommands", "StoreConfiguration", "StoreSimulation",
        "StoreTestSupport", .product(name: "X509", package: "swift-certificates"),
      ]),
    .testTarget(
      name: "StoreDeliveryTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreDelivery", "StoreSigning", "StoreCommands", "StoreSimulation", "StoreConfiguration",
        "StoreTestSupport",
      ]),
    .testTarget(
      name: "StoreServerTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreServer", "StoreSigning", "StoreDelivery", "StoreCommands", "StoreConfiguration",
        "StoreSimulation", "StoreTestSupport", .product(name: "Crypto", package: "swift-crypto"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ]),
    .testTarget(
      name: "StorekeeperKitTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StorekeeperKit", "StorekeeperKitTest", "StoreTestSupport",
        .product(name: "Crypto", package: "swift-crypto"),
      ]),
    .testTarget(
      name: "StorekeeperKitTestTests",
      dependencies: ["StorekeeperKit", "StorekeeperKitTest", "StoreTestSupport"]),
    .testTarget(name: "CNcursesTests", dependencies: ["CNcurses"]),
    .testTarget(name: "StoreFuzzingTests", dependencies: ["StoreFuzzing"]),
    .testTarget(
      name: "StoreConfigurationTests",
      dependencies: ["StoreConfiguration", "StoreJSON", "StoreUtilities", "StoreTestSupport"]),
    .testTarget(name: "StoreJSONTests", dependencies: ["StoreJSON", "StoreUtilities"]),
    .testTarget(
      name: "StorePopulationTests",
      dependencies: [
        "StorePopulation", "StoreCommands", "StoreSimulation", "StoreConfiguration",
        "StoreDelivery", "StoreTestSupport",
      ]),
    .testTarget(
      name: "StoreSimulationTests",
      dependencies: [
        "StoreJSON", "StoreUtilities",
        "StoreSimulation",
        "StoreConfiguration",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "storekeeperTests",
      dependencies: [
        "StoreJSON", "StoreUtilities", "storekeeper", "StoreTestSupport", "StorekeeperKit",
        "StorekeeperKitTest", "StoreImport", "StoreSigning", "StoreServer", "StoreSimulation",
        "StoreConfiguration",
      ],
      exclude: ["Fixtures", "Python", "Scripts"]),
  ]
)
