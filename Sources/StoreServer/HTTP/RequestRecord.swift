/// One request as the server answered it, for its log: `serve` prints it, the inspector shows it
/// in the event log and marks a failure.
public struct RequestRecord: Equatable, Sendable {
  /// `GET`, `POST` …
  public var method: String
  /// The path (with the query, when the request was refused before it was read).
  public var path: String
  /// The status answered.
  public var status: Int
  /// How long the answer took, when it was made (not for a request refused as it arrived).
  public var milliseconds: Int64?
  /// Why, when the answer alone does not say (a 401's reason, a body too large).
  public var note: String?

  /// `GET /inApps/v1/transactions/2000000001 200 3 ms`, with the note in parentheses.
  public var text: String {
    "\(method) \(AppStoreError.echo(path)) \(status)" + (milliseconds.map { " \($0) ms" } ?? "")
      + (note.map { " (\($0))" } ?? "")
  }

  /// Whether the server failed (5xx): a client's mistake is not the server's failure.
  public var isFailure: Bool { status >= 500 }
}
