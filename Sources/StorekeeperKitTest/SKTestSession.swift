public import Foundation
internal import StoreCommands
internal import StoreConfiguration
internal import StoreSimulation
public import StorekeeperKit

/// A StoreKit test session over a `.storekit` file (StoreKitTest's `SKTestSession`): the
/// Transaction Manager's switches and actions for a test. Unlike Xcode's, each session is its
/// own store: tests running in parallel with their own sessions never see each other's
/// transactions (StoreKit's static API reaches the session bound to the task with ``bind(_:)``,
/// else the one made last). `@unchecked Sendable` (an `NSObject` subclass cannot be checked):
/// its one stored property is a `let` store, which is safe from any thread.
public final class SKTestSession: NSObject, @unchecked Sendable {
  /// The session's store.
  package let store: Store

  /// A session over the `.storekit` file named `filename` (with or without its extension),
  /// found among the calling test target's resources first (two targets may each have a
  /// `Products.storekit`), then the other test bundles', then in the working directory's tree.
  ///
  /// - Parameter fileID: where the call is (`#fileID`, left to its default): its module is
  ///   the test target whose resources come first.
  /// - Throws: ``SKTestError`` `fileNotFound` naming where it looked, or the file's errors.
  public convenience init(
    configurationFileNamed filename: String, fileID: String = #fileID
  )
    throws
  {
    let target = fileID.split(separator: "/").first.map(String.init)
    try self.init(contentsOf: try ConfigurationSearch.find(filename, target: target))
  }

  /// A session over the `.storekit` file at `fileURL`.
  ///
  /// - Throws: ``SKTestError`` `fileNotFound` when there is no such file, `invalidURL` with
  ///   the file's errors (its JSON paths) when it cannot be simulated.
  public convenience init(contentsOf fileURL: URL) throws {
    try self.init(contentsOf: fileURL, journal: ConfigurationSearch.journal(for: fileURL))
  }

  /// A session over the `.storekit` file at `fileURL` that journals its history to `journal`
  /// (open it with `storekeeper CONFIG --journal FILE` to see what a failing test did);
  /// `STOREKEEPER_TEST_JOURNALS=<folder>` journals every session without this initializer.
  ///
  /// - Throws: ``SKTestError`` as ``init(contentsOf:)`` does, or when the journal cannot be
  ///   written.
  public init(contentsOf fileURL: URL, journal: URL?) throws {
    let path = fileURL.path
    guard FileManager.default.fileExists(atPath: path) else {
      throw SKTestError(.fileNotFound, "there is no configuration file at \(path)")
    }
    let loaded: (StoreKitConfiguration, [UInt8])
    do throws(ConfigurationRefusal) {
      loaded = try SessionOpening.loadConfiguration(path)
    } catch {
      throw SKTestError(
        .invalidURL,
        "\(error.summary)\n" + error.diagnostics.joined(separator: "\n"))
    }
    TestScopes.installed
    do throws(CommandError) {
      store = try Store(
        configuration: loaded.0, bytes: loaded.1, configurationPath: path,
        journalPath: journal?.path, wall: { Instant.wallClock })
    } catch {
      throw SKTestError(.serviceUnavailable, "cannot open the session's journal: \(error)")
    }
    super.init()
  }

  /// A session over a store: a family member's device (``familyMemberSession(_:)``).
  package init(store: Store) {
    self.store = store
    super.init()
  }

  // MARK: - The Transaction Manager's switches

  /// Whether purchases skip their dialogs.
  public var disableDialogs: Bool {
    get { setting(\.disableDialogs) }
    set { set(.flag(.dialogs, !newValue)) }
  }

  /// Whether purchases wait for a parent's approval.
  public var askToBuyEnabled: Bool {
    get { setting(\.askToBuyEnabled) }
    set { set(.flag(.askToBuy, newValue)) }
  }

  /// Whether purchases are interrupted (to be resolved).
  public var interruptedPurchasesEnabled: Bool {
    get { setting(\.interruptedPurchasesEnabled) }
    set { set(.flag(.interruptedPurchases, newValue)) }
  }

  /// Whether renewals fail and enter billing retry.
  public var shouldEnterBillingRetryOnRenewal: Bool {
    get { setting(\.shouldEnterBillingRetryOnRenewal) }
    set { set(.flag(.billingRetry, newValue)) }
  }

  /// Whether a failed renewal gets a grace period first (with billing retry on).
  public var billingGracePeriodIsEnabled: Bool {
    get { setting(\.billingGracePeriodIsEnabled) }
    set { set(.flag(.gracePeriod, newValue)) }
  }

  /// The storefront, ISO 3166-1 alpha-3 (`USA`).
  public var storefront: String {
    get { setting(\.storefront.countryCode) }
    set {
      if let known = StoreConfiguration.Storefront(countryCode: newValue) {
        set(.storefront(known))
      }
    }
  }

  /// The locale products are described in.
  public var locale: Locale {
    get { Locale(identifier: setting(\.locale)) }
    set { set(.locale(newValue.identifier)) }
  }

  /// How fast subscriptions renew.
  public var timeRate: TimeRate {
    get { TimeRate(rawValue: setting(\.timeRate.rawValue)) ?? .realTime }
    set {
      if let rate = StoreSimulation.TimeRate(rawValue: newValue.rawValue) {
        set(.timeRate(rate))
      }
    }
  }

  /// Whether purchases fail with ``failureError``.
  @available(*, deprecated, message: "No longer supported. Use simulatedError(forAPI:).")
  public var failTransactionsEnabled: Bool {
    get { setting(\.failTransactionsEnabled) }
    set {
      let error = setting(\.failureError)
      set(.failTransactions(newValue ? error : nil))
    }
  }

  /// The error failing purchases fail with.
  @available(*, deprecated, message: "No longer supported. Use simulatedError(forAPI:).")
  public var failureError: SKError.Code {
    get { SKError.Code(rawValue: setting(\.failureError.rawValue)) ?? .unknown }
    set {
      let code = SKErrorCode(rawValue: newValue.rawValue) ?? .unknown
      let failing = setting(\.failTransactionsEnabled)
      set(.failTransactions(code))
      if !failing { set(.failTransactions(nil)) }
    }
  }

  func setting<T>(_ path: KeyPath<SessionSettings, T>) -> T {
    store.read { $0.settings[keyPath: path] }
  }

  func set(_ change: SettingChange) {
    store.perform(.set(change))
  }
}
