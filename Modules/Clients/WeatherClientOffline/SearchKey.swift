import Foundation

/// The form in which names and queries are compared: case-folded, Latin, Greek and Cyrillic
/// accents removed, letters without a decomposition spelled as GeoNames' ASCII names spell them
/// (`ß` → `ss`, `ł` → `l`), hyphens read as spaces, white space collapsed, Unicode NFC, as UTF-8.
///
/// A query matches a name when the query's key is a prefix of the name's key, so `"zurich"`,
/// `"ZÜRICH"` and `"Zür"` all find Zürich, and `"서울"` finds 서울. Marks that change a word in
/// other scripts (Japanese dakuten) are kept, as Foundation's diacritic folding keeps them.
enum SearchKey {
  /// The key of `text`; empty when `text` is empty or only white space.
  static func fold(_ text: some StringProtocol) -> [UInt8] {
    fold(utf8: text.utf8)
  }

  /// The key of the UTF-8 text `bytes`; ASCII text takes a fast path that never builds a
  /// `String`.
  static func fold(utf8 bytes: some Collection<UInt8>) -> [UInt8] {
    if bytes.allSatisfy({ $0 < 0x80 }) {
      return normalizeASCII(bytes)
    }
    return foldUnicode(String(decoding: bytes, as: UTF8.self))
  }

  /// Lower-cases ASCII letters, reads `-` as a space, collapses white space and trims it.
  static func normalizeASCII(_ bytes: some Collection<UInt8>) -> [UInt8] {
    var key: [UInt8] = []
    key.reserveCapacity(bytes.count)
    var pendingSpace = false
    for byte in bytes {
      switch byte {
      case UInt8(ascii: " "), UInt8(ascii: "-"), UInt8(ascii: "\t"), UInt8(ascii: "\n"),
        UInt8(ascii: "\r"):
        pendingSpace = !key.isEmpty
      case UInt8(ascii: "`"):
        if pendingSpace { key.append(UInt8(ascii: " ")) }
        pendingSpace = false
        key.append(UInt8(ascii: "'"))
      default:
        if pendingSpace { key.append(UInt8(ascii: " ")) }
        pendingSpace = false
        key.append(byte | (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? 0x20 : 0))
      }
    }
    return key
  }

  private static func foldUnicode(_ text: String) -> [UInt8] {
    var spelled = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      if let replacement = specialLetters[scalar] {
        spelled.append(contentsOf: replacement.unicodeScalars)
      } else if scalar.properties.isWhitespace {
        spelled.append(" ")
      } else {
        spelled.append(scalar)
      }
    }
    let folded = String(spelled)
      .folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
      .precomposedStringWithCanonicalMapping
    // Folding can itself produce letters of the table (`ẞ` → `ß`), so map them once more.
    var bytes: [UInt8] = []
    bytes.reserveCapacity(folded.utf8.count)
    for scalar in folded.unicodeScalars {
      if let replacement = specialLetters[scalar] {
        bytes.append(contentsOf: replacement.utf8)
      } else {
        bytes.append(contentsOf: String(scalar).utf8)
      }
    }
    return normalizeASCII(bytes)
  }

  /// Letters that Unicode does not decompose into a base letter and an accent, and typographic
  /// variants of `'` and `-`, spelled as GeoNames' ASCII names spell them (the same table as
  /// `Tools/gazetteer/derive.py`).
  private static let specialLetters: [Unicode.Scalar: String] = [
    "ß": "ss", "ẞ": "ss", "æ": "ae", "Æ": "ae", "œ": "oe", "Œ": "oe", "ø": "o", "Ø": "o",
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ð": "d", "Ð": "d", "þ": "th", "Þ": "th",
    "ı": "i", "ħ": "h", "Ħ": "h", "ŧ": "t", "Ŧ": "t", "ŋ": "ng", "Ŋ": "ng", "ə": "a", "Ə": "a",
    "ɨ": "i", "ς": "σ", "ʼ": "'", "ʻ": "'", "ʽ": "'", "ʿ": "'", "ʾ": "'", "’": "'", "‘": "'",
    "´": "'", "–": "-", "—": "-", "‐": "-", "‑": "-",
  ]
}
