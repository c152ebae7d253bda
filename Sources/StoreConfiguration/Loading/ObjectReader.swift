import StoreJSON

/// How a reader treats a key that is missing.
enum Presence {
  /// Missing is an error: nothing can be simulated without it.
  case required
  /// Xcode always writes it; missing is a warning and a default is used.
  case expected
  /// Xcode writes it only sometimes.
  case optional
}

/// Reads the members of one JSON object into typed values, reporting wrong types and missing
/// keys with their paths. What is not read stays behind as ``leftovers`` so that it can be
/// written back unchanged.
struct ObjectReader {
  let path: JSONPath
  private var members: [JSONMember]

  /// A reader over `value`, or `nil` (with an error logged) when it is not an object.
  init?(_ value: JSONValue, at path: JSONPath, log: inout DiagnosticLog) {
    guard case .object(let object) = value else {
      log.error(path, "expected an object, found \(value.kindDescription)")
      return nil
    }
    self.path = path
    self.members = object.members
    var seen = Set<String>()
    for member in members where !seen.insert(member.key).inserted {
      log.error(path.appending(member.key), "the key \"\(member.key)\" appears twice")
    }
  }

  /// The members nobody read, in their original order.
  var leftovers: JSONObject { JSONObject(members) }

  /// Whether the object has a member named `key`.
  func contains(_ key: String) -> Bool { members.contains { $0.key == key } }

  /// The value of the member named `key`, left in place.
  func peek(_ key: String) -> JSONValue? { members.first { $0.key == key }?.value }

  /// Reads a string that may also be `null` or absent.
  mutating func nullableString(_ key: String, log: inout DiagnosticLog) -> Nullable<String> {
    nullable(key) { $0.string(key, .expected, log: &log) }
  }

  /// Reads an object that may also be `null` or absent.
  mutating func nullableObject<T>(
    _ key: String, log: inout DiagnosticLog,
    _ decode: (inout ObjectReader, inout DiagnosticLog) -> T?
  ) -> Nullable<T> {
    nullable(key) { $0.object(key, .optional, log: &log, decode) }
  }

  private mutating func nullable<T>(
    _ key: String, _ read: (inout ObjectReader) -> T?
  )
    -> Nullable<T>
  {
    if case .null? = peek(key) {
      _ = take(key)
      return .null
    }
    return read(&self).map { .value($0) } ?? .absent
  }

  /// Removes and returns the member named `key`.
  mutating func take(_ key: String) -> JSONValue? {
    guard let index = members.firstIndex(where: { $0.key == key }) else { return nil }
    return members.remove(at: index).value
  }

  /// Reads `key` with `transform`; a value `transform` rejects is an error and stays behind.
  mutating func read<T>(
    _ key: String, _ presence: Presence, expecting expected: String, log: inout DiagnosticLog,
    _ transform: (JSONValue) -> T?
  ) -> T? {
    guard let index = members.firstIndex(where: { $0.key == key }) else {
      switch presence {
      case .required: log.error(path, "missing \"\(key)\" (\(expected))")
      case .expected: log.warning(path, "missing \"\(key)\"; Xcode always writes it")
      case .optional: break
      }
      return nil
    }
    let value = members[index].value
    guard let result = transform(value) else {
      log.error(path.appending(key), "expected \(expected), found \(describe(value))")
      return nil
    }
    members.remove(at: index)
    return result
  }

  mutating func string(_ key: String, _ presence: Presence, log: inout DiagnosticLog) -> String? {
    read(key, presence, expecting: "a string", log: &log) {
      if case .string(let text) = $0 { text } else { nil }
    }
  }

  mutating func bool(_ key: String, _ presence: Presence, log: inout DiagnosticLog) -> Bool? {
    read(key, presence, expecting: "true or false", log: &log) {
      if case .bool(let flag) = $0 { flag } else { nil }
    }
  }

  mutating func int(_ key: String, _ presence: Presence, log: inout DiagnosticLog) -> Int? {
    read(key, presence, expecting: "an integer", log: &log) {
      if case .number(let number) = $0 { number.intValue } else { nil }
    }
  }

  /// Reads a string that must be one of an enumeration's raw values.
  mutating func enumeration<T: RawRepresentable & CaseIterable>(
    _ key: String, _ presence: Presence, log: inout DiagnosticLog
  ) -> T? where T.RawValue == String {
    let choices = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
    return read(key, presence, expecting: "one of \(choices)", log: &log) {
      if case .string(let text) = $0 { T(rawValue: text) } else { nil }
    }
  }

  /// Reads an array whose elements are objects, each decoded by `element`.
  mutating func objects<T>(
    _ key: String, _ presence: Presence, log: inout DiagnosticLog,
    _ element: (inout ObjectReader, inout DiagnosticLog) -> T?
  ) -> [T]? {
    guard let value = take(key) else {
      _ = read(key, presence, expecting: "an array", log: &log) { _ in () }
      return nil
    }
    guard case .array(let elements) = value else {
      log.error(path.appending(key), "expected an array, found \(describe(value))")
      members.append(JSONMember(key, value))
      return nil
    }
    let arrayPath = path.appending(key)
    var result: [T] = []
    result.reserveCapacity(elements.count)
    for (index, item) in elements.enumerated() {
      guard var reader = ObjectReader(item, at: arrayPath.appending(index: index), log: &log)
      else { continue }
      if let decoded = element(&reader, &log) { result.append(decoded) }
    }
    return result
  }

  /// Reads an object member with `decode`, or nothing when it is absent.
  mutating func object<T>(
    _ key: String, _ presence: Presence, log: inout DiagnosticLog,
    _ decode: (inout ObjectReader, inout DiagnosticLog) -> T?
  ) -> T? {
    guard let value = take(key) else {
      _ = read(key, presence, expecting: "an object", log: &log) { _ in () }
      return nil
    }
    guard var reader = ObjectReader(value, at: path.appending(key), log: &log) else {
      members.append(JSONMember(key, value))
      return nil
    }
    return decode(&reader, &log)
  }
}

private func describe(_ value: JSONValue) -> String {
  switch value {
  case .string(let text): "the string \"\(text.count > 40 ? String(text.prefix(40)) + "…" : text)\""
  case .number(let number): "the number \(number.text)"
  case .bool(let flag): "\(flag)"
  default: value.kindDescription
  }
}
