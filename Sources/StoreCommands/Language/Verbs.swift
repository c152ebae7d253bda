import StoreSimulation

extension Verb {
  /// Every verb of the command language, in the order help lists them.
  public static let all: [Verb] =
    purchases + refunds + subscriptions + session + retention + imports + commerce

  /// A promotional offer signature's parts (v1); `jws=` replaces them.
  static let signatureParts = ["key", "nonce", "timestamp", "signature"]

  private static let purchases: [Verb] = [
    Verb(
      "buy", [.init(.product(subscriptions: false))],
      options: [
        .init("quantity", .number(1...PurchaseOptions.maximumQuantity)),
        .init("seats", .number(1...PurchaseOptions.maximumQuantity)),
        .init("offer", .offer), .init("token", .uuid), .init("date", .instant),
        .init("renew", .choice(RenewalBehavior.allCases.map(\.rawValue))),
        .init("from", .choice(PurchaseOrigin.allCases.map(\.rawValue))),
      ]
        + signatureParts.map {
          .init(
            $0, $0 == "timestamp" ? .number(0...Int.max) : .text($0), requires: ["offer"],
            excludes: ["jws"])
        }
        + [
          .init("jws", .text("JWS"), requires: ["offer"], excludes: signatureParts),
          .init("intro-jws", .text("JWS")), .init("bundle", .text("bundle id")),
          .init("plan", .choice(BillingPlanType.allCases.map(\.rawValue))),
          .init("advanced-commerce", .text("JWS")),
        ],
      "a purchase made by the app (from=store: outside it, as the Transaction Manager's +)",
      parse: { words throws(CommandError) in try words.buy() },
      words: { command in
        guard case .buy(let productID, let options) = command else { return nil }
        return ["buy", productID] + options.words
      }),
    transactionVerb("approve", "a parent approves an Ask to Buy request", Command.approve),
    transactionVerb("decline", "a parent declines an Ask to Buy request", Command.decline),
    transactionVerb(
      "resolve", "an interrupted purchase or a billing issue is resolved", Command.resolve
    ),
    Verb(
      "finish", [.init(.transaction(or: ["all"]))],
      "the app finishes a transaction, or all of them",
      parse: { words throws(CommandError) in
        words.take("all") ? .finish(nil) : .finish(try words.transaction())
      },
      words: { command in
        guard case .finish(let reference) = command else { return nil }
        return ["finish", reference.map { "\($0)" } ?? "all"]
      }),
    transactionVerb("delete", "the transaction never happened", Command.delete),
    Verb(
      "clear", "every transaction deleted", parse: { _ throws(CommandError) in .clear },
      words: { $0 == .clear ? ["clear"] : nil }),
    Verb(
      "restore", "AppStore.sync(): the app restores purchases",
      parse: { _ throws(CommandError) in .restore },
      words: { $0 == .restore ? ["restore"] : nil }),
  ]

