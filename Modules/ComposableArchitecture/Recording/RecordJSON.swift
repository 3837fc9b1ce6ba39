import ComposableArchitecture
import Foundation

/// A JSON value that keeps the order of an object's keys (a record lists a struct's fields in
/// declaration order), read and written without Foundation's serialization.
enum RecordJSON: Equatable {
  case null
  case bool(Bool)
  /// A number, as written.
  case number(String)
  case string(String)
  case array([RecordJSON])
  case object([(String, RecordJSON)])

  static func == (lhs: RecordJSON, rhs: RecordJSON) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    default: false
    }
  }

  subscript(key: String) -> RecordJSON? {
    guard case .object(let pairs) = self else { return nil }
    return pairs.first { $0.0 == key }?.1
  }

  // MARK: Writing

  var text: String {
    var output = ""
    write(into: &output)
    return output
  }

  func write(into output: inout String) {
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

  static func number(_ value: Double) -> RecordJSON {
    guard value.isFinite else { return .string(String(value)) }
    var text = "\(value)"
    if !text.contains(".") && !text.contains("e") { text += ".0" }
    return .number(text)
  }

  // MARK: Reading

  struct SyntaxError: Error {
    var reason: String
  }

  /// Parses one JSON value; nesting deeper than `maximumDepth` is refused.
  static func parse(_ text: String, maximumDepth: Int = 512) throws(SyntaxError) -> RecordJSON {
    var parser = Parser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
    let value = try parser.value(depth: 0)
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else {
      throw SyntaxError(reason: "unexpected text after the value at column \(parser.index + 1)")
    }
    return value
  }

  private struct Parser {
    let bytes: [UInt8]
    let maximumDepth: Int
    var index = 0

    mutating func skipWhitespace() {
      while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
    }

    func error(_ reason: String) -> SyntaxError {
      SyntaxError(reason: "\(reason) at column \(index + 1)")
    }

    mutating func value(depth: Int) throws(SyntaxError) -> RecordJSON {
      guard depth < maximumDepth else { throw error("nesting deeper than \(maximumDepth)") }
      skipWhitespace()
      guard index < bytes.count else { throw error("the line ends where a value should be") }
      switch bytes[index] {
      case UInt8(ascii: "{"):
        index += 1
        var pairs: [(String, RecordJSON)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
          index += 1
          return .object(pairs)
        }
        while true {
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
            throw error("expected a key")
          }
          let key = try string()
          skipWhitespace()
          guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
            throw error("expected ':'")
          }
          index += 1
          pairs.append((key, try value(depth: depth + 1)))
          skipWhitespace()
          guard index < bytes.count else { throw error("the line ends inside an object") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard bytes[index] == UInt8(ascii: "}") else { throw error("expected ',' or '}'") }
          index += 1
          return .object(pairs)
        }
      case UInt8(ascii: "["):
        index += 1
        var values: [RecordJSON] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
          index += 1
          return .array(values)
        }
        while true {
          values.append(try value(depth: depth + 1))
          skipWhitespace()
          guard index < bytes.count else { throw error("the line ends inside an array") }
          if bytes[index] == UInt8(ascii: ",") {
            index += 1
            continue
          }
          guard bytes[index] == UInt8(ascii: "]") else { throw error("expected ',' or ']'") }
          index += 1
          return .array(values)
        }
      case UInt8(ascii: "\""):
        return .string(try string())
      case UInt8(ascii: "t"):
        try literal("true")
        return .bool(true)
      case UInt8(ascii: "f"):
        try literal("false")
        return .bool(false)
      case UInt8(ascii: "n"):
        try literal("null")
        return .null
      default:
        return .number(try number())
      }
    }

    mutating func literal(_ word: String) throws(SyntaxError) {
      let expected = Array(word.utf8)
      guard index + expected.count <= bytes.count,
        Array(bytes[index..<index + expected.count]) == expected
      else { throw error("unexpected text") }
      index += expected.count
    }

    mutating func number() throws(SyntaxError) -> String {
      let start = index
      if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
      var digits = 0
      while index < bytes.count,
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index])
          || [
            UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"), UInt8(ascii: "+"),
            UInt8(ascii: "-"),
          ].contains(bytes[index])
      {
        index += 1
        digits += 1
      }
      guard digits > 0 else { throw error("unexpected text") }
      let text = String(decoding: bytes[start..<index], as: UTF8.self)
      guard Double(text) != nil else { throw error("'\(text)' is not a number") }
      return text
    }

    mutating func string() throws(SyntaxError) -> String {
      index += 1
      var scalars = String.UnicodeScalarView()
      var chunkStart = index
      func flush(_ bytes: ArraySlice<UInt8>) {
        scalars.append(contentsOf: String(decoding: bytes, as: UTF8.self).unicodeScalars)
      }
      while index < bytes.count {
        let byte = bytes[index]
        if byte == UInt8(ascii: "\"") {
          flush(bytes[chunkStart..<index])
          index += 1
          return String(scalars)
        }
        if byte < 0x20 { throw error("a control character inside a string") }
        if byte == UInt8(ascii: "\\") {
          flush(bytes[chunkStart..<index])
          index += 1
          guard index < bytes.count else { break }
          let escape = bytes[index]
          index += 1
          switch escape {
          case UInt8(ascii: "\""): scalars.append("\"")
          case UInt8(ascii: "\\"): scalars.append("\\")
          case UInt8(ascii: "/"): scalars.append("/")
          case UInt8(ascii: "n"): scalars.append("\n")
          case UInt8(ascii: "r"): scalars.append("\r")
          case UInt8(ascii: "t"): scalars.append("\t")
          case UInt8(ascii: "b"): scalars.append("\u{8}")
          case UInt8(ascii: "f"): scalars.append("\u{C}")
          case UInt8(ascii: "u"):
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code), index + 1 < bytes.count,
              bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            {
              index += 2
              let low = try hex4()
              code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            }
            guard let scalar = Unicode.Scalar(code) else { throw error("an invalid \\u escape") }
            scalars.append(scalar)
          default:
            throw error("an invalid escape")
          }
          chunkStart = index
          continue
        }
        index += 1
      }
      throw error("the line ends inside a string")
    }

    mutating func hex4() throws(SyntaxError) -> UInt32 {
      guard index + 4 <= bytes.count,
        let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16)
      else { throw error("an invalid \\u escape") }
      index += 4
      return code
    }
  }
}
