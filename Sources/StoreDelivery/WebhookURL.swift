import Foundation

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
  /// - Throws: ``DeliveryError`` saying what is missing or not allowed.
  public init(_ text: String) throws(DeliveryError) {
    func refuse(_ why: String) -> DeliveryError {
      DeliveryError(
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
