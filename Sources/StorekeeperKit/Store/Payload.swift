import Foundation
internal import StoreJSON

/// A JWS payload's fields, read as StoreKit reads them: dates in milliseconds since 1970,
/// prices in milliunits, identifiers as strings.
struct Payload {
  let json: Data
  private let object: JSONObject

  private init(object: JSONObject) {
    self.object = object
    json = Data()
  }

  /// A nested object's fields (`commitmentInfo`), when there is one.
  func nested(_ key: String) -> Payload? {
    guard case .object(let nested)? = object[key] else { return nil }
    return Payload(object: nested)
  }

  /// The payload of a compact JWS.
  init(jws: String) {
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    json = parts.count == 3 ? Data(base64URL: String(parts[1])) ?? Data() : Data()
    if case .object(let object)? = try? JSONParser.parse(Array(json)).root {
      self.object = object
    } else {
      object = JSONObject()
    }
  }

  func string(_ key: String) -> String? {
    switch object[key] {
    case .string(let text)?: text
    case .number(let number)?: number.text
    default: nil
    }
  }

  func int(_ key: String) -> Int? { string(key).flatMap { Int($0) } }

  func id(_ key: String) -> UInt64 { string(key).flatMap { UInt64($0) } ?? 0 }

  func bool(_ key: String) -> Bool {
    switch object[key] {
    case .bool(let flag)?: flag
    case .number(let number)?: number.text == "1"
    default: false
    }
  }

  func date(_ key: String) -> Date? {
    string(key).flatMap { Double($0) }.map { Date(timeIntervalSince1970: $0 / 1000) }
  }

  /// Milliunits as a decimal amount (`990` → `0.99`).
  func price(_ key: String) -> Decimal? {
    string(key).flatMap { Decimal(string: $0) }.map { $0 / 1000 }
  }

  func uuid(_ key: String) -> UUID? { string(key).flatMap { UUID(uuidString: $0) } }

  func data(_ key: String) -> Data { string(key).flatMap { Data(base64Encoded: $0) } ?? Data() }

  /// An array of objects' fields (`priceTiers`).
  func objects(_ key: String) -> [Payload] {
    guard case .array(let items)? = object[key] else { return [] }
    return items.compactMap {
      if case .object(let item) = $0 { Payload(object: item) } else { nil }
    }
  }

  func strings(_ key: String) -> [String] {
    guard case .array(let items)? = object[key] else { return [] }
    return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
  }
}

extension UUID {
  /// All zeros: a nonce a payload lacks.
  static let zero = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
}
