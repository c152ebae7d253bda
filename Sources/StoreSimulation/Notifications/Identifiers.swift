import Crypto
import Foundation

/// A deterministic, UUID-shaped (version 4 layout) identifier derived from a seed: the stand-in
/// for the nonces StoreKit makes at random.
public func stableUUID(_ seed: String) -> String {
  var bytes = Array(SHA256.hash(data: Data(seed.utf8)).prefix(16))
  bytes[6] = (bytes[6] & 0x0F) | 0x40
  bytes[8] = (bytes[8] & 0x3F) | 0x80
  return uuidText(bytes)
}

/// An RFC 4122 name-based UUID (version 5: SHA-1 of a namespace UUID and the name), lowercase.
public func nameBasedUUID(_ name: String) -> String {
  // Storekeeper's namespace, a fixed random UUID: 5f1d8b0e-7c2a-4e59-9b6d-3a0c4e2f8d17.
  let namespace: [UInt8] = [
    0x5F, 0x1D, 0x8B, 0x0E, 0x7C, 0x2A, 0x4E, 0x59, 0x9B, 0x6D, 0x3A, 0x0C, 0x4E, 0x2F, 0x8D, 0x17,
  ]
  var bytes = Array(Insecure.SHA1.hash(data: Data(namespace + Array(name.utf8))).prefix(16))
  bytes[6] = (bytes[6] & 0x0F) | 0x50
  bytes[8] = (bytes[8] & 0x3F) | 0x80
  return uuidText(bytes)
}

/// Sixteen bytes in the 8-4-4-4-12 form.
func uuidText(_ bytes: [UInt8]) -> String {
  let hex = bytes.map { byte in
    let text = String(byte, radix: 16)
    return text.count == 1 ? "0" + text : text
  }.joined()
  let parts = [
    hex.prefix(8), hex.dropFirst(8).prefix(4), hex.dropFirst(12).prefix(4),
    hex.dropFirst(16).prefix(4), hex.dropFirst(20),
  ]
  return parts.joined(separator: "-")
}
