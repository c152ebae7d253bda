import Foundation

/// How one POST ended: delivered or not, and a line for a person.
public struct DeliveryResult: Equatable, Sendable, CustomStringConvertible {
  /// Whether the endpoint answered 2xx.
  public var delivered: Bool
  /// `POST SUBSCRIBED-INITIAL_BUY → 200`, `POST DID_RENEW failed: HTTP 500 after 5 attempts` …
  public var description: String
}

/// Delivers signed notifications: as numbered files (`0001-SUBSCRIBED-INITIAL_BUY.json`) and/or
/// POSTed to one endpoint from a background thread, with retries and backoff and a bounded
/// queue, so that nothing waits for the network. Only the URL given is contacted, and where its
/// redirects lead (at most five, never in a circle); no proxies.
///
/// `@unchecked Sendable`: the queue, the results and the flags are only touched under `lock`;
/// the folder's counter only from the caller's thread (``deliver(name:body:)``).
public final class NotificationDelivery: @unchecked Sendable {
  private let directory: String?
  private let webhook: Webhook?
  private var counter = 0
  private let lock = NSCondition()
  private var queue: [(name: String, body: String)] = []
  private var results: [DeliveryResult] = []
  private var busy = false
  /// Set when a notification failed every attempt: the next ones try once until one gets through.
  private var unreachable = false
  private var thread: Thread?

  /// The most notifications waiting to be POSTed.
  public static let queueLimit = 1000

  /// What ``deliver(name:body:)`` does when `queueLimit` notifications are waiting.
  public enum WhenFull: Sendable {
    /// Wait for room: a batch run, where nothing may be lost.
    case wait
    /// Drop the oldest and say so: an interactive front end that must never block.
    case dropOldest
  }
  private let whenFull: WhenFull

  /// A delivery to `directory` (created when missing) and/or `url` (`http://` or `https://`).
  ///
  /// - Parameters:
  ///   - timeout: how long one attempt may wait for the server's answer.
  ///   - caFile: a PEM file of CA certificates trusted besides the system's.
  /// - Throws: ``SigningError`` for a URL that is not a complete `http(s)` URL, a CA file
  ///   without certificates, or a folder that cannot be made or is not a folder.
  public init(
    directory: String?, url: String?, whenFull: WhenFull = .wait, timeout: Double = 30,
    trusting caFile: String? = nil
  ) throws(SigningError) {
    self.directory = directory
    self.whenFull = whenFull
    if let directory {
      try Self.prepareFolder(directory)
      let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      counter = existing.compactMap { Int($0.prefix(4)) }.max() ?? 0
    }
    guard let url else {
      webhook = nil
      return
    }
    webhook = try Webhook(url: try WebhookURL(url).text, timeout: timeout, trusting: caFile)
    let thread = Thread { [weak self] in self?.work() }
    thread.name = "storekeeper-notifications"
    self.thread = thread
    thread.start()
  }

  deinit { webhook?.shutdown() }

