import Foundation

#if canImport(Glibc)
  import Glibc
#endif

/// A minimal HTTP/1.1 server on 127.0.0.1 that records POSTs, for the webhook tests. It answers
/// with `statuses` in turn, then 200.
final class WebhookServer: @unchecked Sendable {
  struct Request {
    var path: String
    var contentType: String?
    var body: String
  }

  let port: UInt16
  private let socket: Int32
  private let lock = NSLock()
  private var received: [Request] = []
  private var statuses: [Int]
  private var stopped = false

  init(statuses: [Int]) throws {
    self.statuses = statuses
    #if os(Linux)
      let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let socket = Foundation.socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    address.sin_port = 0
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard socket >= 0, bound == 0, listen(socket, 16) == 0 else {
      throw CocoaError(.fileWriteUnknown)
    }
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
    }
    self.socket = socket
    port = UInt16(bigEndian: address.sin_port)
    Thread { [self] in serve() }.start()
  }

  /// The requests so far, in arrival order.
  func requests() -> [Request] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  func stop() {
    lock.lock()
    stopped = true
    lock.unlock()
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
    lock.lock()
    received.append(
      Request(
        path: path, contentType: type, body: String(decoding: data[headerEnd!...], as: UTF8.self)))
    let status = statuses.isEmpty ? 200 : statuses.removeFirst()
    lock.unlock()
    let response = Array(
      "HTTP/1.1 \(status) X\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
    _ = response.withUnsafeBytes { send(client, $0.baseAddress!, $0.count, 0) }
  }

  private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
    guard haystack.count >= needle.count else { return nil }
    return (0...(haystack.count - needle.count)).first {
      Array(haystack[$0..<$0 + needle.count]) == needle
    }
  }
}
