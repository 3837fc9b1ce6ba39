import Foundation

extension JSONValue {
  /// The value as compact JSON text, members in their order; a string escapes what JSON needs
  /// escaped and U+2028/U+2029, so the text is one line and safe inside a script.
  public var text: String {
    var output = ""
    write(into: &output)
    return output
  }

  /// Appends ``text`` to `output`.
  public func write(into output: inout String) {
    switch self {
    case .null: output += "null"
    case .bool(let value): output += value ? "true" : "false"
    case .number(let digits): output += digits
    case .string(let string): Self.writeString(string, into: &output)
    case .array(let values):
      output += "["
      for (index, value) in values.enumerated() {
        if index > 0 { output += "," }
        value.write(into: &output)
      }
      output += "]"
    case .object(let pairs):
      output += "{"
      for (index, (key, value)) in pairs.enumerated() {
        if index > 0 { output += "," }
        Self.writeString(key, into: &output)
        output += ":"
        value.write(into: &output)
      }
      output += "}"
    }
  }

  private static func writeString(_ string: String, into output: inout String) {
    output += "\""
    for scalar in string.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\r": output += "\\r"
      case "\t": output += "\\t"
      case _ where scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029:
        output += String(format: "\\u%04x", scalar.value)
      default: output.unicodeScalars.append(scalar)
      }
    }
    output += "\""
  }

  /// A number for `value` that reads back as a `Double` (`1.0`, not `1`); a value JSON has no
  /// number for (infinity, NaN) is written as its text.
  public static func number(_ value: Double) -> JSONValue {
    guard value.isFinite else { return .string(String(value)) }
    var text = "\(value)"
    if !text.contains(".") && !text.contains("e") { text += ".0" }
    return .number(text)
  }
}
