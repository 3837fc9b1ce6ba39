import Foundation

/// The places that match a search query, as Open-Meteo's geocoding API returns them.
public struct GeocodingSearch: Codable, Hashable, Sendable {
  /// The matching places, best match first. Empty when nothing matches.
  public var results: [Result]

  /// Creates a search result.
  public init(results: [Result]) {
    self.results = results
  }

  /// Decodes a search response.
  ///
  /// Open-Meteo leaves out the `results` key when nothing matches: that decodes as an empty list.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.results = try container.decodeIfPresent([Result].self, forKey: .results) ?? []
  }

  private enum CodingKeys: String, CodingKey {
    case results
  }

  /// One place found by a search.
  public struct Result: Codable, Hashable, Identifiable, Sendable {
    /// The country the place is in, e.g. `"Germany"`.
    public var country: String
    /// The latitude in degrees.
    public var latitude: Double
    /// The longitude in degrees.
    public var longitude: Double
    /// Open-Meteo's (GeoNames) identifier of the place.
    public var id: Int
    /// The place's name, e.g. `"Berlin"`.
    public var name: String
    /// The first-level administrative area (state, region), when known.
    public var admin1: String?
    /// The other name of the place that the query matched, when the query did not match its own
    /// name ("new york" finds Jakarta by "New York Van Java"), so a front end can show why it is listed. The
    /// offline client says it; Open-Meteo does not (and it is left out of JSON when `nil`).
    public var matchedName: String?

    /// The place as a person reads it: its name, its first-level division unless that has the
    /// same name (Seoul is in Seoul), and its country — "London, England, United Kingdom",
    /// "Seoul, South Korea".
    public var displayName: String {
      let division = admin1.flatMap { $0 == name ? nil : $0 }
      return [name, division, country].compactMap { $0 }.joined(separator: ", ")
    }

    /// Creates a place.
    public init(
      country: String,
      latitude: Double,
      longitude: Double,
      id: Int,
      name: String,
      admin1: String? = nil,
      matchedName: String? = nil
    ) {
      self.country = country
      self.latitude = latitude
      self.longitude = longitude
      self.id = id
      self.name = name
      self.admin1 = admin1
      self.matchedName = matchedName
    }
  }
}

/// A daily forecast, as Open-Meteo's forecast API returns it.
///
/// The three arrays of ``Daily`` have one element per day, at the same index.
public struct Forecast: Codable, Hashable, Sendable {
  /// The daily series.
  public var daily: Daily
  /// The units of the daily series.
  public var dailyUnits: DailyUnits
  /// Whether the figures are an estimate made without a weather service (an offline client's
  /// climate model) rather than a forecast. Front ends label such a forecast "offline estimate".
  ///
  /// Open-Meteo never sends it; in JSON it is `"estimate": true`, and left out when `false`.
  public var isEstimate: Bool

  /// Creates a forecast.
  public init(daily: Daily, dailyUnits: DailyUnits, isEstimate: Bool = false) {
    self.daily = daily
    self.dailyUnits = dailyUnits
    self.isEstimate = isEstimate
  }

  private enum CodingKeys: String, CodingKey {
    case daily
    case dailyUnits = "daily_units"
    case isEstimate = "estimate"
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    self.daily = try container.decode(Daily.self, forKey: .daily)
    self.dailyUnits = try container.decode(DailyUnits.self, forKey: .dailyUnits)
    self.isEstimate = try container.decodeIfPresent(Bool.self, forKey: .isEstimate) ?? false
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(daily, forKey: .daily)
    try container.encode(dailyUnits, forKey: .dailyUnits)
    if isEstimate {
      try container.encode(true, forKey: .isEstimate)
    }
  }

  /// The daily minimum and maximum temperatures.
  public struct Daily: Codable, Hashable, Sendable {
    /// The maximum temperature of each day.
    public var temperatureMax: [Double]
    /// The minimum temperature of each day.
    public var temperatureMin: [Double]
    /// Each day, as midnight UTC of its calendar date (the API sends `yyyy-MM-dd`).
    public var time: [Date]

    /// Creates a daily series.
    public init(temperatureMax: [Double], temperatureMin: [Double], time: [Date]) {
      self.temperatureMax = temperatureMax
      self.temperatureMin = temperatureMin
      self.time = time
    }

    private enum CodingKeys: String, CodingKey {
      case temperatureMax = "temperature_2m_max"
      case temperatureMin = "temperature_2m_min"
      case time
    }
  }

  /// The units of the daily series, e.g. `"°C"`.
  public struct DailyUnits: Codable, Hashable, Sendable {
    /// The unit of ``Daily/temperatureMax``.
    public var temperatureMax: String
    /// The unit of ``Daily/temperatureMin``.
    public var temperatureMin: String

    /// Creates units.
    public init(temperatureMax: String, temperatureMin: String) {
      self.temperatureMax = temperatureMax
      self.temperatureMin = temperatureMin
    }

    private enum CodingKeys: String, CodingKey {
      case temperatureMax = "temperature_2m_max"
      case temperatureMin = "temperature_2m_min"
    }
  }
}
