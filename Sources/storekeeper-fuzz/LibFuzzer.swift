#if LIBFUZZER
  import Foundation
  import StoreFuzzing

  /// The target libFuzzer drives, named by STOREKEEPER_FUZZ_TARGET (default: commands). Built
  /// with coverage instrumentation:
  ///
  ///     swift build -c release --sanitize=fuzzer -Xswiftc -DLIBFUZZER \
  ///       --product storekeeper-fuzz --scratch-path .build-fuzz
  ///     STOREKEEPER_FUZZ_TARGET=journal .build-fuzz/release/storekeeper-fuzz -runs=1000000
  // `nonisolated(unsafe)`: libFuzzer calls the entry point from one thread only.
  nonisolated(unsafe) private let target: FuzzTarget = {
    let name = ProcessInfo.processInfo.environment["STOREKEEPER_FUZZ_TARGET"] ?? "commands"
    let configurations = ["Configs/FoodTruck.storekit", "Configs/Everything.storekit"]
      .compactMap { FileManager.default.contents(atPath: $0).map { [UInt8]($0) } }
    guard
      let found = try? FuzzTarget.all(configurations: configurations).first(where: {
        $0.name == name
      })
    else { fatalError("no fuzz target \(name)") }
    return found
  }()

  /// libFuzzer's entry: one input for the chosen target.
  @_cdecl("LLVMFuzzerTestOneInput")
  public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    target.run(Array(UnsafeBufferPointer(start: data, count: size)))
    return 0
  }
#endif
