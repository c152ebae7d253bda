import Hummingbird

/// The App Store Server API's notification endpoints: Request a Test Notification, Get Test
/// Notification Status and Get Notification History.
struct NotificationController {
  let access: SessionAccess

  func addRoutes(to api: RouterGroup<ServerContext>) {
    api.post("v1/notifications/test", use: requestTest)
      .get("v1/notifications/test/:testNotificationToken", use: testStatus)
      .post("v1/notifications/history", use: history)
  }

  @Sendable func requestTest(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.write(request, context) { served, _ in
      served.json(try served.requestTestNotification())
    }
  }

  @Sendable func testStatus(_ request: Request, context: ServerContext) async throws -> Response {
    let token = context.parameters.get("testNotificationToken") ?? ""
    return try await access.read(request, context) { reader, _ in
      reader.json(try reader.testNotificationStatus(token))
    }
  }

  @Sendable func history(_ request: Request, context: ServerContext) async throws -> Response {
    try await access.read(request, context) { reader, whole in
      reader.json(
        try reader.notificationHistory(
          NotificationHistoryRequest(query: whole.query, body: whole.body)))
    }
  }
}
