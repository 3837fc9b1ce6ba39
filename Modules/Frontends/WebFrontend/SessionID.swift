/// The unguessable name of a session: 128 bits from `SystemRandomNumberGenerator`, written as
/// 32 lowercase hexadecimal digits.
///
/// Whoever knows the id can drive the session, so it is the visitor's only credential; it is
/// never logged in full.
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

  public var description: String { rawValue }

  /// The first 8 digits, enough to tell sessions apart in logs without revealing the id.
  public var redacted: String { String(rawValue.prefix(8)) + "…" }

  private static func hex(_ value: UInt64) -> String {
    let digits = String(value, radix: 16)
    return String(repeating: "0", count: 16 - digits.count) + digits
  }
}
