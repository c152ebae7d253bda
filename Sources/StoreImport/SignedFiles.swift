import Foundation
import StoreJSON
import StoreSigning

/// What a backend kept of a customer, read back: a file or a folder (its files in name order,
/// subfolders too) of signed data as Apple sent it. A file may hold one compact JWS, JWS one per
/// line, a notification body (`{"signedPayload": …}`), an API answer holding
/// `signedTransactions`, `signedTransactionInfo` or `signedRenewalInfo`, or a JSON array of any
/// of these. Every JWS is verified (or, without a verifier, decoded) and sorted by what it
/// decodes to; a notification's own signed transaction and renewal info are read too.
public enum SignedFiles {
  /// The history the files hold: transactions (the latest signed copy of each id, oldest purchase
  /// first), renewal infos (the latest of each original transaction) and notifications.
  ///
  /// - Throws: ``ImportError`` naming the file (and the item in it) that cannot be read or does
  ///   not verify.
  public static func read(
    _ path: String, verifier: SignedDataVerifier?, source: SourceCheck = SourceCheck()
  ) throws(ImportError)
    -> FetchedHistory
  {
    var reader = Reader(verifier: verifier, source: source)
    for file in try files(at: path) {
      guard let data = FileManager.default.contents(atPath: file) else {
        throw ImportError("\(file): cannot be read")
      }
      try reader.take(Array(data), file: file)
    }
    guard reader.seen > 0 else {
      throw ImportError("\(path): holds no signed transaction, renewal info or notification")
    }
    return reader.history()
  }

  private static func files(at path: String) throws(ImportError) -> [String] {
    var isFolder: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
      throw ImportError("\(path): no such file or folder")
    }
    guard isFolder.boolValue else { return [path] }
    let found = FileManager.default.enumerator(atPath: path)?.compactMap { $0 as? String } ?? []
    return found.sorted().map { path + "/" + $0 }.filter { file in
      var folder: ObjCBool = false
      return FileManager.default.fileExists(atPath: file, isDirectory: &folder) && !folder.boolValue
        && !URL(fileURLWithPath: file).lastPathComponent.hasPrefix(".")
    }
  }

  /// Sorts what it verifies by kind.
  struct Reader {
    let verifier: SignedDataVerifier?
    /// What every value must say of where it came from (one app, one environment).
    var source: SourceCheck
    var transactions: [String: JSONObject] = [:]
    var renewals: [String: JSONObject] = [:]
    var notifications: [JSONObject] = []
    var latest: Int64 = 0
    var seen = 0

    mutating func take(_ bytes: [UInt8], file: String) throws(ImportError) {
      if let root = try? JSONParser.parse(bytes).root {
        try take(root, place: file)
        return
      }
      let text = String(decoding: bytes, as: UTF8.self)
      for (number, line) in text.split(whereSeparator: \.isNewline).enumerated()
      where !line.trimmingCharacters(in: .whitespaces).isEmpty {
        try take(.string(String(line)), place: "\(file):\(number + 1)")
      }
    }

    private mutating func take(_ value: JSONValue, place: String) throws(ImportError) {
      switch value {
      case .array(let items):
        for (index, item) in items.enumerated() { try take(item, place: "\(place)[\(index)]") }
      case .object(let object):
        for key in ["signedPayload", "signedTransactionInfo"] {
          if let inner = object[key] { try take(inner, place: "\(place) \(key)") }
        }
        if case .string(let jws)? = object["signedRenewalInfo"] {
          try renewal(jws, status: object["status"], place: "\(place) signedRenewalInfo")
        }
        for key in ["signedTransactions", "data", "lastTransactions", "notificationHistory"] {
          if let inner = object[key] { try take(inner, place: "\(place) \(key)") }
        }
      case .string(let jws) where jws.split(separator: ".").count == 3:
        try file(try payload(jws, place: place), place: place)
      default: return
      }
    }

    /// A renewal info with Apple's `status` beside it (a status answer's item, a notification's
    /// data), which it keeps: a status said is better than one inferred.
    private mutating func renewal(
      _ jws: String, status: JSONValue?, place: String
    ) throws(ImportError) {
      guard jws.split(separator: ".").count == 3 else { return }
      var info = try payload(jws, place: place)
      if case .number(let number)? = status, info["status"] == nil {
        info.members.append(JSONMember("status", .number(number)))
      }
      try file(info, place: place)
    }

    private func payload(_ jws: String, place: String) throws(ImportError) -> JSONObject {
      do {
        if let verifier { return try verifier.verify(jws) }
        guard case .object(let object) = try JWS.decode(jws).payload else {
          throw SigningError("the payload is not a JSON object")
        }
        return object
      } catch {
        throw ImportError("\(place) does not verify: \(error)")
      }
    }

    private mutating func file(_ payload: JSONObject, place: String) throws(ImportError) {
      try source.check(payload, place: place)
      seen += 1
      let signed = HistoryFetcher.milliseconds(payload["signedDate"]) ?? 0
      latest = max(latest, signed)
      if payload["notificationType"] != nil {
        notifications.append(payload)
        if case .object(let data)? = payload["data"] {
          try take(.object(data), place: place + " data")
        }
      } else if case .string(let id)? = payload["transactionId"] {
        keep(payload, in: &transactions, key: id, signed: signed)
      } else if case .string(let original)? = payload["originalTransactionId"],
        payload["autoRenewStatus"] != nil
      {
        keep(payload, in: &renewals, key: original, signed: signed)
      }
    }

    private func keep(
      _ payload: JSONObject, in table: inout [String: JSONObject], key: String, signed: Int64
    ) {
      let kept = table[key].flatMap { HistoryFetcher.milliseconds($0["signedDate"]) } ?? .min
      if signed >= kept { table[key] = payload }
    }

    func history() -> FetchedHistory {
      var history = FetchedHistory()
      history.transactions = transactions.values.sorted {
        (HistoryFetcher.milliseconds($0["purchaseDate"]) ?? 0, Self.id($0))
          < (HistoryFetcher.milliseconds($1["purchaseDate"]) ?? 0, Self.id($1))
      }
      history.renewalInfos = renewals.keys.sorted().compactMap { renewals[$0] }
      history.refunds = history.transactions.filter { $0["revocationDate"] != nil }
      history.notifications = notifications
      history.latestSignedDate = latest
      history.source = source
      return history
    }

    private static func id(_ payload: JSONObject) -> String {
      if case .string(let id)? = payload["transactionId"] { id } else { "" }
    }
  }
}
