import Hummingbird

extension ServedSession {
  /// The served session's router: the request log, the body limit and the answer to a request
  /// no route takes on every request; Storekeeper's own endpoints; and the App Store Server API
  /// under `/inApps` and the Advanced Commerce API under `/advancedCommerce` (Apple's paths),
  /// behind their authentication, one controller per family of endpoints.
  ///
  /// - Parameters:
  ///   - timeout: how long a request may take to arrive whole.
  ///   - log: hears each request answered.
  static func router(
    access: SessionAccess, timeout: Duration, log: @escaping @Sendable (RequestRecord) -> Void
  ) -> Router<ServerContext> {
    let router = Router(context: ServerContext.self)
    let api = AppStoreAuthentication(access: access)
    let routes = RouteList()
    router.add(middleware: LogMiddleware(log: log))
      .add(middleware: BodyMiddleware(timeout: timeout))
      .add(middleware: UnmatchedMiddleware(routes: routes, authentication: api))
    ControlController(access: access).addRoutes(to: router)
    let inApps = router.group("inApps").add(middleware: api)
    TransactionController(access: access).addRoutes(to: inApps)
    TransactionUpdateController(access: access).addRoutes(to: inApps)
    SubscriptionController(access: access).addRoutes(to: inApps)
    NotificationController(access: access).addRoutes(to: inApps)
    RetentionController(access: access).addRoutes(to: inApps)
    SeatController(access: access).addRoutes(to: inApps)
    let commerce = router.group("advancedCommerce").add(middleware: api)
    CommerceController(access: access).addRoutes(to: commerce)
    routes.keep(router)
    return router
  }
}
