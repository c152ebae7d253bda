import Foundation
package import StoreCommands
package import StoreConfiguration
internal import StoreSigning
package import StoreSimulation

/// One simulated App Store: a session behind its own command host (journaled when asked), the
/// signer of what it hands the app, its clock, and the streams the app listens to. StoreKit's
/// static API reaches the store of the current test (``current``); every change goes through
/// the host, as `run`'s and the inspector's do. Safe from any thread: `@unchecked Sendable`
/// because the host and every mutable property are used only under `lock`.
package final class Store: @unchecked Sendable {
  /// How the store's clock moves.
  package enum Clock: Sendable, Equatable {
    /// With the wall clock, as Xcode's environment does: renewals fall due while a test waits.
    case running
    /// Only when the test moves it: a year of renewals in milliseconds, nothing on timing.
    case manual
  }

  let lock: NSRecursiveLock
  let host: CommandHost
  /// The host's observer that feeds the app's streams (the purchaser's store attaches it).
  private var streams: StoreStreams?
  /// Whose device the store is: the purchaser's, or a family member's (``device(of:)``).
  package let account: Account
  /// For a member's device, the purchaser's store: its host, lock and clock are the device's.
  let primary: Store?
  /// The members' devices made so far (the purchaser's store keeps them).
  private var devices: [Account: Store] = [:]
  let signer: Signer
  /// The `x5c[0]` every JWS of this store carries, base64: what verification trusts.
  let certificate: String
  /// The `.storekit` file the store was made from.
  package let configurationPath: String
  /// The app's bundle id.
  package let bundleID: String
  private let wall: @Sendable () -> Instant
  /// Wall time minus simulated time while the clock runs; `nil` when it is manual.
  private var offset: Int64?
  private var customerChoices = CustomerChoices()
  /// StoreKit 1's payment queue, once the app asked for it (``paymentHub``).
  var queueHub: PaymentQueueHub?
  /// The payment the queue is buying, while it buys it (under the lock).
  var queuePayment: SKPayment?
  /// The file `Bundle.main.appStoreReceiptURL` names for this store.
  let receiptFile = Store.receiptFile()
  /// The host's revision the receipt file was written at.
  var receiptRevision: Int?
  /// Whether the app asked for a receipt (`SKReceiptRefreshRequest`).
  var receiptRequested = false
  private var ticker: Task<Void, Never>?

  /// `Transaction.updates`: kept for the first listener, as StoreKit keeps them for the app.
  let updates = Broadcast<VerificationResult<Transaction>>(keepsForFirstListener: true)
  /// `Product.SubscriptionInfo.Status.updates`.
  let statuses = Broadcast<Product.SubscriptionInfo.Status>(keepsForFirstListener: false)
  /// `Message.messages`.
  let messages = Broadcast<Message>(keepsForFirstListener: true)
  /// `PurchaseIntent.intents`: kept for the first listener, as for an app that is launching.
  let intents = Broadcast<PurchaseIntent>(keepsForFirstListener: true)
  /// `Storefront.updates`.
  let storefronts = Broadcast<Storefront>(keepsForFirstListener: false)

  /// A store over a configuration, starting now on the wall clock.
  ///
  /// - Parameters:
  ///   - journalPath: where to journal the session (a failing test's history, for the
  ///     inspector); `nil` keeps it in memory.
  ///   - registers: whether StoreKit's static API may reach the store (``StoreRegistry``).
  ///   - wall: the wall clock (injected: the engine never reads it).
  /// - Throws: ``CommandError`` when the journal cannot be opened.
  package init(
    configuration: StoreKitConfiguration, bytes: [UInt8], configurationPath: String,
    journalPath: String?, bundleID: String = Signer.defaultBundleID, registers: Bool = true,
    wall: @escaping @Sendable () -> Instant
  ) throws(CommandError) {
    let now = wall()
    lock = NSRecursiveLock()
    account = .purchaser
    primary = nil
    let journaled = try SessionOpening.open(
      configuration: configuration, bytes: bytes, configurationPath: configurationPath,
      journalPath: journalPath, start: now, now: now, options: SessionOptions(),
      report: { _ in })
    host = CommandHost(journaled)
    let identity = Store.identity
    signer = Signer(identity: identity, environment: .xcode, bundleID: bundleID)
    certificate = Data(identity.chain[0]).base64EncodedString()
    self.configurationPath = configurationPath
    self.bundleID = bundleID
    self.wall = wall
    offset = now.milliseconds - journaled.session.now.milliseconds
    let streams = StoreStreams(self, storefront: journaled.session.settings.storefront)
    host.attach(streams)
    self.streams = streams
    if registers { StoreRegistry.shared.register(self) }
    startTicking()
  }

  /// A family member's device: the purchaser's session as the member sees it.
  private init(device account: Account, of primary: Store) {
    lock = primary.lock
    host = primary.host
    self.account = account
    self.primary = primary
    signer = primary.signer
    certificate = primary.certificate
    configurationPath = primary.configurationPath
    bundleID = primary.bundleID
    wall = primary.wall
  }

  /// A store that is gone ends the app's streams (a loop over `Transaction.updates` ends rather
  /// than wait forever) and leaves no receipt file behind.
  deinit {
    ticker?.cancel()
    updates.finish()
    statuses.finish()
    messages.finish()
    intents.finish()
    storefronts.finish()
    if primary == nil, receiptRevision != nil {
      try? FileManager.default.removeItem(at: receiptFile.deletingLastPathComponent())
    }
  }

  /// The device of `account`: this store's session as that account sees it (a family
  /// member's transactions, entitlements and statuses), with its own streams. Purchases are
  /// the purchaser's: a member's device refuses them.
  package func device(of account: Account) -> Store {
    let root = primary ?? self
    guard account != .purchaser else { return root }
    return lock.withLock {
      if let device = root.devices[account] { return device }
      let device = Store(device: account, of: root)
      root.devices[account] = device
      return device
    }
  }
  /// One signing identity for every store of the process (making one costs a key and a
  /// certificate; each store's JWS verify against it alike).
  private static let identity: SigningIdentity = {
    do {
      return try SigningIdentity.makeSelfSigned()
    } catch {
      fatalError("StorekeeperKit cannot make its signing certificate: \(error)")
    }
  }()

  // MARK: - Reading and changing the session

  /// Reads the session (the clock caught up first).
  package func read<T>(_ body: (SessionView) -> T) -> T {
    lock.withLock {
      catchUp()
      return body(host.view(of: account))
    }
  }

  /// Reads the session as it is (under the lock, without moving the clock), as the store's
  /// account sees it.
  func withSession<T>(_ body: (SessionView) -> T) -> T {
    lock.withLock { body(host.view(of: account)) }
  }

  /// The session's present, as it is.
  var sessionNow: Instant { withSession { $0.now } }

  /// Applies a command as the app or the test asks for it (the clock caught up first); its
  /// events reach the streams the app listens to, in order, and its replies its caller.
  @discardableResult
  package func perform(_ command: Command) -> Performed {
    lock.withLock {
      catchUp()
      let root = primary ?? self
      // A member's device asks as the member: the engine refuses what a member cannot do.
      return root.streams!.take(host.perform(command, as: account))
    }
  }

  /// Applies a line of the command language, as this device's account.
  @discardableResult
  package func perform(line: String) -> Performed {
    lock.withLock {
      catchUp()
      let root = primary ?? self
      guard account != .purchaser, case .some(.some(let command)) = try? Command.parse(line)
      else { return root.streams!.take(host.perform(line: line)) }
      return root.streams!.take(host.perform(command, as: account))
    }
  }

  private func apply(_ command: Command, from origin: CommandOrigin) -> Performed {
    if let primary { return primary.apply(command, from: origin) }
    return streams!.take(host.perform(command, from: origin))
  }

  /// Hands events to the streams of the device they are for: transactions on
  /// `Transaction.updates`, statuses, messages (the purchaser's). Called by ``StoreStreams``
  /// once the journal holds them.
  func dispatch(_ events: [StoreEvent]) {
    func device(_ owner: Account) -> Store? { owner == .purchaser ? self : devices[owner] }
    for event in events {
      switch event.kind {
      case .transaction(let transaction, .updates?):
        guard let device = device(transaction.owner) else { continue }
        if device.updates.isHeard { device.updates.send(device.verified(transaction)) }
      case .transaction(let transaction, .purchaseResult?) where queuePayment != nil:
        // A payment of StoreKit 1's queue: StoreKit 2 hears of it on `Transaction.updates`, as
        // of any purchase its own `purchase()` did not make.
        if updates.isHeard { updates.send(verified(transaction)) }
      case .status(let status):
        guard let device = device(status.owner) else { continue }
        if device.statuses.isHeard { device.statuses.send(device.status(status)) }
      case .message(let reason, _):
        messages.send(Message(reason))
      default: break
      }
    }
  }

  /// What the customer does in the sheets the app opens, as the test chose.
  package struct CustomerChoices: Sendable {
    /// The offer code the customer types in the redemption sheet (`nil`: closes it).
    package var offerCode: String?
    /// The reason the customer picks in the refund sheet (`nil`: cancels it).
    package var refundReason: RefundSheetReason? = .other
    /// Who accepts the purchaser's invitations in the multiseat invitation sheet (none:
    /// dismisses it).
    package var multiSeatInvitees: [String] = []
  }

  /// What the customer does in the sheets the app opens.
  package var choices: CustomerChoices {
    get { lock.withLock { customerChoices } }
    set { lock.withLock { customerChoices = newValue } }
  }

  var offerCodeToRedeem: String? { choices.offerCode }

  // MARK: - The clock

  /// How the clock moves now.
  package var clock: Clock {
    get {
      if let primary { return primary.clock }
      return lock.withLock { offset == nil ? .manual : .running }
    }
    set {
      if let primary { return primary.clock = newValue }
      lock.withLock {
        switch newValue {
        case .manual:
          catchUp()
          offset = nil
        case .running:
          guard offset == nil else { return }
          offset = wall().milliseconds - host.session.now.milliseconds
        }
      }
      if newValue == .running { startTicking() }
    }
  }

  /// The simulated present.
  package var now: Instant { read { $0.now } }

  /// Moves a running clock to the wall clock's time (journaled only when something happened).
  /// Called under the lock.
  private func catchUp() {
    if let primary { return primary.catchUp() }
    guard let offset else { return }
    let target = Instant(milliseconds: wall().milliseconds - offset)
    guard target > host.session.now else { return }
    _ = apply(.advance(.to(target)), from: .clock)
  }

  /// Moves the clock (manual or not): by a duration, to the next event, to an instant. A
  /// running clock keeps running from where it lands.
  @discardableResult
  package func advance(_ target: Advance) -> CommandOutcome {
    if let primary { return primary.advance(target) }
    return lock.withLock {
      catchUp()
      let outcome = apply(.advance(target), from: .person).outcome
      if offset != nil { offset = wall().milliseconds - host.session.now.milliseconds }
      return outcome
    }
  }

  /// While the clock runs, a task moves it when an event falls due (at most 100 ms late), so
  /// that renewals reach `Transaction.updates` while a test waits.
  private func startTicking() {
    guard ticker == nil || ticker?.isCancelled == true else { return }
    ticker = Task.detached { [weak self] in
      while !Task.isCancelled {
        guard let self, let wait = self.tick() else { return }
        try? await Task.sleep(for: .milliseconds(wait))
      }
    }
  }

  /// One tick: the clock caught up; how long to wait for the next (`nil`: the clock stopped).
  private func tick() -> Int64? {
    lock.withLock {
      guard let offset else {
        ticker = nil
        return nil
      }
      catchUp()
      let due = host.session.nextScheduledEvent.map {
        $0.milliseconds + offset - wall().milliseconds
      }
      return min(100, max(5, due ?? 100))
    }
  }

  // MARK: - Finding the store

  /// The store StoreKit's static API reaches in this task (``bind(_:)``).
  @TaskLocal package static var bound: Store?

  /// The store of the current test: the one bound to this task, else the running test's
  /// (``StoreRegistry``).
  package static var current: Store { bound ?? StoreRegistry.shared.current() }

  /// Sets how the running test's scopes are named (StorekeeperKitTest's swift-testing hook).
  package static func useTestScopes(_ scopes: @escaping @Sendable () -> [String]) {
    StoreRegistry.shared.useScopes(scopes)
  }
}

extension Instant {
  /// The wall clock in whole milliseconds (the adapters' only reading of it).
  package static var wallClock: Instant {
    Instant(milliseconds: Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)))
  }
}
