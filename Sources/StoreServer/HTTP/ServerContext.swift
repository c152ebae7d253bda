import Hummingbird
import StoreSimulation
import StoreUtilities

/// What a request carries through the middlewares to its controller: the note its log line
/// gets, the App Store Server API token the authentication accepted, and the account whose
/// transactions it reads.
public struct ServerContext: RequestContext {
  /// What Hummingbird keeps of the request (its parameters, its logger).
  public var coreContext: CoreRequestContextStorage
  /// Why, for the request log (set by whoever answers: a 401's reason, a refused body).
  let note = Note()
  /// The bearer token ``AppStoreAuthentication`` accepted (`nil` where none is asked for).
  var token: APIToken?
  /// Whose transactions the request reads: set by ``CustomerLookup`` from the customer id in
  /// the path (a member's transaction or `appTransactionId` names the member); the purchaser
  /// elsewhere.
  var account = Account.purchaser

  /// What the request's log line says beside its status: written by the handler, read by the
  /// log middleware above it (one request's task, under a lock all the same).
  final class Note: Sendable {
    private let box = Locked<String?>(nil)
    /// The note, if any.
    var text: String? {
      get { box.value }
      set { box.withLock { $0 = newValue } }
    }
  }

  /// The context Hummingbird makes for each request.
  public init(source: ApplicationRequestContextSource) {
    coreContext = .init(source: source)
  }
}
