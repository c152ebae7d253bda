internal import StorekeeperKit

#if canImport(Testing)
  internal import Testing
#endif

/// Names the swift-testing scopes a session is made in, so that StoreKit's static API in a
/// test reaches the session that test made (tests written for Xcode run in parallel without
/// `bind`): the test case (a parameterized test's cases run in parallel too), the test, its
/// suites, innermost first, then its test target (`swift test` runs every target in one
/// process, where Xcode runs a process per test bundle: "the session made last" is kept per
/// target). Empty outside swift-testing (XCTest keeps "the session made last").
enum TestScopes {
  /// Installs the naming once, before the first session is made.
  static let installed: Void = Store.useTestScopes(names)

  @Sendable static func names() -> [String] {
    #if canImport(Testing)
      guard let test = Test.current else { return [] }
      var names: [String] = []
      if let testCase = Test.Case.current, testCase.isParameterized {
        // A case has no public identity; its reflection holds its arguments and discriminator.
        names.append("\(test.id) \(String(reflecting: testCase))")
      }
      var id: Test.ID? = test.id
      // Up to the outermost suite, then the module (the test target) on its own.
      while let scope = id, !scope.nameComponents.isEmpty {
        names.append("\(scope)")
        id = scope.parent
      }
      names.append("test target \(test.id.moduleName)")
      return names
    #else
      return []
    #endif
  }
}
