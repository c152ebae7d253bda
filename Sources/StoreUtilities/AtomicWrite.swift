import Foundation

/// Whole-file replacement that never leaves a half-written file behind.
public enum AtomicFile {
  /// An error from the operating system while writing.
  public struct WriteError: Error, CustomStringConvertible {
    /// What failed, with the system's reason.
    public var description: String
  }

  /// Replaces the contents of `path` with `bytes` through a temporary file and a rename. A
  /// symbolic link is written through: the file it points to changes, the link stays.
  ///
  /// - Returns: whether the file changed.
  @discardableResult
  public static func write(_ bytes: [UInt8], to path: String) throws -> Bool {
    let path = resolvingLinks(path)
    if let existing = FileManager.default.contents(atPath: path), [UInt8](existing) == bytes {
      return false
    }
    let url = URL(fileURLWithPath: path)
    let directory = url.deletingLastPathComponent().path
    let template = directory + "/.\(url.lastPathComponent).storekeeper-XXXXXX"
    var templateBytes = Array(template.utf8CString)
    let descriptor = templateBytes.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard descriptor >= 0 else {
      throw WriteError(
        description: "cannot create a temporary file in \(directory): \(systemError())")
    }
    let temporary = String(
      decoding: templateBytes.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    var renamed = false
    defer {
      if !renamed { unlink(temporary) }
    }
    let mode =
      (try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? 0o644
    fchmod(descriptor, mode_t(mode))
    var written = 0
    let ok = bytes.withUnsafeBytes { buffer -> Bool in
      while written < buffer.count {
        let result = Foundation.write(
          descriptor, buffer.baseAddress! + written, buffer.count - written)
        if result < 0 {
          if errno == EINTR { continue }
          return false
        }
        written += result
      }
      return true
    }
    guard ok, fsync(descriptor) == 0 else {
      let reason = systemError()
      close(descriptor)
      throw WriteError(description: "cannot write \(temporary): \(reason)")
    }
    close(descriptor)
    guard rename(temporary, path) == 0 else {
      throw WriteError(description: "cannot replace \(path): \(systemError())")
    }
    renamed = true
    let directoryDescriptor = open(directory, O_RDONLY)
    if directoryDescriptor >= 0 {
      fsync(directoryDescriptor)
      close(directoryDescriptor)
    }
    return true
  }

  private static func systemError() -> String { String(cString: strerror(errno)) }

  /// The file a path finally names, through symbolic links (the path itself when it does not
  /// exist yet).
  private static func resolvingLinks(_ path: String) -> String {
    guard let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
  }
}
