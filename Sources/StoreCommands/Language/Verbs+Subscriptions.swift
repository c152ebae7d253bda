import StoreConfiguration
import StoreSimulation

extension Verb {
  static let subscriptions: [Verb] = [
    Verb(
      "auto-renew", [.init(.transaction(or: [])), .init(.choice(["on", "off"]))],
      "the customer turns auto-renew on or off",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        return .autoRenew(reference, enabled: try words.onOff())
      },
      words: { command in
        guard case .autoRenew(let reference, let enabled) = command else { return nil }
        return ["auto-renew", "\(reference)", enabled ? "on" : "off"]
      }),
    Verb(
      "seats", [.init(.transaction(or: [])), .init(.number(1...1_000_000))],
      "a multiseat subscription's purchaser sets its seats: more now, fewer at the next renewal",
      parse: { words throws(CommandError) in try words.seatsChange() },
      words: { command in
        guard case .seats(.change(let reference, let total)) = command else { return nil }
        return SeatCommand.change(reference, total: total).words
      }),
    Verb(
      "seat-claim", [.init(.transaction(or: []))],
      options: [
        .init("request", .uuid, required: true),
        .init("app-transaction", .text("appTransactionId")),
      ],
      "Claim Seat: the app's server claims a seat of a developer-hosted multiseat subscription",
      parse: { words throws(CommandError) in try words.seatClaim() },
      words: { command in
        guard case .seats(.claim(let reference, let request, let member)) = command else {
          return nil
        }
        return SeatCommand.claim(reference, request: request, appTransactionID: member).words
      }),
    Verb(
      "group", [.init(.choice(["invite", "remove"])), .init(.customer)],
      "a member joins the current customer's Apple-hosted multiseat subscription (a customer "
        + "made on first use, with an ASSIGNED transaction), or the purchaser removes one",
      parse: { words throws(CommandError) in
        let action = try words.word("invite or remove")
        switch action {
        case "invite": return .seats(.invite(member: try words.word("the member's name")))
        case "remove": return .seats(.remove(member: try words.word("a member's name")))
        default:
          throw CommandError(
            "group takes invite or remove, not \"\(action)\"",
            suggestions: ["invite", "remove"].filter { closeEnough($0, action) })
        }
      },
      words: { command in
        guard case .seats(let change) = command else { return nil }
        switch change {
        case .invite, .remove: return change.words
        default: return nil
        }
      }),
    Verb(
      "seat-unclaim", [.init(.transaction(or: [])), .init(.uuid)],
      "Unclaim Seat: the app's server releases a seat claim",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        return .seats(.unclaim(reference, claim: try words.word("a seatClaimId").lowercased()))
      },
      words: { command in
        guard case .seats(.unclaim(let reference, let claim)) = command else { return nil }
        return SeatCommand.unclaim(reference, claim: claim).words
      }),
    Verb(
      "seat-associate",
      [.init(.transaction(or: [])), .init(.uuid), .init(.text("appTransactionId"))],
      "Associate Seat: the app's server names a seat claim's member",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        let claim = try words.word("a seatClaimId").lowercased()
        return .seats(
          .associate(
            reference, claim: claim, appTransactionID: try words.word("an appTransactionId")))
      },
      words: { command in
        guard case .seats(.associate(let reference, let claim, let member)) = command else {
          return nil
        }
        return SeatCommand.associate(reference, claim: claim, appTransactionID: member).words
      }),
    subscriptionVerb("expire", "the subscription expires now", Command.expire),
    subscriptionVerb("renew", "the subscription renews now", Command.renew),
    Verb(
      "price-increase",
      [
        .init(.choice(PriceIncreaseAction.allCases.map(\.rawValue))),
        .init(.transaction(or: [])),
      ],
      options: [.init("price", .decimal, requires: ["request"])],
      "a price increase asked for (price=P; default: the file's price), consented to or declined",
      parse: { words throws(CommandError) in
        let action = try words.choice(
          PriceIncreaseAction.allCases.map { ($0.rawValue, $0) }, "request, consent or decline")
        let reference = try words.transaction()
        let options = try words.options()
        if action != .request, options["price"] != nil {
          throw CommandError("price= goes with price-increase request only")
        }
        let price = try options["price"].map { text throws(CommandError) -> Int64 in
          guard let milliunits = Price(text).milliunits, milliunits > 0 else {
            throw CommandError(
              "price must be a decimal number above 0, such as 10.99, not \"\(text)\"")
          }
          return milliunits
        }
        return .priceIncrease(action, reference, price: price)
      },
      words: { command in
        guard case .priceIncrease(let action, let reference, let price) = command else {
          return nil
        }
        return ["price-increase", action.rawValue, "\(reference)"]
          + (price.map { ["price=\(decimalText($0))"] } ?? [])
      }),
    Verb(
      "extend", [.init(.transaction(or: []))],
      options: [
        .init("days", .number(Session.extensionDays), required: true),
        .init("reason", .choice(ExtendReason.allCases.map(\.rawValue))),
      ],
      "Extend a Subscription Renewal Date (1–90 days, Apple's limits)",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        let options = try words.options()
        return .extend(
          reference, days: try words.days(options["days"]),
          reason: try options["reason"].map { (text) throws(CommandError) in
            try words.named(text, "an extension's reason")
          })
      },
      words: { command in
        guard case .extend(let reference, let days, let reason) = command else { return nil }
        return ["extend", "\(reference)", "days=\(days)"]
          + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
      }),
    Verb(
      "extend-all", [.init(.product(subscriptions: true))],
      options: [
        .init("days", .number(Session.extensionDays), required: true),
        .init("reason", .choice(ExtendReason.allCases.map(\.rawValue))),
        .init("request", .text("request id")),
        .init("storefronts", .text("USA,CAN")),
      ],
      "every subscriber of a product extended (in the storefronts listed)",
      parse: { words throws(CommandError) in
        let productID = try words.productID()
        let options = try words.options()
        return .extendAll(
          productID: productID, days: try words.days(options["days"]),
          reason: try options["reason"].map { (text) throws(CommandError) in
            try words.named(text, "an extension's reason")
          }, request: options["request"],
          storefronts: options["storefronts"].map { $0.split(separator: ",").map(String.init) }
            ?? [])
      },
      words: { command in
        guard
          case .extendAll(let productID, let days, let reason, let request, let storefronts) =
            command
        else { return nil }
        return ["extend-all", productID, "days=\(days)"]
          + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
          + (request.map { ["request=\($0)"] } ?? [])
          + (storefronts.isEmpty ? [] : ["storefronts=\(storefronts.joined(separator: ","))"])
      }),
  ]
}
