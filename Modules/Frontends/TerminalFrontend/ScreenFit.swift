/// Fits a rendered screen into the terminal's window, so that a small window or a long line never
/// wraps and never scrolls the header away: every line is cut at the window's width (escape codes
/// take no room; a cut line ends in "…"), the header (greeting, tab bar, rule) and the help line
/// always show — the help wrapped between its keys when it is wider than the window — and the
/// content between them is cut to the rows left, its last row saying how many lines did not fit;
/// the rows kept are the first ones, or, when the selected row (or a confirmation's box) would be
/// cut, the ones that end with it.
/// A window smaller than ``minimumColumns`` × ``minimumRows`` shows only a line that says so.
public enum ScreenFit {
  public static let minimumColumns = 20
  public static let minimumRows = 6
  /// The greeting, the tab bar and the rule under it.
  static let headerLines = 3

  public static func fit(_ screen: String, columns: Int, rows: Int) -> [String] {
    guard columns >= minimumColumns, rows >= minimumRows else {
      // The longest of these that fits: what the window needs is never what is cut.
      let needs = "\(minimumColumns)×\(minimumRows)"
      let messages = [
        "Too small (\(columns)×\(rows)): needs \(needs)", "Too small: needs \(needs)",
        "Needs \(needs)", needs,
      ]
      let message = messages.first { width(of: $0) <= columns } ?? needs
      return [cut(message, to: max(columns, 1))]
    }
    var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    // The help line wraps between its keys rather than lose its end ("q quit"), as long as the
    // header, the wrapped help and one content row fit.
    let help = lines.removeLast()
    var footer = wrap(help, to: columns)
    if footer.count > 1, headerLines + footer.count + 1 > rows { footer = [help] }
    if lines.count + footer.count > rows {
      let header = Array(lines.prefix(headerLines))
      let content = Array(lines.dropFirst(headerLines))
      let room = rows - header.count - footer.count
      let shown = room - 1
      let hidden = content.count - shown
      // What the keys act on stays on screen: a confirmation's box, else the selected row (the
      // one with the selection marker), with the rows before it scrolled away.
      let focus =
        content.lastIndex { plain($0).hasPrefix("└") }
        ?? content.firstIndex { plain($0).hasPrefix("›") } ?? 0
      let start = max(0, min(focus - shown + 1, content.count - shown))
      lines =
        header + content[start..<(start + shown)]
        + ["… \(hidden) more line\(hidden == 1 ? "" : "s") (a taller window shows them)"]
    }
    return (lines + footer).map { cut($0, to: columns) }
  }

  /// The help line's keys (separated by " · ") packed into lines of at most `columns` cells; a
  /// styled line is styled again on each of its lines.
  static func wrap(_ help: String, to columns: Int) -> [String] {
    guard width(of: help) > columns else { return [help] }
    var style = ""
    var text = Substring(help)
    if text.hasPrefix("\u{1B}["), let end = text.firstIndex(of: "m") {
      style = String(text[...end])
      text = text[text.index(after: end)...]
    }
    let reset = "\u{1B}[0m"
    if !style.isEmpty, text.hasSuffix(reset) { text = text.dropLast(reset.count) }
    var lines: [String] = []
    var current = ""
    for key in text.components(separatedBy: " · ") {
      let joined = current.isEmpty ? key : current + " · " + key
      if current.isEmpty || width(of: joined) <= columns {
        current = joined
      } else {
        lines.append(current)
        current = key
      }
    }
    lines.append(current)
    return style.isEmpty ? lines : lines.map { style + $0 + reset }
  }

  /// `line` cut to `columns` cells of the terminal, escape codes kept (and closed when cut).
  static func cut(_ line: String, to columns: Int) -> String {
    guard width(of: line) > columns else { return line }
    var result = ""
    var used = 0
    var sawEscape = false
    var scalars = line.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      if scalar == "\u{1B}" {
        // A CSI sequence: ESC [ parameters final-byte; copied whole, it takes no room.
        sawEscape = true
        result.unicodeScalars.append(scalar)
        while let next = scalars.next() {
          result.unicodeScalars.append(next)
          if next != "[", (0x40...0x7E).contains(next.value) { break }
        }
        continue
      }
      let cells = cellWidth(scalar)
      if used + cells > columns - 1 { break }
      result.unicodeScalars.append(scalar)
      used += cells
    }
    return result + "…" + (sawEscape ? "\u{1B}[0m" : "")
  }

  /// `line` without its escape codes.
  static func plain(_ line: String) -> String {
    var result = ""
    var inEscape = false
    for scalar in line.unicodeScalars {
      if inEscape {
        if scalar != "[", (0x40...0x7E).contains(scalar.value) { inEscape = false }
      } else if scalar == "\u{1B}" {
        inEscape = true
      } else {
        result.unicodeScalars.append(scalar)
      }
    }
    return result
  }

  /// How many cells `line` takes in a terminal.
  static func width(of line: String) -> Int {
    plain(line).unicodeScalars.reduce(0) { $0 + cellWidth($1) }
  }

  /// Two cells for East Asian wide and full-width characters and for emoji, none for combining
  /// marks, one for the rest.
  static func cellWidth(_ scalar: Unicode.Scalar) -> Int {
    switch scalar.value {
    case 0x0300...0x036F, 0x200B...0x200F, 0xFE00...0xFE0F: 0
    case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
      0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
      0xFFE0...0xFFE6, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x3FFFD:
      2
    default: 1
    }
  }
}
