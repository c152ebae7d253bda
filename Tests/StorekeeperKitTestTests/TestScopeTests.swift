import Testing

@testable import StorekeeperKitTest

/// The scopes a session is registered under in a swift-testing test: the test, its suites,
/// then its test target, so "the session made last" is kept per target when `swift test` runs
/// every target in one process.
@Suite struct TestScopeTests {
  @Test func aTestsScopesEndWithItsTestTarget() {
    let names = TestScopes.names()
    #expect(names.contains("StorekeeperKitTestTests.TestScopeTests"), "its suite: \(names)")
    #expect(names.last == "test target StorekeeperKitTestTests")
  }
}
