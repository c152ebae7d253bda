import Foundation
import StoreConfiguration

extension App {
  /// A JWS in the zoomed inspector: its header and payload decoded, one field per line, then
  /// the raw compact form wrapped to `wrapWidth`.
  func signedLines(_ title: String, _ jws: String, wrapWidth: Int) -> [InspectorLine] {
    var lines = [
      InspectorLine(label: "", text: ""),
      InspectorLine(label: "JWS", text: "\(title) jwsRepresentation, decoded and raw"),
    ]
    let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
    if parts.count == 3, case .object(var header)? = Self.decodeSegment(parts[0]),
      case .object(let payload)? = Self.decodeSegment(parts[1])
    {
      if case .array(let certificates)? = header["x5c"] {
        header["x5c"] = .string(
          "[\(certificates.count) certificate\(certificates.count == 1 ? "" : "s")]")
      }
      lines.append(InspectorLine(label: "header", text: JSONWriter.compact(.object(header))))
      var members = memberLines(payload)
      if !members.isEmpty { members[0].label = "payload" }
      lines += members
    } else {
      lines.append(InspectorLine(label: "", text: "not a compact JWS", style: CellStyle(dim: true)))
    }
    lines.append(InspectorLine(label: "raw", text: ""))
    var rest = Substring(jws)
    while !rest.isEmpty {
      lines.append(
        InspectorLine(label: "", text: String(rest.prefix(wrapWidth)), style: CellStyle(dim: true)))
      rest = rest.dropFirst(wrapWidth)
    }
    return lines
  }

  /// A base64url segment of a JWS, parsed as JSON.
  static func decodeSegment(_ segment: Substring) -> JSONValue? {
    var text = segment.replacingOccurrences(of: "-", with: "+").replacingOccurrences(
      of: "_", with: "/")
    text += String(repeating: "=", count: (4 - text.count % 4) % 4)
    guard let data = Data(base64Encoded: text) else { return nil }
    return try? JSONParser.parse([UInt8](data)).root
  }
}
