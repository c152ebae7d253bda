import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that records POSTs, for the webhook tests: on its own
/// thread, with plain sockets, so that it answers whatever the test's threads do. It answers
/// with `statuses` in turn, then ``status``.
package final class WebhookServer: @unchecked Sendable {
  package struct Request {
    package var path: String
    package var contentType: String?
    package var body: String
  }

  /// How the server answers.
  package enum Reply: Sendable {
    /// `HTTP/1.1 <status> X`, an empty body, and the connection closed.
    case normal
    /// `HTTP/1.1 <status>` with no reason phrase.
    case withoutReasonPhrase
    /// A normal answer after a wait.
    case after(seconds: Double)
    /// The status line and headers, then a body that never ends.
    case endlessBody
    /// These bytes as they are, then the connection closed (an answer that is not HTTP).
    case raw(String)
    /// Nothing, the connection held open for this long.
    case silence(seconds: Double)
  }

  package let port: UInt16
  private let socket: Int32
  private let lock = NSLock()
  private var received: [Request] = []
  private var statuses: [Int]
  private var answer = 200
  private var redirect: String?
  private var stopped = false
  private let reply: Reply

  /// A server on 127.0.0.1, or on ::1 with `ipv6`.
  package init(statuses: [Int] = [], reply: Reply = .normal, ipv6: Bool = false) throws {
    self.statuses = statuses
    self.reply = reply
    #if os(Linux)
      let socket = Foundation.socket(ipv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let socket = Foundation.socket(ipv6 ? AF_INET6 : AF_INET, SOCK_STREAM, 0)
    #endif
    var one: Int32 = 1
    setsockopt(socket, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var storage = sockaddr_storage()
    var length: socklen_t
    if ipv6 {
      var address = sockaddr_in6()
      address.sin6_family = sa_family_t(AF_INET6)
      address.sin6_addr = in6addr_loopback
      withUnsafeBytes(of: &address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
      length = socklen_t(MemoryLayout<sockaddr_in6>.size)
    } else {
      var address = sockaddr_in()
      address.sin_family = sa_family_t(AF_INET)
      address.sin_addr.s_addr = inet_addr("127.0.0.1")
      withUnsafeBytes(of: &address) { source in
        withUnsafeMutableBytes(of: &storage) { $0.copyMemory(from: source) }
      }
      length = socklen_t(MemoryLayout<sockaddr_in>.size)
    }
    let bound = withUnsafePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
    }
    guard socket >= 0, bound == 0, listen(socket, 16) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
    _ = withUnsafeMutablePointer(to: &storage) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    self.socket = socket
    port = withUnsafeBytes(of: &storage) { bytes in
      // sin_port and sin6_port sit at the same offset, in network order.
      UInt16(bytes[2]) << 8 | UInt16(bytes[3])
    }
    Thread { [self] in serve() }.start()
  }

  /// The requests so far, in arrival order.
  package func requests() -> [Request] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  /// The bodies received so far, in arrival order.
  package var bodies: [String] { requests().map(\.body) }

  /// `http://127.0.0.1:<port>/notifications/<token>`: a path of this server's own, so that a
  /// request meant for another test's server that stopped and gave the port back (a retry
  /// of the same session's notification, same UUID and all) is told apart and not recorded.
  package var url: String { "http://127.0.0.1:\(port)\(ownPath)" }

  /// This server's notification path.
  private var ownPath: String { "/notifications/\(token)" }
  private let token = UUID().uuidString.lowercased()

  /// The status answered once `statuses` are used up.
  package var status: Int {
    get { locked { answer } }
    set { locked { answer = newValue } }
  }

  /// Where a 3xx answer sends the client (`Location`).
  package var location: String? {
    get { locked { redirect } }
    set { locked { redirect = newValue } }
  }

  private func locked<T>(_ body: () -> T) -> T {
    lock.lock()
    defer { lock.unlock() }
    return body()
  }

  deinit { stop() }

  /// Stops listening; stopping again does nothing.
  package func stop() {
    lock.lock()
    let was = stopped
    stopped = true
    lock.unlock()
    guard !was else { return }
    shutdown(socket, Int32(SHUT_RDWR))
    close(socket)
  }

  private func serve() {
    while true {
      let client = accept(socket, nil, nil)
      if client < 0 { return }
      handle(client)
      close(client)
      lock.lock()
      let done = stopped
      lock.unlock()
      if done { return }
    }
  }

  private func handle(_ client: Int32) {
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    var headerEnd: Int?
    var contentLength = 0
    while headerEnd == nil || data.count < headerEnd! + contentLength {
      let count = recv(client, &buffer, buffer.count, 0)
      if count <= 0 { return }
      data += buffer[0..<count]
      if headerEnd == nil, let end = Self.find([13, 10, 13, 10], in: data) {
        headerEnd = end + 4
        let head = String(decoding: data[..<end], as: UTF8.self).lowercased()
        for line in head.split(separator: "\r\n") where line.hasPrefix("content-length:") {
          contentLength = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
        }
      }
    }
    let head = String(decoding: data[..<headerEnd!], as: UTF8.self).split(separator: "\r\n")
    let path = head.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
    let type = head.first { $0.lowercased().hasPrefix("content-type:") }
      .map { $0.dropFirst(13).trimmingCharacters(in: .whitespaces) }
    // Another server's notification path: a stray, answered 404 and not recorded.
    if path.hasPrefix("/notifications") && path != ownPath {
      _ = Self.send("HTTP/1.1 404 X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n", to: client)
      return
    }
    lock.lock()
    received.append(
      Request(
        path: path, contentType: type, body: String(decoding: data[headerEnd!...], as: UTF8.self)))
    let status = statuses.isEmpty ? answer : statuses.removeFirst()
    let location = redirect.map { "Location: \($0)\r\n" } ?? ""
    lock.unlock()
    func send(_ text: String) -> Bool { Self.send(text, to: client) }
    switch reply {
    case .normal:
      _ = send(
        "HTTP/1.1 \(status) X\r\n\(location)Content-Length: 0\r\nConnection: close\r\n\r\n")
    case .withoutReasonPhrase:
      _ = send("HTTP/1.1 \(status)\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    case .after(let seconds):
      Thread.sleep(forTimeInterval: seconds)
      _ = send("HTTP/1.1 \(status) OK\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    case .raw(let text): _ = send(text)
    case .silence(let seconds): Thread.sleep(forTimeInterval: seconds)
    case .endlessBody:
      guard send("HTTP/1.1 \(status) OK\r\nContent-Type: text/plain\r\n\r\n") else { return }
      // Body bytes without end, until the client hangs up (or 20 s pass): the first 32 KB at
      // once (past any limit a reader keeps to, however loaded the machine), then a trickle.
      for index in 0..<432 {
        guard send(String(repeating: "x", count: 1024)) else { return }
        if index >= 32 { Thread.sleep(forTimeInterval: 0.05) }
      }
    }
  }

  /// Sends `text` to `client`; whether any of it went.
  private static func send(_ text: String, to client: Int32) -> Bool {
    let bytes = Array(text.utf8)
    #if os(Linux)
      let flags = Int32(MSG_NOSIGNAL)  // a client that hung up must not kill the test runner
    #else
      let flags: Int32 = 0
      var one: Int32 = 1
      setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    return bytes.withUnsafeBytes { Foundation.send(client, $0.baseAddress!, $0.count, flags) } > 0
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first {
      Array(haystack[$0..<$0 + needle.count]) == needle
    }
  }
}
