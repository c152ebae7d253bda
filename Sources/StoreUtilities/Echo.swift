extension String {
  /// The text as an answer or an error repeats what it was given: whole up to `limit`
  /// characters, else its first `limit` and how long it was (a megabyte line or a 64 KB path
  /// is not echoed back whole).
  public func cutForEcho(to limit: Int) -> String {
    count <= limit ? self : prefix(limit) + "… (\(utf8.count) bytes)"
  }
}
