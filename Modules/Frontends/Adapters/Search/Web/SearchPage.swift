import ComposableArchitecture
import Foundation
import SearchFeature
import WebFrontend

/// The weather search on the page: the query, its results and the forecast of the one chosen.
public enum SearchPage: WebFeature {
  public typealias Root = Search

  /// Its section of the page (the query, the results and the forecast): `Public/search.html` and `Public/search.js`.
  public static let section: PageSection? = PageSection(
    id: "search", title: "Search", bundle: .module)

  /// The longest search query accepted, in characters.
  public static let maximumQueryLength = 200

  public static let routes: [WebRoute<Search>] = [
    // The query as typed; the feature searches after 300 ms of stillness.
    WebRoute(
      "search.query", ["query": "a string of at most \(maximumQueryLength) characters"]
    ) { fields throws(DecodingFailure) in
      let query: String = try fields.value("query", expecting: "a string")
      guard query.count <= maximumQueryLength else {
        throw DecodingFailure(
          "field 'query' is too long: at most \(maximumQueryLength) characters")
      }
      return query
    } resolve: { query, _ in
      .searchQueryChanged(query)
    },
    // Searches the current query now (the Enter key).
    WebRoute("search.submit") { _ in .searchQueryChangeDebounced },
    // A result of the current search, by its id.
    WebRoute("search.select", ["id": "the integer id of a search result"]) {
      fields throws(DecodingFailure) in
      try fields.value("id", as: Int.self)
    } resolve: { id, state throws(ActionRefusal) in
      guard let result = state.results.first(where: { $0.id == id }) else {
        throw ActionRefusal.invalid("no search result with id \(id) in the current results")
      }
      return .searchResultTapped(result)
    },
  ]

  public struct View: Codable, Equatable, Sendable {
    public var search: SearchView
  }

  /// The search screen.
  public struct SearchView: Codable, Equatable, Sendable {
    /// The query as typed.
    public var query: String
    /// Whether a search is scheduled (debounce) or running.
    public var isSearchInFlight: Bool
    public var results: [Place]
    /// The id of the result whose forecast is loading, if any.
    public var forecastRequestInFlightID: Int?
    /// The forecast on screen, if any.
    public var weather: Weather?
    /// What went wrong with the last request, e.g. `Open-Meteo geocoding: cannot reach …`.
    public var errorMessage: String?
    /// `celsius` or `fahrenheit`.
    public var temperatureUnit: String
  }

  /// A place found by a search.
  public struct Place: Codable, Equatable, Sendable {
    public var id: Int
    public var name: String
    public var admin1: String?
    public var country: String
    public var latitude: Double
    public var longitude: Double
    /// The other name the query matched, when it did not match the place's own name.
    public var matchedName: String?
  }

  /// The forecast of one place.
  public struct Weather: Codable, Equatable, Sendable {
    /// The id of the ``Place``.
    public var id: Int
    public var days: [Day]
    /// Whether the days are an offline client's estimate rather than a forecast; the page labels
    /// them "offline estimate".
    public var isEstimate: Bool

    /// One day: its date (`yyyy-MM-dd`) and temperatures.
    public struct Day: Codable, Equatable, Sendable {
      public var date: String
      public var min: Double
      public var max: Double
      /// e.g. `°C`.
      public var unit: String
    }
  }

  public static func view(of state: Search.State) -> View {
    let search = state
    return View(
      search: SearchView(
        query: search.searchQuery,
        isSearchInFlight: search.isSearchInFlight,
        results: search.results.map {
          Place(
            id: $0.id, name: $0.name, admin1: $0.admin1, country: $0.country,
            latitude: $0.latitude, longitude: $0.longitude, matchedName: $0.matchedName)
        },
        forecastRequestInFlightID: search.resultForecastRequestInFlight?.id,
        weather: search.weather.map { weather in
          Weather(
            id: weather.id,
            days: weather.days.map {
              Weather.Day(
                date: day($0.date), min: $0.temperatureMin, max: $0.temperatureMax,
                unit: $0.temperatureMaxUnit)
            },
            isEstimate: weather.isEstimate)
        },
        errorMessage: search.errorMessage,
        temperatureUnit: search.temperatureUnit.rawValue))
  }

  /// `yyyy-MM-dd` of a forecast day (days are midnight UTC of their date).
  private static func day(_ date: Date) -> String {
    let components = Calendar(identifier: .iso8601).dateComponents(
      in: TimeZone(identifier: "UTC") ?? .current, from: date)
    let (year, month, day) = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
    return String(format: "%04d-%02d-%02d", year, month, day)
  }
}

extension SearchPage {
  /// The section alone, on the feature's own reducer: what `preview-server` serves for it.
  public static var preview: WebPreview<Self> {
    alone(Search(), initialState: { Search.State() })
  }
}
