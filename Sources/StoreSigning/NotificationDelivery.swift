import Foundation

/// How one POST ended: delivered or not, and a line for a person.
public struct DeliveryResult: Equatable, Sendable, CustomStringConvertible {
  /// Whether the endpoint answered 2xx.
  public var delivered: Bool
  /// `POST SUBSCRIBED-INITIAL_BUY → 200`, `POST DID_RENEW failed: HTTP 500 after 5 attempts` …
  public var description: String
}

/// Delivers signed notifications: as numbered files (`0001-SUBSCRIBED-INITIAL_BUY.json`) and/or
/// POSTed to one local endpoint from a background thread, with retries and backoff and a
/// bounded queue, so that nothing waits for the network. Only the URL given is contacted.
public final class NotificationDelivery: @unchecked Sendable {
  private let directory: String?
  private let endpoint: Endpoint?
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

  struct Endpoint {
    var host: String
    var port: UInt16
    var path: String
  }

  /// A delivery to `directory` (created when missing) and/or `url` (`http://host:port/path`).
  ///
  /// - Throws: ``SigningError`` for a URL that is not plain `http://`.
  public init(directory: String?, url: String?, whenFull: WhenFull = .wait) throws {
    self.directory = directory
    self.whenFull = whenFull
    if let directory {
      try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
      let existing = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
      counter = existing.compactMap { Int($0.prefix(4)) }.max() ?? 0
    }
    if let url {
      guard let parsed = Self.parse(url) else {
        throw SigningError(
          "--notify-url must be an http:// URL such as http://127.0.0.1:8080/notifications (got \(url))"
        )
      }
      endpoint = parsed
      let thread = Thread { [weak self] in self?.work() }
      thread.name = "storekeeper-notifications"
      self.thread = thread
      thread.start()
    } else {
      endpoint = nil
    }
  }

  static func parse(_ url: String) -> Endpoint? {
    guard url.hasPrefix("http://") else { return nil }
    let rest = url.dropFirst(7)
    let hostPort = rest.prefix { $0 != "/" }
    let path = rest.dropFirst(hostPort.count)
    let parts = hostPort.split(separator: ":", maxSplits: 1)
    guard let host = parts.first, !host.isEmpty else { return nil }
    let port = parts.count > 1 ? UInt16(parts[1]) : 80
    guard let port else { return nil }
    return Endpoint(host: String(host), port: port, path: path.isEmpty ? "/" : String(path))
  }

  /// Writes the file (at once) and queues the POST. Returns the file's name, if one was written.
  @discardableResult
  public func deliver(name: String, body: String) -> String? {
    var fileName: String?
    if let directory {
      counter += 1
      let file = String(format: "%04d-%@.json", counter, name)
      FileManager.default.createFile(
        atPath: directory + "/" + file, contents: Data((body + "\n").utf8))
      fileName = file
    }
    if endpoint != nil {
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
    return fileName
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
      lock.wait(until: min(deadline, Date().addingTimeInterval(0.05)))
    }
    return queue.count + (busy ? 1 : 0)
  }

  private func work() {
    guard let endpoint else { return }
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
        let status = post(next.body, to: endpoint)
        if let status, (200..<300).contains(status) {
          outcome = DeliveryResult(
            delivered: true,
            description: "POST \(next.name) → \(status)"
              + (attempt > 1 ? " (attempt \(attempt))" : ""))
          unreachable = false
          break
        }
        let attemptsText = "\(attempt) attempt\(attempt == 1 ? "" : "s")"
        let reason = status.map { "HTTP \($0)" } ?? "no connection"
        outcome.description = "POST \(next.name) failed: \(reason) after \(attemptsText)"
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

  /// One HTTP/1.1 POST; the response's status code, or `nil` when the connection failed.
  private func post(_ body: String, to endpoint: Endpoint) -> Int? {
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if os(Linux)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var info: UnsafeMutablePointer<addrinfo>?
    guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &info) == 0, let first = info
    else { return nil }
    defer { freeaddrinfo(info) }
    let socket = Foundation.socket(
      first.pointee.ai_family, first.pointee.ai_socktype, first.pointee.ai_protocol)
    guard socket >= 0 else { return nil }
    defer { close(socket) }
    var timeout = timeval(tv_sec: 5, tv_usec: 0)
    setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(socket, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    #if os(Linux)
      let flags = Int32(MSG_NOSIGNAL)  // a server that hangs up must not kill us with SIGPIPE
    #else
      let flags: Int32 = 0
      var one: Int32 = 1
      setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    guard connect(socket, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return nil }
    let bytes = Array(body.utf8)
    let request =
      "POST \(endpoint.path) HTTP/1.1\r\nHost: \(endpoint.host):\(endpoint.port)\r\n"
      + "Content-Type: application/json\r\nContent-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
    let message = Array(request.utf8) + bytes
    var sent = 0
    while sent < message.count {
      let result = message.withUnsafeBytes {
        send(socket, $0.baseAddress! + sent, message.count - sent, flags)
      }
      if result <= 0 { return nil }
      sent += result
    }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1024)
    while !response.contains(0x0A) {
      let count = recv(socket, &buffer, buffer.count, 0)
      if count <= 0 { break }
      response += buffer[0..<count]
    }
    let line = String(decoding: response.prefix { $0 != 0x0A }, as: UTF8.self)
    let parts = line.split(separator: " ")
    return parts.count >= 2 ? Int(parts[1]) : nil
  }
}
