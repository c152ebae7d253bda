#if !LIBFUZZER
  import ArgumentParser
  import Foundation
  import StoreFuzzing

  /// `storekeeper-fuzz`: long fuzz runs of every reader of untrusted input.
  @main
  struct Fuzz: ParsableCommand {
    static let configuration = CommandConfiguration(
      commandName: "storekeeper-fuzz",
      abstract:
        "Fuzz the .storekit reader, the command parser, the journal reader, decode and filters.",
      discussion: """
        Each target reads generated inputs (its seeds, then mutations of them) from a fixed seed, \
        so a run can be repeated exactly. A crash prints the input (base64) and ends the run; an \
        input that runs longer than --hang-limit seconds counts as a hang and ends it too. Build \
        in release: swift run -c release storekeeper-fuzz --inputs 1000000.
        """)

    @Option(help: "Only these targets (storekit, commands, journal, decode, filter).")
    var target: [String] = []

    @Option(help: "Inputs per target.")
    var inputs = 100_000

    @Option(help: "The generator's seed.")
    var seed: UInt64 = 1

    @Option(help: "Seconds one input may take before it counts as a hang.")
    var hangLimit: Double = 10

    @Option(help: "A folder of more .storekit seeds (default: Configs when present).")
    var configurations = "Configs"

    @Option(help: "Write each target's seeds to FOLDER/TARGET/ (a corpus for libFuzzer) and stop.")
    var writeSeeds: String?

    func run() throws {
      CurrentInput.reportCrashes()
      let files = (try? FileManager.default.contentsOfDirectory(atPath: configurations)) ?? []
      let extra = files.filter { $0.hasSuffix(".storekit") }.sorted().compactMap {
        FileManager.default.contents(atPath: configurations + "/" + $0).map { [UInt8]($0) }
      }
      let targets = try FuzzTarget.all(configurations: extra).filter {
        target.isEmpty || target.contains($0.name)
      }
      guard !targets.isEmpty else { throw ValidationError("no such target: \(target)") }
      if let writeSeeds {
        for fuzzTarget in targets {
          let folder = writeSeeds + "/" + fuzzTarget.name
          try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
          for (index, seed) in fuzzTarget.seeds.enumerated() {
            FileManager.default.createFile(atPath: folder + "/seed-\(index)", contents: Data(seed))
          }
        }
        return
      }
      for fuzzTarget in targets {
        var run = FuzzRun(target: fuzzTarget, seed: seed)
        run.hangLimit = hangLimit
        run.keepsInputForCrashes = true
        let report = run.run(inputs: inputs) { done in
          FileHandle.standardError.write(Data("  \(fuzzTarget.name): \(done) inputs\n".utf8))
        }
        print(report)
      }
    }
  }
#endif
