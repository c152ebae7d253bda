import StoreJSON

extension InspectorPane {
  /// A JWS in the zoomed inspector: its header and payload, one field per line, then the raw
  /// compact form wrapped to `wrapWidth`.
  func signedLines(
    _ title: String, _ form: InspectorHooks.SignedForm, wrapWidth: Int
  ) -> [InspectorLine] {
    var lines = [
      InspectorLine(label: "", text: ""),
      InspectorLine(label: "JWS", text: "\(title) jwsRepresentation, decoded and raw"),
    ]
    var header = form.header
    if case .array(let certificates)? = header["x5c"] {
      header["x5c"] = .string(
        "[\(certificates.count) certificate\(certificates.count == 1 ? "" : "s")]")
    }
    lines.append(InspectorLine(label: "header", text: JSONWriter.compact(.object(header))))
    var members = memberLines(form.payload)
    if !members.isEmpty { members[0].label = "payload" }
    lines += members
    lines.append(InspectorLine(label: "raw", text: ""))
    var rest = Substring(form.raw)
    while !rest.isEmpty {
      lines.append(
        InspectorLine(label: "", text: String(rest.prefix(wrapWidth)), style: CellStyle(dim: true)))
      rest = rest.dropFirst(wrapWidth)
    }
    return lines
  }
}
