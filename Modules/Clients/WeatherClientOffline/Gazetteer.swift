import Foundation
import WeatherClient

/// The places the offline weather client knows, searchable by name.
///
/// The bundled gazetteer has the 34,003 places of GeoNames' `cities15000` (about every town of
/// 15,000 people or more, and capitals), with their alternate names in many scripts; see
/// `Resources/ATTRIBUTION.md`. A search is an Open-Meteo-like prefix match that ignores case and
/// accents, best-populated places first:
///
/// ```swift
/// let gazetteer = try Gazetteer.bundled()
/// gazetteer.search("sao paulo").first?.name  // "São Paulo"
/// gazetteer.search("서울").first?.name        // "Seoul"
/// ```
///
/// Loading parses the file and reads the prepared index of its names (``PreparedIndex``: a
/// one-shot search takes about 0.1 s with the process, release build); without one it folds and
/// sorts every name (0.7 s). A search is two binary searches and a scan of the matching names.
public struct Gazetteer: Sendable {
  /// Open-Meteo's default number of search results.
  public static let defaultSearchLimit = 10

  /// The credit line the bundled data's license (GeoNames, CC BY 4.0) asks for, for an "About"
  /// or licenses screen.
  public static let credit =
    "Place names and locations: GeoNames (https://www.geonames.org/), CC BY 4.0."

  /// The bundled `ATTRIBUTION.md`: the data's source, license and the changes made to it.
  public static var attributionURL: URL? {
    Bundle.module.url(forResource: "ATTRIBUTION", withExtension: "md")
  }

  private struct Place: Sendable {
    var id: Int
    var name: String
    var latitude: Double
    var longitude: Double
    var country: UInt16
    var admin1: UInt16
    var timeZone: UInt16
    /// Where its alternate names are in ``alternateNames``.
    var alternates: Range<UInt32>
  }

  /// Places by decreasing population (ties by increasing id): a place's position is its rank.
  private let places: [Place]
  private let positionsByID: [Int: Int32]
  /// Country names, first-level division names (index 0 is "none") and time zone identifiers,
  /// each stored once.
  private let countries: [String]
  private let admin1s: [String]
  private let timeZones: [String]
  private let index: NameIndex
  /// Every place's alternate names, joined by `|`, as the file spells them.
  private let alternateNames: [UInt8]

  /// The number of places.
  public var count: Int { places.count }

  /// The number of distinct searchable names (a place's name, ASCII spelling and alternates).
  public var nameCount: Int { index.count }

  /// The gazetteer bundled with this module, loaded on first use and kept for the life of the
  /// process.
  ///
  /// - Throws: ``GazetteerError`` when the resource is missing or malformed (a broken build).
  public static func bundled() throws(GazetteerError) -> Gazetteer {
    try loadedBundle.get()
  }

  private static let loadedBundle: Result<Gazetteer, GazetteerError> = {
    let source = "bundled gazetteer.tsv"
    guard let url = Bundle.module.url(forResource: "gazetteer", withExtension: "tsv") else {
      return .failure(GazetteerError(source: source, cause: .resourceMissing))
    }
    // The prepared index, when the bundle has it and it was made from this text (see
    // `PreparedIndex`); without it the names are folded here.
    let index = Bundle.module.url(forResource: "gazetteer", withExtension: "index").flatMap {
      try? Data(contentsOf: $0, options: .alwaysMapped)
    }
    do throws(GazetteerError) {
      let data: Data
      do {
        data = try Data(contentsOf: url, options: .alwaysMapped)
      } catch {
        throw GazetteerError(source: source, cause: .unreadable(detail: "\(error)"))
      }
      return .success(try Gazetteer(tsv: data, source: source, preparedIndex: index))
    } catch {
      return .failure(error)
    }
  }()

  /// Loads a gazetteer file in the format that `Tools/gazetteer/derive.py` writes.
  ///
  /// - Throws: ``GazetteerError`` naming the file and, for a malformed file, the first bad line.
  public init(contentsOf url: URL) throws(GazetteerError) {
    try self.init(contentsOf: url, source: url.path)
  }

