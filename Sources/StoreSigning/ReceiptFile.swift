import Foundation
import StoreSimulation
import StoreUtilities

/// A receipt file that could not be written: where, and why.
public struct ReceiptFileFailure: Error, Sendable {
  /// The file.
  public var path: String
  /// Why the file could not be read or signed, naming what failed.
  public var reason: String
}

extension Receipt {
  /// Writes an app receipt, signed by `signer` (made when first needed), as
  /// `receipt-<creation date>.der` in `folder` (the inspector's W, `call receipt`).
  ///
  /// - Returns: the file's path, or where it was not written and why.
  public static func write(
    _ contents: ReceiptContents, signer: OnDemand<Signer>, folder: String
  ) -> Result<String, ReceiptFileFailure> {
    let name =
      "receipt-" + date(contents.creationDate).replacingOccurrences(of: ":", with: "-") + ".der"
    let path = URL(fileURLWithPath: folder).appendingPathComponent(name).path
    do {
      try AtomicFile.write(try signer.value.receipt(contents), to: path)
      return .success(path)
    } catch {
      return .failure(ReceiptFileFailure(path: path, reason: "\(error)"))
    }
  }
}
