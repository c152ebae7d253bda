/// The order id the App Store gives a purchase: ten capital letters and digits, as on the
/// customer's receipt email (for example `MK5TTTVWJH`), which a backend passes to "Look Up Order
/// ID".
///
/// Each charged transaction (a purchase or a renewal) is one order. The id is a bijection of the
/// transaction id, mixed so that neighbouring transactions look unrelated; reading it back needs
/// no table.
public enum OrderID {
  private static let alphabet = Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ".utf8)
  /// Ids live in 50 bits (36¹⁰ > 2⁵⁰), far past any session.
  private static let bits: UInt64 = 50
  private static let mask: UInt64 = (1 << bits) - 1
  /// Odd, so multiplying by it modulo 2⁵⁰ can be undone.
  private static let multiplier: UInt64 = 0x2_9A3B_7C1D_5E6F & mask | 1
  private static let inverse: UInt64 = {
    // Newton's iteration for the inverse of an odd number modulo 2⁶⁴ (then masked).
    var x = multiplier
    for _ in 0..<6 { x = x &* (2 &- multiplier &* x) }
    return x & mask
  }()
  private static let salt: UInt64 = 0x1_5F3A_C2E9_0B47 & mask

  /// The order id of transaction `id`.
  public static func make(_ id: UInt64) -> String {
    var value = id & mask
    value = (value ^ salt) &* multiplier & mask
    value ^= value >> 25
    var text = [UInt8](repeating: alphabet[0], count: 10)
    for index in stride(from: 9, through: 0, by: -1) {
      text[index] = alphabet[Int(value % 36)]
      value /= 36
    }
    return String(decoding: text, as: UTF8.self)
  }

  /// The transaction id an order id names, or `nil` when it is not one this scheme makes.
  public static func transactionID(_ orderID: String) -> UInt64? {
    let bytes = Array(orderID.utf8)
    guard bytes.count == 10 else { return nil }
    var value: UInt64 = 0
    for byte in bytes {
      guard let digit = alphabet.firstIndex(of: byte) else { return nil }
      value = value * 36 + UInt64(digit)
    }
    guard value <= mask else { return nil }
    value ^= value >> 25
    value = (value &* inverse & mask) ^ salt
    guard make(value) == orderID else { return nil }
    return value
  }
}

extension Transaction {
  /// The order a charged transaction belongs to (see ``OrderID``); `nil` for one not paid
  /// (pending, failed).
  public var orderID: String? {
    state == .purchased || state == .restored || revocationDate != nil ? OrderID.make(id) : nil
  }
}
