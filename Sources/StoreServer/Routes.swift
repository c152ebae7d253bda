import StoreConfiguration

/// One endpoint of the served session: a method, a path pattern, who may call it, and how it is
/// answered. ``ServedSession/routes`` lists them all; a path that matches none is 404, one that
/// matches only with other methods 405 with `Allow` — both derived from the table.
struct Route: Sendable {
  /// Who may call a route.
  enum Access: Sendable {
    /// Anyone (the health check).
    case open
    /// The control endpoint's bearer token.
    case control
    /// An App Store Server API token (checked for every `/inApps` path).
    case api
  }

  /// A path segment: a word, or a parameter (`{transactionId}`).
  enum Segment: Equatable, Sendable {
    case word(String)
    case parameter
  }

  let method: String
  /// The path as written, `{name}` for a parameter.
  let path: String
  let segments: [Segment]
  /// How a route is answered, with the path's parameters; throws ``AppStoreError``.
  enum Handler: Sendable {
    /// From the session as last committed, on any thread (``ReadAccess``).
    case read(@Sendable (inout SessionReader, ServerRequest, [String]) throws -> ServerResponse)
    /// Where the session lives, one at a time: it changes the session.
    case write(@Sendable (ServedSession, ServerRequest, [String]) throws -> ServerResponse)
    /// Where the session lives, its answer written as it is made (the control endpoint).
    case control(@Sendable (ServedSession, ServerRequest, StreamedAnswer) -> Void)
  }

  /// Who may call it: the App Store Server API's token under `/inApps`, else what the route says.
  let access: Access
  /// How it is answered.
  let handler: Handler

  /// A route on `path`, whose `{name}` segments are its parameters, answered from the session
  /// as last committed.
  init(
    _ method: String, _ path: String, access: Access = .open,
    read:
      @escaping @Sendable (inout SessionReader, ServerRequest, [String]) throws
      -> ServerResponse
  ) {
    self.init(method, path, access: access, handler: .read(read))
  }

  /// A route on `path` that changes the session, answered where it lives.
  init(
    _ method: String, _ path: String, access: Access = .open,
    write: @escaping @Sendable (ServedSession, ServerRequest, [String]) throws -> ServerResponse
  ) {
    self.init(method, path, access: access, handler: .write(write))
  }

  /// A route on `path` that changes the session, its answer written as it is made.
  init(
    _ method: String, _ path: String, access: Access = .open,
    control: @escaping @Sendable (ServedSession, ServerRequest, StreamedAnswer) -> Void
  ) {
    self.init(method, path, access: access, handler: .control(control))
  }

  private init(_ method: String, _ path: String, access: Access, handler: Handler) {
    self.method = method
    self.path = path
    self.segments = path.split(separator: "/").map {
      $0.hasPrefix("{") ? .parameter : .word(String($0))
    }
    self.access = path.hasPrefix("inApps/") ? .api : access
    self.handler = handler
  }

  /// Whether it only reads the session.
  var isRead: Bool { if case .read = handler { true } else { false } }

  /// The parameters when `path` matches the pattern, whatever the method.
  func parameters(of path: [Substring]) -> [String]? {
    guard path.count == segments.count else { return nil }
    var parameters: [String] = []
    for (segment, word) in zip(segments, path) {
      switch segment {
      case .word(let expected): guard word == expected else { return nil }
      case .parameter: parameters.append(String(word))
      }
    }
    return parameters
  }

  /// A path as Hummingbird's router writes it (`inApps/v1/transactions/:transactionId`), with
  /// its parameters' names in order.
  static func routerPath(_ path: String) -> (path: String, names: [String]) {
    var names: [String] = []
    let segments = path.split(separator: "/").map { segment in
      guard segment.hasPrefix("{") && segment.hasSuffix("}") else { return String(segment) }
      names.append(String(segment.dropFirst().dropLast()))
      return ":" + names.last!
    }
    return (segments.joined(separator: "/"), names)
  }
}

/// A route matched: the route and its parameters, or why none was.
enum RouteMatch {
  case found(Route, [String])
  case refused(AppStoreError)

