import Foundation
import StoreJSON

/// Standard output could not take what was written.
public struct OutputFailure: Error, CustomStringConvertible {
  /// The reader went away (`| head`): the program ends quietly, as Unix tools do.
  public var readerClosed: Bool
  /// The system's reason.
  public var reason: String

  /// `cannot write to standard output: …`.
  public var description: String { "cannot write to standard output: \(reason)" }
}

/// The program's standard streams, written through one checked path: every failed write is
/// noticed (a full disk, a closed descriptor, a file-size limit), and a reader that went away
/// ends the program quietly.
public enum StandardStreams {
  /// Set when the program started with standard output closed: descriptor 1 then holds
  /// `/dev/null` (so that no file opened later takes its number) and every write fails.
  private static let outputWasClosed = Locked(false)

  /// Run once at start: writes past a size limit or to a closed pipe fail with an error instead
  /// of a signal, and closed standard descriptors are held by `/dev/null`.
  public static func prepare() {
    signal(SIGPIPE, SIG_IGN)
    signal(SIGXFSZ, SIG_IGN)
    for descriptor in [STDIN_FILENO, STDOUT_FILENO, STDERR_FILENO]
    where fcntl(descriptor, F_GETFD) == -1 && errno == EBADF {
      let null = open("/dev/null", descriptor == STDIN_FILENO ? O_RDONLY : O_WRONLY)
      if null >= 0 && null != descriptor {
        dup2(null, descriptor)
        close(null)
      }
      if descriptor == STDOUT_FILENO { outputWasClosed.withLock { $0 = true } }
    }
  }

  /// Writes raw bytes to standard output.
  ///
  /// - Throws: ``OutputFailure`` with the system's reason.
  public static func writeOut(_ bytes: [UInt8]) throws(OutputFailure) {
    if let failure = bytes.withUnsafeBufferPointer(failureWritingOut) { throw failure }
  }

  /// Writes what `writer` holds to standard output and empties it.
  ///
  /// - Throws: ``OutputFailure`` with the system's reason.
  public static func writeOut(_ writer: inout ByteWriter) throws(OutputFailure) {
    if let failure = writer.withBytes(failureWritingOut) { throw failure }
    writer.removeAll()
  }

  /// Writes raw bytes to standard output; what went wrong, if anything.
  public static func failureWritingOut(_ bytes: UnsafeBufferPointer<UInt8>) -> OutputFailure? {
    guard !outputWasClosed.value else {
      return OutputFailure(readerClosed: false, reason: "it is closed (Bad file descriptor)")
    }
    guard let error = write(bytes, to: STDOUT_FILENO) else { return nil }
    return OutputFailure(readerClosed: error == EPIPE, reason: String(cString: strerror(error)))
  }

  /// Writes a line for a person to standard error. A broken standard error is ignored: there
  /// is nowhere left to tell.
  public static func writeError(_ line: String) {
    write(Array((line + "\n").utf8), to: STDERR_FILENO)
  }

  /// Writes a line to standard output.
  public static func printOut(_ line: String) throws(OutputFailure) {
    try writeOut(Array((line + "\n").utf8))
  }

  /// Writes all of `bytes`; the `errno` of a failure, if any.
  @discardableResult
  public static func write(_ bytes: [UInt8], to descriptor: Int32) -> Int32? {
    bytes.withUnsafeBufferPointer { write($0, to: descriptor) }
  }

  /// Writes all of `bytes`; the `errno` of a failure, if any.
  @discardableResult
  public static func write(_ bytes: UnsafeBufferPointer<UInt8>, to descriptor: Int32) -> Int32? {
    var written = 0
    while written < bytes.count {
      let result = Foundation.write(descriptor, bytes.baseAddress! + written, bytes.count - written)
      if result < 0 {
        if errno == EINTR { continue }
        return errno
      }
      written += result
    }
    return nil
  }

  /// The bytes of a file, or `nil` when it cannot be read.
  public static func contents(of path: String) -> [UInt8]? {
    FileManager.default.contents(atPath: path).map { [UInt8]($0) }
  }

  /// The exit status for an output failure: 141 (128 + SIGPIPE, what a shell reports for a
  /// Unix tool whose reader went away) without a word, else 1 with the reason.
  public static func exitStatus(for failure: OutputFailure) -> Int32 {
    if failure.readerClosed { return 128 + SIGPIPE }
    writeError("storekeeper: \(failure)")
    return 1
  }
}
