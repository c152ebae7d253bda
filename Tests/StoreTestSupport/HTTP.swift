import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A well-formed App Store Server API token for the default bundle id, valid for five minutes;
/// its signature is not checked by a server without --api-key.
package func wellFormedToken() -> String {
  func part(_ json: String) -> String {
    Data(json.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
      .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
  }
  let expiry = Int(Date().timeIntervalSince1970) + 300
  return part(#"{"alg":"ES256","kid":"TEST","typ":"JWT"}"#) + "."
    + part(
      #"{"aud":"appstoreconnect-v1","bid":"com.example.storekeeper","exp":\#(expiry),"iss":"T"}"#)
    + "." + part(String(repeating: "s", count: 64))
}

/// One HTTP/1.1 request over a fresh connection; the status, headers (names lowercased) and body.
/// An App Store Server API path carries a well-formed bearer token unless `bearer` says otherwise.
package func httpRequest(
  port: Int, _ method: String, _ path: String, body: String = "", bearer: String? = nil,
  receiveTimeout: Int = 10
) throws -> (status: Int, headers: [String: String], body: String) {
  let token = bearer ?? (path.hasPrefix("/inApps/") ? wellFormedToken() : "")
  let request =
    "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    + (token.isEmpty ? "" : "Authorization: Bearer \(token)\r\n")
    + "Content-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
  let response = try rawHTTP(port: port, request, receiveTimeout: receiveTimeout)
  let parts = response.components(separatedBy: "\r\n\r\n")
  let head = parts[0].components(separatedBy: "\r\n")
  let status = Int(head.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
  var headers: [String: String] = [:]
  for line in head.dropFirst() {
    guard let colon = line.firstIndex(of: ":") else { continue }
    headers[line[..<colon].lowercased()] = line[line.index(after: colon)...]
      .trimmingCharacters(in: .whitespaces)
  }
  return (status, headers, parts.dropFirst().joined(separator: "\r\n\r\n"))
}

/// Sends bytes to 127.0.0.1:`port` and reads until the server closes (at most
/// `receiveTimeout` seconds without a byte).
package func rawHTTP(port: Int, _ text: String, receiveTimeout: Int = 10) throws -> String {
  let descriptor = try connectTo(port: port)
  defer { close(descriptor) }
  var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
  setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  let bytes = Array(text.utf8)
  var sent = 0
  while sent < bytes.count {
    let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    sent += count
  }
  var received: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65_536)
  while true {
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    received += buffer[0..<count]
  }
  return String(decoding: received, as: UTF8.self)
}

/// A connected TCP socket to 127.0.0.1:`port`, sending nothing.
package func connectTo(port: Int) throws -> Int32 {
  let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_port = in_port_t(UInt16(port).bigEndian)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  let connected = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
    }
  }
  guard connected == 0 else {
    close(descriptor)
    throw POSIXError(.ECONNREFUSED)
  }
  return descriptor
}

/// One request over a fresh connection, its answer read as it comes: the status, the headers
/// (names lowercased), and the body (chunked transfer decoded), handed to `body` a piece at a
/// time rather than kept (an answer of hundreds of megabytes).
package func httpStream(
  port: Int, _ method: String, _ path: String, body: String = "",
  _ piece: ([UInt8]) -> Void
) throws -> (status: Int, headers: [String: String]) {
  let descriptor = try connectTo(port: port)
  defer { close(descriptor) }
  var timeout = timeval(tv_sec: 120, tv_usec: 0)
  setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  let request = Array(
    ("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)").utf8)
  var sent = 0
  while sent < request.count {
    let count = request[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, 0) }
    if count <= 0 { break }
    sent += count
  }
  var pending: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  func receive() -> Bool {
    let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
    guard count > 0 else { return false }
    pending += buffer[0..<count]
    return true
  }
  /// The bytes up to the next CRLF, consumed.
  func line() -> String? {
    while true {
      if let end = pending.firstIndex(of: 0x0A), end > 0, pending[end - 1] == 0x0D {
        let text = String(decoding: pending[..<(end - 1)], as: UTF8.self)
        pending.removeSubrange(...end)
        return text
      }
      guard receive() else { return nil }
    }
  }
  let status = Int(line()?.split(separator: " ").dropFirst().first ?? "") ?? 0
  var headers: [String: String] = [:]
  while let header = line(), !header.isEmpty {
    guard let colon = header.firstIndex(of: ":") else { continue }
    headers[header[..<colon].lowercased()] = header[header.index(after: colon)...]
      .trimmingCharacters(in: .whitespaces)
  }
  if headers["transfer-encoding"] == "chunked" {
    while let size = line().flatMap({ Int($0, radix: 16) }), size > 0 {
      while pending.count < size + 2 { guard receive() else { return (status, headers) } }
      piece(Array(pending[..<size]))
      pending.removeSubrange(..<(size + 2))
    }
  } else {
    piece(pending)
    pending = []
    while receive() {
      piece(pending)
      pending = []
    }
  }
  return (status, headers)
}
