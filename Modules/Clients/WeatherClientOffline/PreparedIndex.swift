import Foundation

/// The gazetteer's name index, prepared ahead of time: every name already folded into its
/// ``SearchKey`` and sorted, so that loading reads it instead of folding 240,000 names (two
/// thirds of the load time) and sorting them.
///
/// The file is text: a header naming the gazetteer text it was made from (its length and
/// FNV-1a 64 hash), then one line per name, in index order:
///
/// ```text
/// # gazetteer index v2; source 5614598 bytes, fnv1a64 0123456789abcdef
/// seoul<TAB>12<TAB>0
/// ```
///
/// — the key, the place's row in the gazetteer text (0 is its first place), and which of its
/// names the key is: 0 for its own name, n for its n-th alternate. An index that does not name the gazetteer it is given
/// is not used: the names are folded at load, as without one. `PreparedIndexTests` fails when the
/// committed index is not the one the committed gazetteer makes, and writes the right one.
enum PreparedIndex {
  static let version = "gazetteer index v2"

  /// The header line that names `source`.
  static func header(of source: UnsafeRawBufferPointer) -> String {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in source {
      hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    let hex = String(hash, radix: 16)
    return "# \(version); source \(source.count) bytes, fnv1a64 "
      + String(repeating: "0", count: 16 - hex.count) + hex
  }

  /// The prepared index of gazetteer text.
  static func make(tsv data: Data) throws(GazetteerError) -> Data {
    let parsed: Result<GazetteerParser, GazetteerError> = data.withUnsafeBytes { raw in
      var parser = GazetteerParser(source: "gazetteer text")
      do throws(GazetteerError) {
        try parser.parse(raw.bindMemory(to: UInt8.self))
        return .success(parser)
      } catch {
        return .failure(error)
      }
    }
    let parser = try parsed.get()
    let index = NameIndex(keys: parser.keys, entries: parser.entries)
    var text = Data(data.withUnsafeBytes { header(of: $0) }.utf8)
    text.append(UInt8(ascii: "\n"))
    index.forEachEntry { key, entry in
      text.append(contentsOf: key)
      text.append(contentsOf: "\t\(entry.place)\t\(entry.name)\n".utf8)
    }
    return text
  }

  /// The keys and entries of `index` when it was made from `source`, with each entry's `place`
  /// its row in the source; `nil` when it names other text or is malformed.
  static func read(
    _ index: UnsafeRawBufferPointer, for source: UnsafeRawBufferPointer, rowCount: Int
  ) -> (keys: [UInt8], entries: [NameIndex.Entry])? {
    let bytes = index.bindMemory(to: UInt8.self)
    guard let firstLineEnd = bytes.firstIndex(of: UInt8(ascii: "\n")),
      String(decoding: bytes[..<firstLineEnd], as: UTF8.self) == header(of: source)
    else { return nil }
    var keys: [UInt8] = []
    keys.reserveCapacity(bytes.count)
    var entries: [NameIndex.Entry] = []
    entries.reserveCapacity(bytes.count / 12)
    var position = firstLineEnd + 1
    while position < bytes.count {
      // key TAB row TAB name NEWLINE
      var tab = position
      while tab < bytes.count, bytes[tab] != UInt8(ascii: "\t") { tab += 1 }
      let keyLength = tab - position
      guard tab < bytes.count, keyLength > 0, keyLength <= Int(UInt16.max) else { return nil }
      // A decimal number up to `stop` (a tab or a newline, or the end for the last one).
      func number(from start: Int, to stop: UInt8) -> (value: Int, end: Int)? {
        var value = 0
        var cursor = start
        while cursor < bytes.count, bytes[cursor] != stop {
          let digit = Int(bytes[cursor]) - Int(UInt8(ascii: "0"))
          guard (0...9).contains(digit), value <= Int(UInt32.max) else { return nil }
          value = value * 10 + digit
          cursor += 1
        }
        return cursor > start ? (value, cursor) : nil
      }
      guard let (row, secondTab) = number(from: tab + 1, to: UInt8(ascii: "\t")),
        row < rowCount, secondTab < bytes.count,
        let (name, lineEnd) = number(from: secondTab + 1, to: UInt8(ascii: "\n")),
        name <= Int(UInt16.max)
      else { return nil }
      entries.append(
        NameIndex.Entry(
          keyStart: UInt32(keys.count), keyLength: UInt16(keyLength), name: UInt16(name),
          place: UInt32(row)))
      keys.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<tab]))
      position = lineEnd + 1
    }
    return entries.isEmpty ? nil : (keys, entries)
  }
}