  private init(contentsOf url: URL, source: String) throws(GazetteerError) {
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw GazetteerError(source: source, cause: .unreadable(detail: "\(error)"))
    }
    try self.init(tsv: data, source: source)
  }

  /// Parses gazetteer text: an optional `#` header line, then one place per line with ten
  /// tab-separated fields — geonameid, name, latitude, longitude, country, country code,
  /// first-level division (may be empty), population, IANA time zone, and alternate names
  /// joined by `|` (may be empty).
  ///
  /// - Throws: ``GazetteerError`` naming the first malformed line.
  public init(tsv data: Data, source: String = "gazetteer text") throws(GazetteerError) {
    try self.init(tsv: data, source: source, preparedIndex: nil)
  }

  /// Parses gazetteer text, taking its names' keys from `preparedIndex` when that index was made
  /// from this text (``PreparedIndex``), else folding every name.
  init(tsv data: Data, source: String, preparedIndex: Data?) throws(GazetteerError) {
    func parse(foldingNames: Bool) throws(GazetteerError) -> GazetteerParser {
      let parsing: Result<GazetteerParser, GazetteerError> = data.withUnsafeBytes { raw in
        var parser = GazetteerParser(source: source, foldsNames: foldingNames)
        do throws(GazetteerError) {
          try parser.parse(raw.bindMemory(to: UInt8.self))
          return .success(parser)
        } catch {
          return .failure(error)
        }
      }
      return try parsing.get()
    }
    var parsed = try parse(foldingNames: preparedIndex == nil)
    var prepared: (keys: [UInt8], entries: [NameIndex.Entry])?
    if let preparedIndex {
      prepared = preparedIndex.withUnsafeBytes { index in
        data.withUnsafeBytes { text in
          PreparedIndex.read(index, for: text, rowCount: parsed.rows.count)
        }
      }
      if prepared == nil { parsed = try parse(foldingNames: true) }
    }
    // Rank the places by population so that a smaller position is a better match.
    let order = parsed.rows.indices.sorted { left, right in
      let (a, b) = (parsed.rows[left], parsed.rows[right])
      return a.population != b.population ? a.population > b.population : a.id < b.id
    }
    var rankOfRow = [UInt32](repeating: 0, count: order.count)
    for (rank, row) in order.enumerated() { rankOfRow[row] = UInt32(rank) }

    var places: [Place] = []
    places.reserveCapacity(order.count)
    var positionsByID: [Int: Int32] = [:]
    positionsByID.reserveCapacity(order.count)
    for row in order {
      let parsedRow = parsed.rows[row]
      positionsByID[parsedRow.id] = positionsByID[parsedRow.id] ?? Int32(places.count)
      places.append(
        Place(
          id: parsedRow.id, name: parsedRow.name, latitude: parsedRow.latitude,
          longitude: parsedRow.longitude, country: parsedRow.country, admin1: parsedRow.admin1,
          timeZone: parsedRow.timeZone, alternates: parsedRow.alternates))
    }
    var entries = prepared?.entries ?? parsed.entries
    for position in entries.indices {
      entries[position].place = rankOfRow[Int(entries[position].place)]
    }

    self.places = places
    self.positionsByID = positionsByID
    self.countries = parsed.countries.names
    self.admin1s = parsed.admin1s.names
    self.timeZones = parsed.timeZones.names
    self.alternateNames = parsed.alternateNames
    // A prepared index is in index order already (keys, then rows: the order of places with
    // one key does not matter to a search, which ranks every match).
    self.index =
      prepared.map { NameIndex(keys: $0.keys, sortedEntries: entries) }
      ?? NameIndex(keys: parsed.keys, entries: entries)
  }

  /// The places with a name that starts with `query`, ignoring case and accents: those matched
  /// by their own name first, a whole name before a longer one, then the most populous; each
  /// place once. A place matched only by another of its names says which
  /// (``GeocodingSearch/Result/matchedName``).
  ///
  /// An empty or all-white-space query matches nothing.
  ///
  /// ```swift
  /// gazetteer.search("zurich").first?.name  // "Zürich"
  /// gazetteer.search("new york").first { $0.name == "Jakarta" }?.matchedName
  /// // "New York Van Java"
  /// ```
  public func search(_ query: String, limit: Int = Self.defaultSearchLimit)
    -> [GeocodingSearch.Result]
  {
    index.topPlaces(withPrefix: SearchKey.fold(query), limit: limit).map { match in
      var found = result(at: match.place)
      if match.name > 0 { found.matchedName = alternateName(match.name, of: match.place) }
      return found
    }
  }

  /// The `ordinal`-th (from 1) alternate name of the place at `position`, as the file spells it.
  private func alternateName(_ ordinal: Int, of position: Int) -> String? {
    let range = places[position].alternates
    let names = alternateNames[Int(range.lowerBound)..<Int(range.upperBound)]
      .split(separator: UInt8(ascii: "|"), maxSplits: ordinal)
    guard ordinal <= names.count else { return nil }
    return String(decoding: names[ordinal - 1], as: UTF8.self)
  }

  /// The place with this GeoNames id, or `nil` when the gazetteer does not have it.
  public func place(id: Int) -> GeocodingSearch.Result? {
    positionsByID[id].map { result(at: Int($0)) }
  }

  /// The IANA time zone identifier of the place with this GeoNames id, e.g. `"Asia/Seoul"`, or
  /// `nil` when the gazetteer does not have it.
  public func timeZoneIdentifier(ofPlace id: Int) -> String? {
    positionsByID[id].map { timeZones[Int(places[Int($0)].timeZone)] }
  }

  /// The IANA time zone identifier of the place nearest to a point, e.g. `"Asia/Seoul"` for
  /// Seongnam's coordinates: the time zone a forecast for bare coordinates counts its days in,
  /// as Open-Meteo's `timezone=auto` does. `nil` only for an empty gazetteer.
  public func timeZoneIdentifier(nearLatitude latitude: Double, longitude: Double) -> String? {
    // Distances on the sphere compared by the haversine term alone (monotonic in distance); a
    // scan of 34,003 places takes about a millisecond.
    let radians = Double.pi / 180
    let (latitude, longitude) = (latitude * radians, longitude * radians)
    let cosine = cos(latitude)
    var nearest: (term: Double, timeZone: UInt16)?
    for place in places {
      let placeLatitude = place.latitude * radians
      let halfLatitude = sin((placeLatitude - latitude) / 2)
      let halfLongitude = sin((place.longitude * radians - longitude) / 2)
      let term =
        halfLatitude * halfLatitude + cosine * cos(placeLatitude) * halfLongitude * halfLongitude
      if nearest == nil || term < nearest!.term { nearest = (term, place.timeZone) }
    }
    return nearest.map { timeZones[Int($0.timeZone)] }
  }

  private func result(at position: Int) -> GeocodingSearch.Result {
    let place = places[position]
    return GeocodingSearch.Result(
      country: countries[Int(place.country)],
      latitude: place.latitude,
      longitude: place.longitude,
      id: place.id,
      name: place.name,
      admin1: place.admin1 == 0 ? nil : admin1s[Int(place.admin1)]
    )
  }
}
