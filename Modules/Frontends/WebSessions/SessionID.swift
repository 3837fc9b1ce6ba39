/// The unguessable name of a session: 128 bits from `SystemRandomNumberGenerator`, written as
/// 32 lowercase hexadecimal digits.
///
/// Whoever knows the id can drive the session, so it is the visitor's only credential: it travels
/// only in the session cookie and is never logged (logs name sessions by a serial number).
public struct SessionID: Hashable, Sendable, CustomStringConvertible {
  /// The 32 hexadecimal digits.
  public let rawValue: String

  /// A new random id.
  public init() {
    var generator = SystemRandomNumberGenerator()
    let words = (generator.next() as UInt64, generator.next() as UInt64)
    self.rawValue = Self.hex(words.0) + Self.hex(words.1)
  }

  /// Parses an id; `nil` unless `text` is exactly 32 lowercase hexadecimal digits.
  public init?(_ text: some StringProtocol) {
    guard text.utf8.count == 32,
      text.utf8.allSatisfy({ (48...57).contains($0) || (97...102).contains($0) })
    else { return nil }
    self.rawValue = String(text)
  }

  /// Never the id itself, so that interpolating one into a message or log cannot leak it.
  public var description: String { "SessionID(…)" }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}

/// The long-lived name of a visitor (one browser), the owner of its favorites and settings: 128
/// bits from `SystemRandomNumberGenerator`, as 32 lowercase hexadecimal digits, kept in the
/// visitor cookie. Like a session id it is a credential: never logged, never in a URL.
public struct VisitorID: Hashable, Sendable, CustomStringConvertible {
  /// The 32 hexadecimal digits.
  public let rawValue: String

  /// A new random id.
  public init() {
    rawValue = SessionID().rawValue
  }

  /// Parses an id; `nil` unless `text` is exactly 32 lowercase hexadecimal digits.
  public init?(_ text: some StringProtocol) {
    guard let parsed = SessionID(text) else { return nil }
    rawValue = parsed.rawValue
  }

  /// Never the id itself.
  public var description: String { "VisitorID(…)" }
}
