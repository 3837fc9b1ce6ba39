/// Text that lives in state: an alert's title and message, a button's label.
///
/// Equality compares the text, so tests can assert alerts.
public struct TextState: Equatable, Hashable, Sendable, Codable {
  /// The text.
  public var string: String

  /// Creates text that is shown verbatim.
  public init(_ content: some StringProtocol) {
    self.string = String(content)
  }

  public init(from decoder: any Decoder) throws {
    self.string = try decoder.singleValueContainer().decode(String.self)
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(string)
  }
}

extension TextState: ExpressibleByStringLiteral {
  public init(stringLiteral value: String) {
    self.init(value)
  }
}

extension TextState: CustomStringConvertible, CustomDumpStringConvertible {
  public var description: String { string }
  public var customDumpDescription: String { "TextState(\(String(customDumping: string)))" }
}
