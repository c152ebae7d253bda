import StoreSimulation

extension Verb {
  static let session: [Verb] = [
    Verb(
      "advance", [.init(.advance)],
      "time moves on: by a duration (30s 5m 2h 3d 1w 1mo 1y, P1M), to the next event or a date",
      parse: { words throws(CommandError) in .advance(try words.advance()) },
      words: { command in
        guard case .advance(let advance) = command else { return nil }
        switch advance {
        case .next: return ["advance", "next"]
        case .by(let duration): return ["advance", "\(duration)"]
        case .to(let instant): return ["advance", instant.iso8601]
        }
      }),
    Verb(
      "set", [.init(.setting)],
      "a setting changes (set notify-fault off|drop|duplicate|delay <duration>: the deliveries')",
      parse: { words throws(CommandError) in
        if words.take("notify-fault") { return .notify(.fault(try words.notificationFault())) }
        if words.take("seat-pricing") { return .seats(try words.seatPricing()) }
        if words.take("advanced-commerce") {
          let productID = try words.word("a product ID")
          let kind = try words.choice(
            CommerceKind.allCases.map { ($0.rawValue, Optional($0)) } + [("off", nil)],
            "subscription, one-time or off")
          return .declareCommerce(productID: productID, kind)
        }
        if words.take("invitations") {
          let hosting = try words.choice(
            InvitationManagement.allCases.map { ($0.word, $0) }, "apple or developer")
          return .seats(.invitations(hosting))
        }
        return .set(try words.setting())
      },
      words: { command in
        switch command {
        case .set(let change): return ["set"] + change.words
        case .notify(.fault(let fault)): return ["set", "notify-fault"] + fault.words
        case .seats(.invitations(let hosting)): return SeatCommand.invitations(hosting).words
        case .seats(.pricing(let productID, let pricing)):
          return SeatCommand.pricing(productID: productID, pricing).words
        case .declareCommerce(let productID, let kind):
          return ["set", "advanced-commerce", productID, kind?.rawValue ?? "off"]
        default: return nil
        }
      }),
    Verb(
      "reset", "every setting back to the configuration file's",
      parse: { _ throws(CommandError) in .reset }, words: { $0 == .reset ? ["reset"] : nil }),
    Verb(
      "launch", "the app starts: unfinished transactions are delivered again",
      parse: { _ throws(CommandError) in .launch }, words: { $0 == .launch ? ["launch"] : nil }),
    Verb(
      "call", [.init(.api)],
      options: [
        .init(
          "reason", .choice(RefundSheetReason.allCases.map(\.rawValue)),
          requires: ["refund-request"])
      ],
      "the app calls a StoreKit API (simulated errors fire here; receipt: a receipt refresh)",
      parse: { words throws(CommandError) in
        if words.take("receipt") { return .refreshReceipt }
        let api = try words.choice(
          Command.callNames, (Command.callNames.map(\.0) + ["receipt"]).joined(separator: ", "))
        var reference: TransactionReference?
        if let next = words.peek, !next.contains("=") { reference = try words.transaction() }
        let reason = try words.options()["reason"].map { (text) throws(CommandError) in
          try words.named(text, "a refund sheet's reason") as RefundSheetReason
        }
        if reason != nil && api != .refundRequest {
          throw CommandError("reason= is the refund sheet's: it goes with call refund-request")
        }
        return .call(api, reference, reason: reason)
      },
      words: { command in
        switch command {
        case .refreshReceipt: return ["call", "receipt"]
        case .call(let api, let reference, let reason):
          let name = Command.callNames.first { $0.1 == api }?.0 ?? api.rawValue
          return ["call", name] + (reference.map { ["\($0)"] } ?? [])
            + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
        default: return nil
        }
      }),
    Verb(
      "notify", [.init(.delivery)],
      options: [
        .init("id", .text("an external purchase id"), requires: ["external-purchase-token"]),
        .init("creation", .instant, requires: ["external-purchase-token"]),
        .init(
          "type", .choice(ExternalPurchaseToken.TokenType.allCases.map(\.word)),
          requires: ["external-purchase-token"]),
        .init("expiration", .instant, requires: ["external-purchase-token"]),
      ],
      "the deliveries: send the failed ones again now, or a fault (as set notify-fault); or a "
        + "notification with no purchase: rescind-consent, external-purchase-token <subtype>",
      parse: { words throws(CommandError) in
        let action = try words.word("retry, fault, rescind-consent or external-purchase-token")
        switch action {
        case "retry": return .notify(.retry)
        case "fault": return .notify(.fault(try words.notificationFault()))
        case "rescind-consent": return .notice(.rescindConsent)
        case "external-purchase-token":
          return .notice(.externalPurchaseToken(try words.tokenRequest()))
        default:
          throw CommandError(
            "notify takes retry, fault, rescind-consent or external-purchase-token, "
              + "not \"\(action)\"",
            suggestions: ["retry", "fault", "rescind-consent", "external-purchase-token"].filter {
              closeEnough($0, action)
            })
        }
      },
      // `notify fault …` prints as `set notify-fault …`, its usual spelling.
      words: { command in
        switch command {
        case .notify(.retry): return ["notify", "retry"]
        case .notice(.rescindConsent): return ["notify", "rescind-consent"]
        case .notice(.externalPurchaseToken(let token)):
          return ["notify", "external-purchase-token", token.reason.word]
            + (token.id.map { ["id=\($0)"] } ?? [])
            + (token.created.map { ["creation=\($0.iso8601)"] } ?? [])
            + (token.tokenType.map { ["type=\($0.word)"] } ?? [])
            + (token.expires.map { ["expiration=\($0.iso8601)"] } ?? [])
        default: return nil
        }
      }),
    Verb(
      "family", [.init(.family)],
      "the purchaser's family: a member joins or leaves; the purchaser stops or resumes "
        + "sharing a product",
      parse: { words throws(CommandError) in
        let action = try words.word("join, leave or sharing")
        switch action {
        case "join": return .family(.join(try words.word("the new member's name")))
        case "leave": return .family(.leave(try words.word("a member's name")))
        case "sharing":
          let productID = try words.productID()
          return .family(.sharing(productID: productID, enabled: try words.onOff()))
        default:
          throw CommandError(
            "family takes join, leave or sharing, not \"\(action)\"",
            suggestions: ["join", "leave", "sharing"].filter { closeEnough($0, action) })
        }
      },
      words: { command in
        guard case .family(let action) = command else { return nil }
        switch action {
        case .join(let name): return ["family", "join", name]
        case .leave(let name): return ["family", "leave", name]
        case .sharing(let productID, let enabled):
          return ["family", "sharing", productID, enabled ? "on" : "off"]
        }
      }),
    Verb(
      "customer", [.init(.customer, optional: true)],
      options: [.init("number", .number(1...Customer.maximumNumber))],
      "the following lines act as this customer, made on first use with an Apple Account of "
        + "their own (number= picks a new one's ids); without a name, as the session's own",
      parse: { words throws(CommandError) in
        var name: String?
        if let next = words.peek, !next.contains("=") {
          name = try words.word("a customer's name")
        }
        let number = try words.options()["number"].map { (text) throws(CommandError) in
          guard let number = Int(text), (1...Customer.maximumNumber).contains(number) else {
            throw CommandError(
              "number must be a whole number from 1 to \(Customer.maximumNumber), not "
                + "\"\(text.prefix(40))\"")
          }
          return number
        }
        return .customer(name: name, number: number)
      },
      words: { command in
        guard case .customer(let name, let number) = command else { return nil }
        return ["customer"] + (name.map { [$0] } ?? []) + (number.map { ["number=\($0)"] } ?? [])
      }),
    Verb(
      "back", "the session as it was before the last event",
      parse: { _ throws(CommandError) in .stepBack(.event) },
      words: { $0 == .stepBack(.event) ? ["back"] : nil }),
    Verb(
      "undo", "the session as it was before the last command",
      parse: { _ throws(CommandError) in .stepBack(.command) },
      words: { $0 == .stepBack(.command) ? ["undo"] : nil }),
  ]
}
