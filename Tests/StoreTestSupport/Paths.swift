import Foundation

/// The package's folder (where `Package.swift` is).
package let packageRoot: URL = {
  var url = URL(fileURLWithPath: #filePath)
  for _ in 0..<3 { url.deleteLastPathComponent() }
  return url
}()

/// A bundled configuration in `Configs/`, by name without `.storekit`.
package func bundledConfiguration(_ name: String) -> URL {
  packageRoot.appendingPathComponent("Configs/\(name).storekit")
}

/// The real `.storekit` files from package projects beside the package, when present
/// (`../shared/fixtures/storekit`); tests that read them skip without them.
package let corpusFolder = packageRoot.deletingLastPathComponent()
  .appendingPathComponent("shared/fixtures/storekit")

/// Whether ``corpusFolder`` exists on this machine.
package let corpusIsPresent = FileManager.default.fileExists(atPath: corpusFolder.path)

/// A fresh temporary folder (its name starts with `prefix`), removed by the caller.
package func temporaryFolder(_ prefix: String = "storekeeper-test") throws -> URL {
  let url = FileManager.default.temporaryDirectory.appendingPathComponent(
    "\(prefix)-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  return url
}
