import Foundation
import StoreJSON

/// The outcome of reading a `.storekit` file: the configuration when one could be read, and
/// everything worth telling about the file.
public struct LoadResult: Sendable {
  /// The configuration, or `nil` when the file is not a StoreKit configuration at all.
  public var configuration: StoreKitConfiguration?
  /// Errors and warnings, in the order they were found.
  public var diagnostics: [Diagnostic]

  /// Whether any diagnostic is an error. A configuration with errors is not simulated and not
  /// written back.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  /// The configuration, when it loaded with no errors.
  public var usableConfiguration: StoreKitConfiguration? { hasErrors ? nil : configuration }
}

extension StoreKitConfiguration {
  /// The largest file read; StoreKit configurations are kilobytes.
  public static let maximumFileSize = 256 << 20

  /// Reads a configuration from the bytes of a `.storekit` file.
  ///
  /// - Complexity: O(*n*) in the size of the file.
  public static func load(_ bytes: [UInt8]) -> LoadResult {
    if let kind = propertyListKind(bytes) {
      return LoadResult(
        configuration: nil,
        diagnostics: [
          Diagnostic(
            .error,
            "this is \(kind), not JSON; Xcode writes .storekit files as JSON "
              + "(on a Mac, `plutil -convert json FILE` converts it)")
        ])
    }
    let document: JSONDocument
    do {
      document = try JSONParser.parse(bytes)
    } catch {
      return LoadResult(
        configuration: nil,
        diagnostics: [
          Diagnostic(
            .error, "not valid JSON: \(error.message)", line: error.line, column: error.column)
        ])
    }
    var log = DiagnosticLog()
    let configuration = StoreKitConfiguration(document: document, log: &log)
    return LoadResult(configuration: configuration, diagnostics: log.entries)
  }

  /// Reads the `.storekit` file at `path`. A directory, a missing or unreadable file, an empty
  /// or oversized one is reported as an error, never thrown.
  public static func load(contentsOf path: String) -> LoadResult {
    func failure(_ message: String) -> LoadResult {
      LoadResult(configuration: nil, diagnostics: [Diagnostic(.error, message)])
    }
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      return failure("no such file")
    }
    if isDirectory.boolValue {
      let inside = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
      let candidates = inside.filter { $0.hasSuffix(".storekit") }.sorted()
      let hint =
        candidates.isEmpty
        ? "" : "; did you mean \((path as NSString).appendingPathComponent(candidates[0]))?"
      return failure("is a directory, not a .storekit file\(hint)")
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      return failure("cannot be read (permission denied?)")
    }
    defer { try? handle.close() }
    let data: Data
    do {
      data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
    } catch {
      return failure("cannot be read: \(error.localizedDescription)")
    }
    if data.count > maximumFileSize {
      return failure("is larger than \(maximumFileSize >> 20) MB; not a StoreKit configuration")
    }
    return load([UInt8](data))
  }

  private static func propertyListKind(_ bytes: [UInt8]) -> String? {
    if bytes.starts(with: Array("bplist".utf8)) { return "a binary property list" }
    let head = String(decoding: bytes.prefix(256), as: UTF8.self)
      .trimmingCharacters(in: .whitespacesAndNewlines)
    if head.hasPrefix("<?xml") || head.hasPrefix("<!DOCTYPE plist") || head.hasPrefix("<plist") {
      return head.contains("plist") ? "an XML property list" : "an XML document"
    }
    return nil
  }
}
