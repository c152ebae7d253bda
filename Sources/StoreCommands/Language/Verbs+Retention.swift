import Foundation
import StoreJSON
import StoreSimulation

extension Verb {
  /// What `retention` does after its first word.
  static let retentionActions = [
    "show", "accept", "review", "url", "default", "upload-image", "delete-image",
    "upload-message", "delete-message",
  ]

  static let retention: [Verb] = [
    Verb(
      "retention", [.init(.retention)],
      "Retention Messaging: show (the customer opens their subscription's page: its message; "
        + "request= status= answer= or failed= reason= record a real-time exchange, as the "
        + "journal writes it), accept (they take its plan or offer), review (App Review's "
        + "verdict), and the developer's setup (url, default, upload-…, delete-…)",
      parse: { words throws(CommandError) in .retention(try words.retentionAction()) },
      words: { command in
        guard case .retention(let action) = command else { return nil }
        return ["retention"] + action.words
      })
  ]

  /// The kinds of the word after `retention` and `typed`.
  static func retentionCompletions(after typed: [String]) -> [WordKind] {
    switch (typed.first, typed.count) {
    case (nil, _): [.choice(retentionActions)]
    case ("review", 1): [.choice(["message", "image"])]
    case ("review", 2), ("delete-image", 1), ("delete-message", 1), ("upload-image", 1),
      ("upload-message", 1):
      [.uuid]
    case ("review", 3): [.choice(["approved", "rejected", "pending"])]
    case ("url", 1): [.choice(["https://", "none"])]
    case ("default", 1): [.product(subscriptions: true)]
    case ("default", 2): [.choice(["en-US", "fr-FR", "ja-JP"])]
    case ("default", 3): [.uuid]
    case ("upload-image", 2): [.choice(["FULL_SIZE", "BULLET_POINT"])]
    case ("upload-image", 3): [.choice(["3840x160", "3840x2160", "96x96"])]
    // Quoted as a line writes it: a quote outside quotes would start one.
    case ("upload-message", 2): [.choice([#""{\"header\":\"Stay\",\"body\":\"New\"}""#])]
    default: []
    }
  }
}

extension CommandWords {
  fileprivate mutating func uuid(_ what: String) throws(CommandError) -> String {
    let text = try word(what)
    guard UUID(uuidString: text) != nil else {
      throw CommandError("\(what) must be a UUID, not \"\(text.prefix(40))\"")
    }
    return text.lowercased()
  }

  fileprivate mutating func retentionAction() throws(CommandError) -> RetentionAction {
    let action = try word(Verb.retentionActions.joined(separator: ", "))
    switch action {
    case "show": return .show(try exchange())
    case "accept": return .accept
    case "review":
      let item: RetentionItem = try named(try word("message or image"), "message or image")
      let id = try uuid("the \(item.rawValue)'s identifier")
      let verdict = try word("approved, rejected or pending")
      guard let review = RetentionReview(rawValue: verdict.uppercased()) else {
        throw CommandError("a review is approved, rejected or pending, not \"\(verdict)\"")
      }
      return .review(item, id: id, review)
    case "url":
      let url = try word("a URL or none")
      return .setRealtimeURL(url == "none" ? nil : url)
    case "default":
      let productID = try productID()
      let locale = try word("a locale such as en-US")
      let message = try word("a message's identifier or none")
      if message == "none" { return .deleteDefault(productID: productID, locale: locale) }
      position -= 1
      return .setDefault(productID: productID, locale: locale, messageID: try uuid("a message"))
    case "upload-image": return try uploadImage()
    case "delete-image": return .deleteImage(id: try uuid("an image's identifier"))
    case "upload-message":
      let id = try uuid("a message's identifier")
      let text = try word("the message as Apple's UploadMessageRequestBody JSON")
      guard case .object(let object)? = try? JSONParser.parse(Array(text.utf8)).root else {
        throw CommandError("the message must be a JSON object (UploadMessageRequestBody)")
      }
      do throws(RetentionTextError) {
        return .uploadMessage(id: id, try RetentionMessageText(json: object))
      } catch {
        throw CommandError("the message: \(error.message)")
      }
    case "delete-message": return .deleteMessage(id: try uuid("a message's identifier"))
    default:
      throw CommandError(
        "retention takes \(Verb.retentionActions.joined(separator: ", ")), not \"\(action)\"",
        suggestions: Verb.retentionActions.filter { closeEnough($0, action) })
    }
  }

  private mutating func uploadImage() throws(CommandError) -> RetentionAction {
    let id = try uuid("an image's identifier")
    let size = try word("FULL_SIZE or BULLET_POINT")
    guard let kind = RetentionImageSize(rawValue: size) else {
      throw CommandError("an image's size is FULL_SIZE or BULLET_POINT, not \"\(size)\"")
    }
    let dimensions = try word("its width and height (3840x400)").split(separator: "x")
    guard dimensions.count == 2, let width = Int(dimensions[0]), let height = Int(dimensions[1]),
      width > 0, height > 0
    else { throw CommandError("an image's dimensions are written WIDTHxHEIGHT (3840x400)") }
    let transparent = take("transparent")
    return .uploadImage(
      id: id, RetentionImage(size: kind, width: width, height: height), transparent: transparent)
  }

  private mutating func exchange() throws(CommandError) -> RealtimeExchange? {
    var options: [String: String] = [:]
    let names = ["request", "status", "answer", "failed", "reason", "bundle"]
    while let next = peek {
      guard let equals = next.firstIndex(of: "="), names.contains(String(next[..<equals])) else {
        throw CommandError(
          "retention show takes \(names.map { $0 + "=" }.joined(separator: " ")), not \"\(next.prefix(40))\""
        )
      }
      options[String(next[..<equals])] = String(next[next.index(after: equals)...])
      position += 1
    }
    guard let request = options["request"] else {
      guard options.isEmpty else { throw CommandError("retention show's options need request=") }
      return nil
    }
    guard UUID(uuidString: request) != nil else { throw CommandError("request= must be a UUID") }
    let outcome: RealtimeExchange.Outcome
    if let failed = options["failed"] {
      outcome = .failed(result: failed, reason: options["reason"] ?? failed)
    } else if let status = options["status"].flatMap({ Int($0) }) {
      // Written back as a JSON string literal (one line whatever the body holds); a person may
      // write the body itself.
      let text = options["answer"] ?? ""
      let literal = try? JSONParser.parse(Array(text.utf8)).root
      if case .string(let body)? = literal {
        outcome = .answered(status: status, body: body)
      } else {
        outcome = .answered(status: status, body: text)
      }
    } else {
      throw CommandError("retention show request=… needs status= and answer=, or failed=")
    }
    return RealtimeExchange(
      requestID: request.lowercased(), outcome: outcome, bundleID: options["bundle"])
  }
}

extension RetentionAction {
  /// The words after `retention`.
  var words: [String] {
    switch self {
    case .show(nil): return ["show"]
    case .show(let exchange?): return ["show"] + exchange.words
    case .accept: return ["accept"]
    case .review(let item, let id, let review):
      return ["review", item.rawValue, id, review.rawValue.lowercased()]
    case .setRealtimeURL(let url): return ["url", url ?? "none"]
    case .setDefault(let productID, let locale, let messageID):
      return ["default", productID, locale, messageID]
    case .deleteDefault(let productID, let locale): return ["default", productID, locale, "none"]
    case .uploadImage(let id, let image, let transparent):
      return ["upload-image", id, image.size.rawValue, "\(image.width)x\(image.height)"]
        + (transparent ? ["transparent"] : [])
    case .deleteImage(let id): return ["delete-image", id]
    case .uploadMessage(let id, let text):
      return ["upload-message", id, JSONWriter.compact(text.json)]
    case .deleteMessage(let id): return ["delete-message", id]
    }
  }
}

extension RealtimeExchange {
  var words: [String] {
    var words = ["request=\(requestID)"]
    switch outcome {
    case .answered(let status, let body, _):
      words += ["status=\(status)", "answer=" + JSONWriter.compact(.string(body))]
    case .failed(let result, let reason): words += ["failed=\(result)", "reason=\(reason)"]
    }
    return words + (bundleID.map { ["bundle=\($0)"] } ?? [])
  }
}

extension RetentionAction {
  /// The action in a few words, for the event log: `review message 1f2e… rejected`.
  public var summary: String {
    words.prefix(4).map { $0.count > 60 ? String($0.prefix(57)) + "…" : $0 }.joined(
      separator: " ")
  }
}
