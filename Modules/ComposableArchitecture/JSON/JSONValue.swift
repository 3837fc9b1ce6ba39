/// A JSON value, read strictly (RFC 8259 and nothing more) within limits, and written back in
/// the order its object members were read or made.
///
/// It is the one JSON of the project: the web API reads request bodies with it, and a session
/// record is read and written with it, line by line.
///
/// Input from anyone is never handed to a general-purpose decoder: this parser reads the bytes
/// itself, refuses what the standard does not allow (trailing commas, comments, single quotes,
/// `NaN`, leading zeros, control characters in strings, lone surrogates, a byte-order mark, bytes
/// that are not UTF-8), refuses duplicate keys and nesting deeper than a limit, and never
/// recurses deeper than that limit, so no input can exhaust the stack.
///
/// ```swift
/// let value = try JSONValue.parse(Array(#"{"type":"counter.add"}"#.utf8))
/// value["type"]?.string  // "counter.add"
/// ```
public enum JSONValue: Equatable, Sendable {
  case null
  case bool(Bool)
  /// A number, kept as its text so that no precision is lost before a field asks for a type.
  case number(String)
  case string(String)
  case array([JSONValue])
  /// An object's members in order; keys are unique (duplicates are refused while parsing).
  case object([(String, JSONValue)])

  public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.number(let a), .number(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    // Members in order: a record lists a struct's fields in declaration order.
    case (.object(let a), .object(let b)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
    default: false
    }
  }

  /// The limits a document must stay within.
  public enum Limits {
    /// The deepest nesting of arrays and objects accepted by default (the top level is depth 1):
    /// what a request body needs.
    public static let maximumDepth = 32
  }

  /// Why a document was refused; ``message`` never repeats more than a few bytes of the input.
  public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong, e.g. `a trailing comma`.
    public var reason: String
    /// The byte of the input where it was found (from 0).
    public var offset: Int
    /// What was wrong and where, e.g. `a trailing comma at byte 21`.
    public var message: String { "\(reason) at byte \(offset)" }
    public var description: String { message }

    public init(reason: String, offset: Int) {
      self.reason = reason
      self.offset = offset
    }
  }

  /// Parses a whole document: one value, optionally surrounded by whitespace, nested at most
  /// `maximumDepth` levels.
  public static func parse(
    _ bytes: some Collection<UInt8>, maximumDepth: Int = Limits.maximumDepth
  ) throws(ParseError) -> JSONValue {
    var parser = Parser(bytes: Array(bytes), maximumDepth: maximumDepth)
    return try parser.document()
  }

  /// The members, if this is an object, by key.
  public var object: [String: JSONValue]? {
    guard case .object(let members) = self else { return nil }
    return Dictionary(members, uniquingKeysWith: { first, _ in first })
  }

  /// The member `key`, if this is an object that has it.
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members.first { $0.0 == key }?.1
  }

  /// The text, if this is a string.
  public var string: String? {
    if case .string(let text) = self { return text }
    return nil
  }

  /// The value, if this is `true` or `false`.
  public var bool: Bool? {
    if case .bool(let value) = self { return value }
    return nil
  }

  /// The value, if this is a number written as an integer that fits `Int`.
  public var int: Int? {
    if case .number(let text) = self { return Int(text) }
    return nil
  }

  /// The name of the value's JSON type, for messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "a boolean"
    case .number: "a number"
    case .string: "a string"
    case .array: "an array"
    case .object: "an object"
    }
  }
}

private struct Parser {
  let bytes: [UInt8]
  let maximumDepth: Int
  var index = 0

  init(bytes: [UInt8], maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  mutating func document() throws(JSONValue.ParseError) -> JSONValue {
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
      throw failure("a byte-order mark (the input must be UTF-8 without one)")
    }
    skipWhitespace()
    let value = try value(depth: 1)
    skipWhitespace()
    guard index == bytes.count else { throw failure("unexpected data after the value") }
    return value
  }

