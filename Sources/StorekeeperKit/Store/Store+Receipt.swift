public import Foundation
internal import StoreCommands
internal import StoreSigning
internal import StoreSimulation

/// The app receipt of StoreKit's original API: the PKCS#7 receipt the session signs, written
/// to a file of the store's own for `Bundle.main.appStoreReceiptURL`.
extension Store {
  /// Where the receipt is: `<temporary folder>/storekeeper-<pid>/<store>/receipt`. The file is
  /// there once the customer has a transaction or the app refreshed the receipt, and holds what
  /// the session holds whenever the URL is read; before that, as on a fresh install, there is no
  /// file (an app then asks for one with `SKReceiptRefreshRequest`).
  var appStoreReceiptURL: URL {
    let root = primary ?? self
    lock.withLock {
      let hasReceipt = root.receiptRequested || root.withSession { $0.transactionCount > 0 }
      if hasReceipt && root.receiptRevision != host.revision { try? root.writeReceipt() }
    }
    return root.receiptFile
  }

  /// `SKReceiptRefreshRequest`: the session issues a receipt (`call receipt`, journaled), and
  /// the file holds it.
  ///
  /// - Throws: ``SKError`` when the session refuses the call or the file cannot be written.
  func refreshReceipt() throws {
    let root = primary ?? self
    try lock.withLock {
      let performed = perform(.refreshReceipt)
      if let error = performed.error {
        throw SKError(.unknown, userInfo: [NSLocalizedDescriptionKey: error.description])
      }
      root.receiptRequested = true
      try root.writeReceipt()
    }
  }

  /// Signs the receipt as the session holds it now and writes it (under the lock).
  private func writeReceipt() throws {
    let contents = withSession { $0.receiptContents() }
    do {
      let bytes = try signer.receipt(contents)
      try FileManager.default.createDirectory(
        at: receiptFile.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(bytes).write(to: receiptFile, options: .atomic)
      receiptRevision = host.revision
    } catch {
      throw SKError(
        .unknown,
        userInfo: [NSLocalizedDescriptionKey: "the receipt was not written: \(error)"])
    }
  }

  /// The folder of a new store's receipt.
  static func receiptFile() -> URL {
    FileManager.default.temporaryDirectory
      .appendingPathComponent("storekeeper-\(getpid())")
      .appendingPathComponent("store-\(receiptCounter.next())")
      .appendingPathComponent("receipt")
  }

  private static let receiptCounter = ProcessCounter()

  /// The DER certificate the store signs with: what a receipt or JWS verifies against
  /// (Xcode's "Save Public Certificate", `StoreKitTestCertificate.cer`).
  package var certificateData: Data { Data(base64Encoded: certificate) ?? Data() }
}

/// A count shared by the whole process (stores' receipt folders, test journals' names).
/// `@unchecked Sendable`: `value` is read and written only under `lock`.
package final class ProcessCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var value = 0

  /// A counter from 1.
  package init() {}

  /// The next number: 1, 2, 3 …
  package func next() -> Int {
    lock.withLock {
      value += 1
      return value
    }
  }
}

extension Bundle {
  /// Where the app receipt is (StoreKit's `Bundle.main.appStoreReceiptURL`): the receipt of the
  /// running test's session (see ``Store``), for the main bundle; `nil` for others. Linux's
  /// Foundation answers `nil` here; StorekeeperKit's answer is the one code that imports
  /// StorekeeperKit sees.
  public var appStoreReceiptURL: URL? {
    guard self == Bundle.main else { return nil }
    return Store.current.appStoreReceiptURL
  }
}
