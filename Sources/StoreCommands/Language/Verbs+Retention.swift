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
      "retention", [.init(.choice(retentionActions)), .init(.text("arguments"), optional: true)],
      options: [
        .init("request", .uuid), .init("status", .number(100...599)),
        .init("answer", .text("the answer's JSON string")), .init("failed", .text("RESULT")),
        .init("reason", .text("why")), .init("bundle", .text("bundle id")),
      ],
      "Retention Messaging: show (the customer opens their subscription's page: its message), "
        + "accept (they take its plan or offer), review message|image <uuid> "
        + "approved|rejected|pending, url <URL>|none, default <subscriptionID> <locale> "
        + "<uuid>|none, upload-image <uuid> FULL_SIZE|BULLET_POINT <W>x<H> [transparent], "
        + "upload-message <uuid> <UploadMessageRequestBody JSON>, delete-image|delete-message "
        + "<uuid>; show's options record a real-time exchange (as the journal writes it)",
      parse: { words throws(CommandError) in .retention(try words.retentionAction()) },
      words: { command in
        guard case .retention(let action) = command else { return nil }
        return ["retention"] + action.words
      })
  ]
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
    let options = try options()
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
    case .answered(let status, let body):
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