  private mutating func value(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
    guard let byte = peek() else {
      throw failure("the end of the input where a value was expected")
    }
    switch byte {
    case UInt8(ascii: "{"):
      return try object(depth: depth)
    case UInt8(ascii: "["):
      return try array(depth: depth)
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
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      return .number(try number())
    default:
      throw failure("an unexpected character where a value was expected")
    }
  }

  private mutating func object(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
    try enter(depth)
    index += 1
    var members: [(String, JSONValue)] = []
    var keys: Set<String> = []
    skipWhitespace()
    if peek() == UInt8(ascii: "}") {
      index += 1
      return .object(members)
    }
    while true {
      skipWhitespace()
      guard peek() == UInt8(ascii: "\"") else {
        throw failure(
          peek() == nil
            ? "the end of the input inside an object"
            : peek() == UInt8(ascii: "}") ? "a trailing comma" : "a key that is not a string")
      }
      let key = try string()
      skipWhitespace()
      guard peek() == UInt8(ascii: ":") else { throw failure("a missing ':' after a key") }
      index += 1
      skipWhitespace()
      let member = try value(depth: depth + 1)
      guard keys.insert(key).inserted else { throw failure("duplicate key '\(key.prefix(64))'") }
      members.append((key, member))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "}"):
        index += 1
        return .object(members)
      case nil: throw failure("the end of the input inside an object")
      default: throw failure("a missing ',' or '}' in an object")
      }
    }
  }

  private mutating func array(depth: Int) throws(JSONValue.ParseError) -> JSONValue {
    try enter(depth)
    index += 1
    var elements: [JSONValue] = []
    skipWhitespace()
    if peek() == UInt8(ascii: "]") {
      index += 1
      return .array(elements)
    }
    while true {
      skipWhitespace()
      if peek() == UInt8(ascii: "]") { throw failure("a trailing comma") }
      elements.append(try value(depth: depth + 1))
      skipWhitespace()
      switch peek() {
      case UInt8(ascii: ","): index += 1
      case UInt8(ascii: "]"):
        index += 1
        return .array(elements)
      case nil: throw failure("the end of the input inside an array")
      default: throw failure("a missing ',' or ']' in an array")
      }
    }
  }

  private func enter(_ depth: Int) throws(JSONValue.ParseError) {
    guard depth <= maximumDepth else {
      throw failure("nested too deeply (at most \(maximumDepth) levels)")
    }
  }

  private mutating func string() throws(JSONValue.ParseError) -> String {
    index += 1  // the opening quote
    var scalars = String.UnicodeScalarView()
    while true {
      guard let byte = peek() else { throw failure("an unterminated string") }
      switch byte {
      case UInt8(ascii: "\""):
        index += 1
        return String(scalars)
      case UInt8(ascii: "\\"):
        index += 1
        scalars.append(try escape())
      case 0..<0x20:
        throw failure("a control character in a string")
      case 0..<0x80:
        scalars.append(Unicode.Scalar(byte))
        index += 1
      default:
        scalars.append(try utf8Scalar())
      }
    }
  }

  /// One escape sequence after its backslash.
  private mutating func escape() throws(JSONValue.ParseError) -> Unicode.Scalar {
    guard let byte = peek() else { throw failure("an unterminated string") }
    index += 1
    switch byte {
    case UInt8(ascii: "\""): return "\""
    case UInt8(ascii: "\\"): return "\\"
    case UInt8(ascii: "/"): return "/"
    case UInt8(ascii: "b"): return "\u{08}"
    case UInt8(ascii: "f"): return "\u{0C}"
    case UInt8(ascii: "n"): return "\n"
    case UInt8(ascii: "r"): return "\r"
    case UInt8(ascii: "t"): return "\t"
    case UInt8(ascii: "u"):
      let unit = try hex4()
      switch unit {
      case 0xD800...0xDBFF:
        guard peek() == UInt8(ascii: "\\"), peek(at: 1) == UInt8(ascii: "u") else {
          throw failure("a lone surrogate in a \\u escape")
        }
        index += 2
        let low = try hex4()
        guard (0xDC00...0xDFFF).contains(low) else {
          throw failure("a lone surrogate in a \\u escape")
        }
        let value = 0x10000 + ((UInt32(unit) - 0xD800) << 10) + (UInt32(low) - 0xDC00)
        guard let scalar = Unicode.Scalar(value) else { throw failure("an invalid \\u escape") }
        return scalar
      case 0xDC00...0xDFFF:
        throw failure("a lone surrogate in a \\u escape")
      default:
        guard let scalar = Unicode.Scalar(unit) else { throw failure("an invalid \\u escape") }
        return scalar
      }
    default:
      index -= 1
      throw failure("an invalid escape in a string")
    }
  }

  private mutating func hex4() throws(JSONValue.ParseError) -> UInt16 {
    var value: UInt16 = 0
    for _ in 0..<4 {
      guard let byte = peek() else { throw failure("an unterminated \\u escape") }
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default: throw failure("an invalid \\u escape")
      }
      value = value << 4 | UInt16(digit)
      index += 1
    }
    return value
  }

  /// One multi-byte UTF-8 sequence, validated (no overlong forms, no surrogates, ≤ U+10FFFF).
  private mutating func utf8Scalar() throws(JSONValue.ParseError) -> Unicode.Scalar {
    let lead = bytes[index]
    let (count, minimum): (Int, UInt32) =
      switch lead {
      case 0xC2...0xDF: (2, 0x80)
      case 0xE0...0xEF: (3, 0x800)
      case 0xF0...0xF4: (4, 0x10000)
      default: (0, 0)
      }
    guard count > 0, index + count <= bytes.count else { throw failure("bytes that are not UTF-8") }
    var value = UInt32(lead) & (0xFF >> (count + 1))
    for offset in 1..<count {
      let next = bytes[index + offset]
      guard next & 0xC0 == 0x80 else { throw failure("bytes that are not UTF-8") }
      value = value << 6 | UInt32(next & 0x3F)
    }
    guard value >= minimum, let scalar = Unicode.Scalar(value) else {
      throw failure("bytes that are not UTF-8")
    }
    index += count
    return scalar
  }

  private mutating func number() throws(JSONValue.ParseError) -> String {
    let start = index
    if peek() == UInt8(ascii: "-") { index += 1 }
    switch peek() {
    case UInt8(ascii: "0"):
      index += 1
      if let next = peek(), isDigit(next) { throw failure("a number with a leading zero") }
    case let byte? where isDigit(byte):
      skipDigits()
    default:
      throw failure("a malformed number")
    }
    if peek() == UInt8(ascii: ".") {
      index += 1
      guard let byte = peek(), isDigit(byte) else { throw failure("a malformed number") }
      skipDigits()
    }
    if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
      index += 1
      if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
      guard let byte = peek(), isDigit(byte) else { throw failure("a malformed number") }
      skipDigits()
    }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  private mutating func literal(_ word: String) throws(JSONValue.ParseError) {
    let expected = Array(word.utf8)
    guard bytes.count - index >= expected.count,
      bytes[index..<index + expected.count].elementsEqual(expected)
    else { throw failure("an unexpected character where a value was expected") }
    index += expected.count
  }

  private mutating func skipDigits() {
    while let byte = peek(), isDigit(byte) { index += 1 }
  }

  private func isDigit(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
  }

  private mutating func skipWhitespace() {
    while let byte = peek(),
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
        || byte == UInt8(ascii: "\t")
    {
      index += 1
    }
  }

  private func peek(at offset: Int = 0) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  private func failure(_ what: String) -> JSONValue.ParseError {
    JSONValue.ParseError(reason: what, offset: index)
  }
}
