// A common idiom of real projects' suites: one session in a `static let`, used by every suite.
// Whichever suite touches it first makes it; the others made none, so StoreKit's API reaches
// it as the session made last, as Xcode's one environment does.
#if canImport(Testing)
  import Testing

  #if canImport(StoreKit)
    import StoreKit
    import StoreKitTest
  #else
    import StorekeeperKit
    import StorekeeperKitTest
  #endif

  enum Shared {
    static let session = {
      let s = try! SKTestSession(configurationFileNamed: "Products")
      s.disableDialogs = true
      return s
    }()
  }

  @Suite struct FirstSuiteOfTheSharedSession {
    let s = Shared.session
    @Test func seesTheProducts() async throws {
      #expect(try await Product.products(for: ["socialfeed.monthly"]).count == 1)
    }
  }

  @Suite struct SecondSuiteOfTheSharedSession {
    let s = Shared.session
    @Test func seesTheProductsToo() async throws {
      #expect(try await Product.products(for: ["socialfeed.monthly"]).count == 1)
    }
  }
#endif
