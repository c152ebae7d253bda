import StoreDelivery
import Testing

@Suite struct WebhookURLTests {
  @Test(arguments: [
    ("http://127.0.0.1:8080/asn", "127.0.0.1", 8080),
    ("https://example.com/a?b=c", "example.com", 443),
    ("http://[::1]:18501/asn", "::1", 18501), ("HTTP://localhost", "localhost", 80),
  ])
  func completeHTTPURLsAreTaken(url: String, host: String, port: Int) throws {
    let parsed = try WebhookURL(url)
    #expect(parsed.host == host)
    #expect(parsed.port == port)
    #expect(parsed.text == url)
  }

  @Test(arguments: [
    ("http://:18501/asn", "it has no host"),
    ("ftp://127.0.0.1/", "the scheme must be http or https"),
    ("127.0.0.1:8080/asn", "does not parse"),
    ("http://127.0.0.1/a\r\nX-Injected: 1", "spaces or control characters"),
    ("http://127.0.0.1/a b", "spaces or control characters"),
    ("http://127.0.0.1:0/", "the port must be 1 to 65535"),
    ("http://127.0.0.1:70000/", "the port must be 1 to 65535"),
    ("http://::1:8080/", "does not parse"), ("http://[::g]/", "not a valid bracketed IPv6"),
    ("http://u:p@127.0.0.1/", "user names and passwords"), ("http:127.0.0.1", "followed by //"),
    ("http://127.0.0.1:/", "the port is empty"), ("", "does not parse"),
  ])
  func anythingElseIsRefusedSayingWhy(url: String, reason: String) {
    do throws(DeliveryError) {
      _ = try WebhookURL(url)
      Issue.record("\(url.debugDescription) was taken")
    } catch {
      #expect(error.description.contains(reason), "\(url.debugDescription): \(error.description)")
      #expect(error.description.contains("is not a complete http(s) URL"))
    }
  }
}
