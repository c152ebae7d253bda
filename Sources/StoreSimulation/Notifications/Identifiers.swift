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
  var hash = Insecure.SHA1()
  hash.update(data: namespace)
  var name = name
  name.withUTF8 { hash.update(bufferPointer: UnsafeRawBufferPointer($0)) }
  var bytes = Array(hash.finalize().prefix(16))
  bytes[6] = (bytes[6] & 0x0F) | 0x50
  bytes[8] = (bytes[8] & 0x3F) | 0x80
  return uuidText(bytes)
}

/// Sixteen bytes in the 8-4-4-4-12 form, lowercase.
func uuidText(_ bytes: [UInt8]) -> String {
  let digits: StaticString = "0123456789abcdef"
  return String(unsafeUninitializedCapacity: 36) { output in
    var written = 0
    for (index, byte) in bytes.prefix(16).enumerated() {
      if index == 4 || index == 6 || index == 8 || index == 10 {
        output[written] = UInt8(ascii: "-")
        written += 1
      }
      output[written] = digits.utf8Start[Int(byte >> 4)]
      output[written + 1] = digits.utf8Start[Int(byte & 0x0F)]
      written += 2
    }
    return written
  }
}