  private static func prepareFolder(_ directory: String) throws(SigningError) {
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder) {
      guard isFolder.boolValue else {
        throw SigningError("--notifications \(directory): it is a file, not a folder")
      }
      return
    }
    do {
      try FileManager.default.createDirectory(
        atPath: directory, withIntermediateDirectories: true)
    } catch {
      let reason = (error as NSError).localizedFailureReason ?? "\(error.localizedDescription)"
      throw SigningError("--notifications \(directory): cannot create the folder: \(reason)")
    }
  }

  /// Writes the file (at once) and queues the POST. Returns the file's name, if one was written.
  ///
  /// - Throws: ``SigningError`` naming the file and the system's reason when it cannot be
  ///   written; the POST is queued all the same.
  @discardableResult
  public func deliver(name: String, body: String) throws(SigningError) -> String? {
    if webhook != nil { enqueue(name: name, body: body) }
    guard let directory else { return nil }
    return try writeFile(name: name, body: body, in: directory)
  }

  private func writeFile(
    name: String, body: String, in directory: String
  ) throws(SigningError)
    -> String
  {
    while true {
      counter += 1
      let file = String(format: "%04d-%@.json", counter, name)
      let path = directory + "/" + file
      let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
      if descriptor < 0 && errno == EEXIST { continue }  // another writer took the number
      guard descriptor >= 0 else {
        throw SigningError(
          "cannot write the notification \(path): \(String(cString: strerror(errno)))")
      }
      let bytes = Array((body + "\n").utf8)
      var written = 0
      var failure: Int32?
      while written < bytes.count {
        let result = bytes.withUnsafeBytes {
          Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written)
        }
        if result < 0 {
          if errno == EINTR { continue }
          failure = errno
          break
        }
        written += result
      }
      if close(descriptor) != 0 && failure == nil { failure = errno }
      if let failure {
        unlink(path)
        throw SigningError(
          "cannot write the notification \(path): \(String(cString: strerror(failure)))")
      }
      return file
    }
  }

  private func enqueue(name: String, body: String) {
    lock.lock()
    while whenFull == .wait && queue.count >= Self.queueLimit { lock.wait() }
    if queue.count >= Self.queueLimit {
      let dropped = queue.removeFirst()
      results.append(
        DeliveryResult(
          delivered: false,
          description: "notification \(dropped.name) dropped: the delivery queue is full"))
    }
    queue.append((name, body))
    lock.broadcast()
    lock.unlock()
  }

  /// What deliveries finished since the last call, in order.
  public func takeResults() -> [DeliveryResult] {
    lock.lock()
    defer { lock.unlock() }
    let taken = results
    results = []
    return taken
  }

  /// Waits until the queue is empty (or `timeout` seconds pass); returns how many notifications
  /// are still waiting.
  @discardableResult
  public func waitUntilIdle(timeout: Double) -> Int {
    let deadline = Date().addingTimeInterval(timeout)
    lock.lock()
    defer { lock.unlock() }
    while (!queue.isEmpty || busy) && Date() < deadline {
      _ = lock.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
    }
    return queue.count + (busy ? 1 : 0)
  }

  private func work() {
    guard let webhook else { return }
    while true {
      lock.lock()
      while queue.isEmpty { lock.wait() }
      let next = queue.removeFirst()
      busy = true
      lock.broadcast()  // room for a producer waiting on a full queue
      lock.unlock()
      var delay = 0.25
      var outcome = DeliveryResult(delivered: false, description: "")
      let attempts = unreachable ? 1 : 5
      unreachable = true
      for attempt in 1...attempts {
        let answer = webhook.post(next.body)
        if case .status(let status) = answer, (200..<300).contains(status) {
          outcome = DeliveryResult(
            delivered: true,
            description: "POST \(next.name) → \(status)"
              + (attempt > 1 ? " (attempt \(attempt))" : ""))
          unreachable = false
          break
        }
        let attemptsText = "\(attempt) attempt\(attempt == 1 ? "" : "s")"
        outcome.description = "POST \(next.name) failed: \(answer) after \(attemptsText)"
        if case .status = answer { unreachable = false }  // it answers, just not with 2xx
        // A certificate does not get better by asking again.
        if answer.result == .tlsIssue { break }
        if attempt < attempts {
          Thread.sleep(forTimeInterval: delay)
          delay *= 2
        }
      }
      lock.lock()
      results.append(outcome)
      busy = false
      lock.broadcast()
      lock.unlock()
    }
  }
}

/// A webhook URL checked the way a person expects: `http` or `https`, a host (a name, an IPv4
/// address or a bracketed IPv6 literal), an optional port 1–65535, a path; nothing else.
public struct WebhookURL: Equatable, Sendable {
  /// The URL as given (it is sent as given).
  public let text: String
  /// The scheme, host and port, for messages.
  public let scheme: String
  /// The host, without brackets.
  public let host: String
  /// The port, explicit or the scheme's default.
  public let port: Int

  /// Parses and checks a URL.
  ///
  /// - Throws: ``SigningError`` saying what is missing or not allowed.
  public init(_ text: String) throws(SigningError) {
    func refuse(_ why: String) -> SigningError {
      SigningError(
        "--notify-url \(text.debugDescription) is not a complete http(s) URL: \(why); for "
          + "example http://127.0.0.1:8080/notifications or https://[::1]:8443/asn")
    }
    if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
      throw refuse("it contains spaces or control characters")
    }
    guard let components = URLComponents(string: text), let scheme = components.scheme else {
      throw refuse("it does not parse as a URL")
    }
    guard ["http", "https"].contains(scheme.lowercased()) else {
      throw refuse("the scheme must be http or https, not \(scheme)")
    }
    guard text.lowercased().hasPrefix(scheme.lowercased() + "://") else {
      throw refuse("the scheme must be followed by //")
    }
    guard let rawHost = components.percentEncodedHost, !rawHost.isEmpty else {
      throw refuse("it has no host")
    }
    guard components.percentEncodedUser == nil, components.percentEncodedPassword == nil else {
      throw refuse("user names and passwords in the URL are not supported")
    }
    if let port = components.port, !(1...65535).contains(port) {
      throw refuse("the port must be 1 to 65535")
    }
    let authority = text.dropFirst(scheme.count + 3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
    if authority.hasSuffix(":") { throw refuse("the port is empty") }
    let host =
      rawHost.hasPrefix("[") && rawHost.hasSuffix("]")
      ? String(rawHost.dropFirst().dropLast()) : rawHost
    if host.contains(":") {
      // An IPv6 literal must be bracketed and valid.
      var address = in6_addr()
      guard authority.hasPrefix("["), inet_pton(AF_INET6, host, &address) == 1 else {
        throw refuse("\(host) is not a valid bracketed IPv6 address")
      }
    }
    guard host.removingPercentEncoding == host else {
      throw refuse("the host must not be percent-encoded")
    }
    self.text = text
    self.scheme = scheme.lowercased()
    self.host = host
    self.port = components.port ?? (self.scheme == "https" ? 443 : 80)
  }
}
