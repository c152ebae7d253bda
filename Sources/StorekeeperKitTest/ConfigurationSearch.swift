import Foundation
internal import StorekeeperKit

/// Where a test's `.storekit` file is, the way a SwiftPM test can find it: a path, the test
/// bundles' resources (`<Package>_<Target>.resources` beside the test binary), then the working
/// directory's tree.
enum ConfigurationSearch {
  /// The file `name` names (`Products` or `Products.storekit`), in the resources of `target`
  /// (a test target's module name) first.
  ///
  /// - Throws: ``SKTestError`` `fileNotFound`, saying where it looked.
  static func find(_ name: String, target: String? = nil) throws -> URL {
    let file = name.hasSuffix(".storekit") ? name : name + ".storekit"
    let manager = FileManager.default
    if manager.fileExists(atPath: file) { return URL(fileURLWithPath: file) }
    var places: [URL] = []
    let binary = URL(fileURLWithPath: CommandLine.arguments.first ?? ".")
      .deletingLastPathComponent()
    for folder in [binary, binary.deletingLastPathComponent()] {
      let names = (try? manager.contentsOfDirectory(atPath: folder.path)) ?? []
      places += names.filter { $0.hasSuffix(".resources") || $0.hasSuffix(".bundle") }.map {
        folder.appendingPathComponent($0)
      }
    }
    places += Bundle.allBundles.compactMap(\.resourceURL)
    if let target {
      // SwiftPM names a target's resources `<Package>_<Target>.resources` (`.bundle` on macOS).
      let own = places.filter {
        let bundle = $0.deletingPathExtension().lastPathComponent
        return bundle == target || bundle.hasSuffix("_" + target)
      }
      places = own + places.filter { !own.contains($0) }
    }
    let workingDirectory = URL(fileURLWithPath: manager.currentDirectoryPath)
    places.append(workingDirectory)
    for place in places {
      if let found = search(place, for: file, depth: place == workingDirectory ? 6 : 4) {
        return found
      }
    }
    throw SKTestError(
      .fileNotFound,
      "no \(file) among the test bundles' resources or under \(workingDirectory.path) "
        + "(add it to the test target's resources, or use SKTestSession(contentsOf:))")
  }

  /// The file under `folder` (not in hidden folders or `.build`), breadth first.
  private static func search(_ folder: URL, for file: String, depth: Int) -> URL? {
    var level = [folder]
    for _ in 0...depth {
      var next: [URL] = []
      for directory in level {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        if names.contains(file) { return directory.appendingPathComponent(file) }
        for name in names.sorted() where !name.hasPrefix(".") {
          var isDirectory: ObjCBool = false
          let url = directory.appendingPathComponent(name)
          if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory),
            isDirectory.boolValue
          {
            next.append(url)
          }
        }
      }
      level = next
    }
    return nil
  }

  /// The journal of a session over `configuration` when `STOREKEEPER_TEST_JOURNALS` names a
  /// folder: `<folder>/<name>-<pid>-<n>.journal`.
  static func journal(for configuration: URL) -> URL? {
    guard let folder = ProcessInfo.processInfo.environment["STOREKEEPER_TEST_JOURNALS"],
      !folder.isEmpty
    else { return nil }
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let name = configuration.deletingPathExtension().lastPathComponent
    let number = counter.next()
    return URL(fileURLWithPath: folder).appendingPathComponent(
      "\(name)-\(getpid())-\(number).journal")
  }

  private static let counter = ProcessCounter()
}