  private static let refunds: [Verb] = [
    Verb(
      "refund", [.init(.transaction(or: []))],
      options: [
        .init("reason", .choice(RevocationReason.allCases.map(\.rawValue))),
        .init("percentage", .decimal),
        .init(
          "seats", .number(1...PurchaseOptions.maximumQuantity), excludes: ["percentage", "reason"]),
      ],
      "Apple refunds it (percentage=P: a prorated refund, 0 < P ≤ 100; seats=N: N seats of a "
        + "multiseat subscription)",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        let options = try words.options()
        if let text = options["seats"] {
          guard let seats = Int(text), options["percentage"] == nil, options["reason"] == nil
          else {
            throw CommandError(
              "refund seats=N takes a whole number and no reason= or percentage=, not \"\(text)\"")
          }
          return .seats(.refund(reference, seats: seats))
        }
        return .refund(
          reference,
          reason: try options["reason"].map { (text) throws(CommandError) in
            try words.named(text, "a refund reason")
          },
          share: try options["percentage"].map(words.percentage))
      },
      words: { command in
        if case .seats(.refund(let reference, let seats)) = command {
          return SeatCommand.refund(reference, seats: seats).words
        }
        guard case .refund(let reference, let reason, let share) = command else { return nil }
        return ["refund", "\(reference)"] + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
          + (share.map { ["percentage=\(percentageText($0))"] } ?? [])
      }),
    Verb(
      "refund-request", [.init(.transaction(or: []))],
      options: [.init("reason", .choice(RefundRequestReason.allCases.map(\.rawValue)))],
      "the customer asks Apple for a refund (the App Store asks your server)",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        let reason = try words.options()["reason"].map { (text) throws(CommandError) in
          try words.named(text, "a refund request's reason") as RefundRequestReason
        }
        return .refundRequest(reference, reason: reason)
      },
      words: { command in
        guard case .refundRequest(let reference, let reason) = command else { return nil }
        return ["refund-request", "\(reference)"]
          + (reason.map { ["reason=\($0.rawValue)"] } ?? [])
      }),
    transactionVerb("refund-decline", "Apple declines a refund request", Command.refundDecline),
    transactionVerb(
      "refund-reverse", "Apple reverses a refund after a dispute", Command.refundReverse
    ),
    Verb(
      "consumption", [.init(.transaction(or: []))],
      options: ConsumptionInformation.fieldNames.map { .init($0, .text("value")) },
      needsAnOption: true,
      "your server's consumption information for a refund request (Apple's fields)",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        let given = try words.options()
        guard !given.isEmpty else {
          throw CommandError(
            "consumption needs at least one field, such as customerConsented=true; the fields "
              + "are " + ConsumptionInformation.fieldNames.joined(separator: ", "))
        }
        return .consumption(
          reference,
          fields: ConsumptionInformation.fieldNames.compactMap { name in
            given[name].map { ConsumptionInformation.Field(name: name, value: $0) }
          })
      },
      words: { command in
        guard case .consumption(let reference, let fields) = command else { return nil }
        return ["consumption", "\(reference)"] + fields.map { "\($0.name)=\($0.value)" }
      }),
    Verb(
      "account-token", [.init(.transaction(or: [])), .init(.choice(["<uuid>", "none"]))],
      "Set App Account Token, by the original transaction: the purchase and renewals to come",
      parse: { words throws(CommandError) in
        let reference = try words.transaction()
        let token = try words.word("a UUID or none")
        if token == "none" { return .accountToken(reference, token: nil) }
        guard isUUID(token) else {
          throw CommandError("the app account token must be a UUID or none, not \"\(token)\"")
        }
        return .accountToken(reference, token: token.lowercased())
      },
      words: { command in
        guard case .accountToken(let reference, let token) = command else { return nil }
        return ["account-token", "\(reference)", token ?? "none"]
      }),
  ]

  /// A verb whose only word is a transaction.
  static func transactionVerb(
    _ name: String, _ summary: String,
    _ make: @escaping @Sendable (TransactionReference) -> Command
  ) -> Verb {
    Verb(
      name, [.init(.transaction(or: []))], summary,
      parse: { words throws(CommandError) in make(try words.transaction()) },
      words: { command in
        guard command.verb == name, let reference = command.soleArgument?.reference else {
          return nil
        }
        return [name, "\(reference)"]
      })
  }

  /// A verb of one subscription and nothing else (`expire`, `renew`).
  static func subscriptionVerb(
    _ name: String, _ summary: String, _ make: @escaping @Sendable (String) -> Command
  ) -> Verb {
    Verb(
      name, [.init(.product(subscriptions: true))], summary,
      parse: { words throws(CommandError) in make(try words.productID()) },
      words: { command in
        guard command.verb == name, let productID = command.soleArgument?.productID else {
          return nil
        }
        return [name, productID]
      })
  }
}
