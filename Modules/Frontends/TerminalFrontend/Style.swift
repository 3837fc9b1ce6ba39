import Foundation

/// Text decoration for the terminal; plain text when output is not a terminal.
public struct Style: Sendable {
  /// Whether escape codes are written.
  public let usesEscapeCodes: Bool

  public init(usesEscapeCodes: Bool) {
    self.usesEscapeCodes = usesEscapeCodes
  }

  public static let plain = Style(usesEscapeCodes: false)
  public static let terminal = Style(usesEscapeCodes: true)

  /// The style for a terminal: colours, unless the environment asks for none — `NO_COLOR` set to
  /// anything but the empty string (no-color.org), or `TERM=dumb`.
  public static func forTerminal(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> Style {
    let noColor = !(environment["NO_COLOR"] ?? "").isEmpty || environment["TERM"] == "dumb"
    return noColor ? .plain : .terminal
  }

  public func bold(_ text: String) -> String { wrap(text, "1") }
  public func dim(_ text: String) -> String { wrap(text, "2") }
  public func inverse(_ text: String) -> String { wrap(text, "7") }
  public func red(_ text: String) -> String { wrap(text, "31") }
  public func green(_ text: String) -> String { wrap(text, "32") }
  public func yellow(_ text: String) -> String { wrap(text, "33") }
  public func cyan(_ text: String) -> String { wrap(text, "36") }

  private func wrap(_ text: String, _ code: String) -> String {
    usesEscapeCodes ? "\u{1B}[\(code)m\(text)\u{1B}[0m" : text
  }
}

/// Escape sequences that drive the screen itself.
enum ScreenControl {
  static let enterAlternateScreen = "\u{1B}[?1049h"
  static let leaveAlternateScreen = "\u{1B}[?1049l"
  static let hideCursor = "\u{1B}[?25l"
  static let showCursor = "\u{1B}[?25h"
  static let home = "\u{1B}[H"
  static let clearToEndOfScreen = "\u{1B}[J"
  static let clearToEndOfLine = "\u{1B}[K"
}
