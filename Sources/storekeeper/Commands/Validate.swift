import ArgumentParser
import StoreConfiguration
import StoreJSON
import StoreUtilities

/// `storekeeper validate FILE...`: one line per problem, a summary, and an exit status.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    abstract: "Check .storekit files the way Xcode reads them.",
    discussion: """
      Prints one line per problem (FILE: error: JSON.PATH: message) and a summary. Exits 0 when \
      no file has errors and 1 when any does.
      """
  )

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  @Argument(help: "The .storekit files to check.", completion: .file(extensions: ["storekit"]))
  var files: [String]

  @Option(help: "text (one line per diagnostic) or json (one document).")
  var format: OutputFormat = .text

  @Flag(help: "Treat warnings as errors for the exit status.")
  var strict = false

  func validate() throws {
    if files.isEmpty { throw ValidationError("Name at least one .storekit file.") }
  }

  func run() throws {
    var errors = 0
    var warnings = 0
    var failedFiles = 0
    var reports: [JSONValue] = []
    for file in files {
      let diagnostics = StoreKitConfiguration.load(contentsOf: file).diagnostics
      let fileErrors = diagnostics.filter { $0.severity == .error }.count
      let fileWarnings = diagnostics.count - fileErrors
      errors += fileErrors
      warnings += fileWarnings
      if fileErrors > 0 || (strict && fileWarnings > 0) { failedFiles += 1 }
      switch format {
      case .text:
        for diagnostic in diagnostics {
          try StandardStreams.printOut(diagnostic.formatted(file: file))
        }
      case .json:
        reports.append(
          .object(
            JSONObject([
              JSONMember("file", .string(file)),
              JSONMember("errors", .number(JSONNumber(fileErrors))),
              JSONMember("warnings", .number(JSONNumber(fileWarnings))),
              JSONMember("diagnostics", .array(diagnostics.map(\.json))),
            ])))
      }
    }
    switch format {
    case .text:
      try StandardStreams.printOut(
        summary(errors: errors, warnings: warnings, failedFiles: failedFiles))
    case .json:
      try StandardStreams.printOut(
        JSONWriter.compact(
          .object(
            JSONObject([
              JSONMember("files", .array(reports)),
              JSONMember("errors", .number(JSONNumber(errors))),
              JSONMember("warnings", .number(JSONNumber(warnings))),
            ]))))
    }
    if failedFiles > 0 { throw ExitCode(1) }
  }

  private func summary(errors: Int, warnings: Int, failedFiles: Int) -> String {
    func count(_ number: Int, _ noun: String) -> String {
      "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
    let checked = count(files.count, "file")
    let problems = "\(count(errors, "error")), \(count(warnings, "warning"))"
    if failedFiles == 0 { return "\(checked) checked: \(problems); all usable." }
    return "\(checked) checked: \(problems); \(count(failedFiles, "file")) failed."
  }
}
