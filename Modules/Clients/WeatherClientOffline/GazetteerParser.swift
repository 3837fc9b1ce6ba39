/// Reads gazetteer text (the format `Tools/gazetteer/derive.py` writes) byte by byte: the places'
/// fields, and a ``SearchKey`` for every name of every place.
struct GazetteerParser {
  /// One place as the file has it.
  struct Row {
    var id: Int
    var name: String
    var latitude: Double
    var longitude: Double
    var population: Int
    var country: UInt16
    var admin1: UInt16
    var timeZone: UInt16
    /// Where its alternate names (joined by `|`, as in the file) are in ``alternateNames``.
    var alternates: Range<UInt32>
  }

  /// Strings stored once, each known by its position.
  struct Interner {
    private(set) var names: [String] = []
    private var positions: [String: UInt16] = [:]

    /// The position of `name`, adding it when it is new; `nil` past 65,535 distinct names.
    mutating func position(of name: String) -> UInt16? {
      if let position = positions[name] { return position }
      guard names.count <= Int(UInt16.max) else { return nil }
      let position = UInt16(names.count)
      names.append(name)
      positions[name] = position
      return position
    }
  }

  let source: String
  /// Whether every name is folded into a key here; a prepared index brings the keys instead.
  let foldsNames: Bool
  private(set) var rows: [Row] = []
  /// The keys of every name, one after the other.
  private(set) var keys: [UInt8] = []
  /// Every place's alternate names as the file spells them, one place after the other: to say
  /// which of them a search matched.
  private(set) var alternateNames: [UInt8] = []
  /// One entry per name; `place` is the row's position in ``rows``.
  private(set) var entries: [NameIndex.Entry] = []
  private(set) var countries = Interner()
  private(set) var admin1s = Interner()
  private(set) var timeZones = Interner()

  init(source: String, foldsNames: Bool = true) {
    self.source = source
    self.foldsNames = foldsNames
    _ = admin1s.position(of: "")  // position 0: no first-level division
  }

  mutating func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(GazetteerError) {
    var lineNumber = 0
    var lineStart = 0
    while lineStart < bytes.count {
      lineNumber += 1
      var lineEnd = lineStart
      while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
      var contentEnd = lineEnd
      if contentEnd > lineStart, bytes[contentEnd - 1] == UInt8(ascii: "\r") { contentEnd -= 1 }
      let line = UnsafeBufferPointer(rebasing: bytes[lineStart..<contentEnd])
      if !line.isEmpty, line[0] != UInt8(ascii: "#") {
        try parseLine(line, number: lineNumber)
      }
      lineStart = lineEnd + 1
    }
    if rows.isEmpty {
      throw GazetteerError(
        source: source, cause: .malformedLine(number: lineNumber, reason: "no place in the file"))
    }
  }

  private mutating func parseLine(
    _ line: UnsafeBufferPointer<UInt8>, number: Int
  ) throws(GazetteerError) {
    let fields = line.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
    guard fields.count == 10 else {
      throw malformed(number, "expected 10 tab-separated fields, found \(fields.count)")
    }
    func text(_ field: Int) -> String { String(decoding: fields[field], as: UTF8.self) }

    guard let id = Int(text(0)) else {
      throw malformed(number, "geonameid \"\(text(0))\" is not a whole number")
    }
    let name = text(1)
    guard !name.isEmpty else { throw malformed(number, "the name is empty") }
    guard let latitude = Double(text(2)), (-90.0...90.0).contains(latitude) else {
      throw malformed(number, "latitude \"\(text(2))\" is not a number of degrees from -90 to 90")
    }
    guard let longitude = Double(text(3)), (-180.0...180.0).contains(longitude) else {
      throw malformed(
        number, "longitude \"\(text(3))\" is not a number of degrees from -180 to 180")
    }
    guard let population = Int(text(7)), population >= 0 else {
      throw malformed(number, "population \"\(text(7))\" is not a whole number")
    }
    guard let country = countries.position(of: text(4)),
      let admin1 = admin1s.position(of: text(6)),
      let timeZone = timeZones.position(of: text(8))
    else {
      throw malformed(number, "more than 65,536 distinct countries, divisions or time zones")
    }

    let row = UInt32(rows.count)
    let alternatesStart = UInt32(alternateNames.count)
    alternateNames.append(contentsOf: fields[9])
    rows.append(
      Row(
        id: id, name: name, latitude: latitude, longitude: longitude, population: population,
        country: country, admin1: admin1, timeZone: timeZone,
        alternates: alternatesStart..<UInt32(alternateNames.count)))
    guard foldsNames else { return }
    addKey(of: fields[1], place: row, name: 0)
    if !fields[9].isEmpty {
      for (ordinal, alternate) in fields[9].split(separator: UInt8(ascii: "|")).enumerated()
      where ordinal < Int(UInt16.max) {
        addKey(of: alternate, place: row, name: UInt16(ordinal + 1))
      }
    }
  }

  private mutating func addKey(
    of text: Slice<UnsafeBufferPointer<UInt8>>, place: UInt32, name: UInt16
  ) {
    let key = SearchKey.fold(utf8: text)
    guard !key.isEmpty, key.count <= Int(UInt16.max), keys.count <= Int(UInt32.max) - key.count
    else { return }
    entries.append(
      NameIndex.Entry(
        keyStart: UInt32(keys.count), keyLength: UInt16(key.count), name: name,
        place: place))
    keys.append(contentsOf: key)
  }

  private func malformed(_ number: Int, _ reason: String) -> GazetteerError {
    GazetteerError(source: source, cause: .malformedLine(number: number, reason: reason))
  }
}
