import Foundation
import StoreConfiguration
import Testing

@testable import StoreSimulation

/// Apple's rules for what the Retention Messaging API takes, decided once in the engine.
@Suite struct RetentionRulesTests {
  @Test func aLocaleIsALanguageWithAnOptionalScriptAndRegion() {
    for locale in ["en-US", "fr", "zh-Hans-CN", "es-419", "pt-BR", "yue-Hant"] {
      #expect(Session.isLocale(locale), "\(locale)")
    }
    for locale in ["en_US", "english", "EN-us", "en-", "", "en-US-x", "zh-hans-CN", "e"] {
      #expect(!Session.isLocale(locale), "\(locale)")
    }
  }

  @Test func imagesHaveApplesSizes() {
    func problem(_ size: RetentionImageSize, _ width: Int, _ height: Int) -> String? {
      Session.sizeProblem(RetentionImage(size: size, width: width, height: height))
    }
    #expect(problem(.fullSize, 3840, 160) == nil)
    #expect(problem(.fullSize, 3840, 2160) == nil)
    #expect(problem(.fullSize, 3840, 159) != nil)
    #expect(problem(.fullSize, 3839, 400) != nil)
    #expect(problem(.fullSize, 3840, 2161) != nil)
    #expect(problem(.bulletPoint, 96, 96) == nil)
    #expect(problem(.bulletPoint, 96, 97) != nil)
  }

  @Test func realtimeURLsAreHTTPSOrLoopbackHTTP() {
    #expect(Session.realtimeURLProblem("https://example.com/retention") == nil)
    #expect(Session.realtimeURLProblem("http://127.0.0.1:8080/r") == nil)
    #expect(Session.realtimeURLProblem("http://localhost/r") == nil)
    #expect(Session.realtimeURLProblem("http://[::1]:9/r") == nil)
    #expect(Session.realtimeURLProblem("http://example.com/r") != nil)
    #expect(Session.realtimeURLProblem("ftp://example.com") != nil)
    #expect(Session.realtimeURLProblem("not a url") != nil)
    #expect(
      Session.realtimeURLProblem("https://e.com/" + String(repeating: "a", count: 250)) != nil)
  }

}
