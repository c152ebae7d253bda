import Foundation

/// A loopback port that refuses every connection for the life of the test process: a socket
/// bound to it that never listens. Unlike a port a stopped server gave back, no server another
/// test starts meanwhile can be given it (and then receive a stray request meant to be
/// refused).
package let refusingPort: UInt16 = {
  #if os(Linux)
    let socket = Foundation.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
  #else
    let socket = Foundation.socket(AF_INET, SOCK_STREAM, 0)
  #endif
  var address = sockaddr_in()
  address.sin_family = sa_family_t(AF_INET)
  address.sin_addr.s_addr = inet_addr("127.0.0.1")
  var length = socklen_t(MemoryLayout<sockaddr_in>.size)
  let bound = withUnsafePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) }
  }
  precondition(socket >= 0 && bound == 0, "no loopback port could be reserved")
  _ = withUnsafeMutablePointer(to: &address) {
    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
  }
  return UInt16(bigEndian: address.sin_port)
}()