  /// The route `method path` names; 404, 405 with the methods that path takes, or 501 for
  /// Apple's endpoints that are not simulated.
  init(_ method: String, _ path: String, in routes: [Route]) {
    let segments = path.split(separator: "/")
    var allowed: [String] = []
    for route in routes {
      guard let parameters = route.parameters(of: segments) else { continue }
      guard route.method == method else {
        allowed.append(route.method)
        continue
      }
      self = .found(route, parameters)
      return
    }
    if segments.starts(with: ["inApps", "v1", "messaging"]) {
      self = .refused(.notSimulated("retention messaging"))
    } else if !allowed.isEmpty {
      self = .refused(.methodNotAllowed(method, path, allowed: allowed))
    } else {
      self = .refused(.notFound(method, path))
    }
  }
}

extension ServedSession {
  /// Every endpoint: the control endpoint, then the App Store Server API (Apple's paths).
  static let routes: [Route] = [
    Route("GET", "storekeeper/v1/health") { reader, _, _ in reader.health() },
    Route("POST", "storekeeper/v1/commands", access: .control) { served, request, answer in
      served.commands(request.body, member: request.query["member"]?.last, answer: answer)
    },
    Route("GET", "inApps/v1/transactions/{transactionId}") { reader, _, id in
      try reader.json(reader.transactionInfo(id[0]))
    },
    Route("GET", "inApps/v1/transactions/appTransactions/{transactionId}") { reader, _, id in
      try reader.customer(id[0])
      return reader.json(try reader.appTransactionInfo())
    },
    Route("PUT", "inApps/v1/subscriptions/extend/{originalTransactionId}") {
      served, request, id in
      served.json(try served.extend(id[0], body: request.body))
    },
    Route("POST", "inApps/v1/subscriptions/extend/mass") { served, request, _ in
      served.json(try served.extendAll(body: request.body))
    },
    Route("GET", "inApps/v1/subscriptions/extend/mass/{productId}/{requestIdentifier}") {
      reader, _, names in
      reader.json(try reader.extensionStatus(product: names[0], request: names[1]))
    },
    Route("PUT", "inApps/v1/transactions/consumption/{transactionId}") { served, request, id in
      try served.consumption(id[0], version: "v1", body: request.body)
      return ServerResponse(status: 202, body: [])
    },
    Route("PUT", "inApps/v2/transactions/consumption/{transactionId}") { served, request, id in
      try served.consumption(id[0], version: "v2", body: request.body)
      return ServerResponse(status: 202, body: [])
    },
    Route("PUT", "inApps/v1/transactions/{transactionId}/appAccountToken") {
      served, request, id in
      try served.setAppAccountToken(id[0], body: request.body)
      return ServerResponse(status: 200, body: [])
    },
    Route("POST", "inApps/v1/transactions/{transactionId}/finish") { served, _, id in
      try served.finish(id[0])
      return ServerResponse(status: 200, body: [])
    },
    Route("POST", "inApps/v1/notifications/test") { served, _, _ in
      served.json(try served.requestTestNotification())
    },
    Route("GET", "inApps/v1/notifications/test/{testNotificationToken}") { reader, _, token in
      reader.json(try reader.testNotificationStatus(token[0]))
    },
    Route("POST", "inApps/v1/notifications/history") { reader, request, _ in
      reader.json(try reader.notificationHistory(request.query, body: request.body))
    },
    Route("GET", "inApps/v1/lookup/{orderId}") { reader, _, order in
      reader.json(try reader.lookUp(order: order[0]))
    },
    Route("GET", "inApps/v2/refund/lookup/{transactionId}") { reader, request, id in
      try reader.customer(id[0])
      return reader.json(try reader.refundHistory(request.query))
    },
    Route("GET", "inApps/v1/subscriptions/{transactionId}") { reader, request, id in
      try reader.customer(id[0])
      return reader.json(try reader.statuses(request.query))
    },
    Route("GET", "inApps/v1/history/{transactionId}") { reader, request, id in
      _ = try reader.transaction(id[0])  // the deprecated v1 takes transaction ids only
      return reader.json(try reader.history(HistoryQuery(request.query, version: "v1")))
    },
    Route("GET", "inApps/v2/history/{transactionId}") { reader, request, id in
      try reader.customer(id[0])
      return reader.json(try reader.history(HistoryQuery(request.query, version: "v2")))
    },
  ]
}
