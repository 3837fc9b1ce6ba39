import ComposableArchitecture
import Foundation
import WeatherClient

/// Searches places by name and shows the forecast of the one tapped.
///
/// The seed "search-weather" reducer, with the debounce its view did moved into the reducer, so
/// that every front end gets it without holding state of its own: each edit
/// (``Action/searchQueryChanged(_:)``) stores the query, cancels the search in flight and, once
/// the query has been still for ``debounce`` on the `continuousClock` dependency, sends
/// ``Action/searchQueryChangeDebounced`` itself; a front end may also send that action at once (a
/// submitted query). ``State/isSearchInFlight`` says whether a search is pending or running. An
/// empty query clears the results and cancels both. Tapping a result loads its forecast and
/// cancels the forecast of a previous tap. Added to the seed: ``State/errorMessage``, so failed
/// requests are visible, and ``State/temperatureUnit``, the unit forecasts are requested in.
@Reducer
public struct Search: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var results: [GeocodingSearch.Result]
    public var resultForecastRequestInFlight: GeocodingSearch.Result?
    public var searchQuery: String
    public var weather: Weather?
    /// What went wrong with the last request, for the user; `nil` once a request succeeds.
    public var errorMessage: String?
    /// The unit forecasts are requested in.
    public var temperatureUnit: TemperatureUnit
    /// Whether a search of ``searchQuery`` is waiting for the debounce or for its response.
    public var isSearchInFlight: Bool

    public init(
      results: [GeocodingSearch.Result] = [],
      resultForecastRequestInFlight: GeocodingSearch.Result? = nil,
      searchQuery: String = "",
      weather: Weather? = nil,
      errorMessage: String? = nil,
      temperatureUnit: TemperatureUnit = .celsius,
      isSearchInFlight: Bool = false
    ) {
      self.results = results
      self.resultForecastRequestInFlight = resultForecastRequestInFlight
      self.searchQuery = searchQuery
      self.weather = weather
      self.errorMessage = errorMessage
      self.temperatureUnit = temperatureUnit
      self.isSearchInFlight = isSearchInFlight
    }

    /// The forecast of one place.
    public struct Weather: Codable, Equatable, Sendable {
      public var id: GeocodingSearch.Result.ID
      public var days: [Day]
      /// Whether the days are an estimate made without a weather service (``Forecast/isEstimate``):
      /// views label them "offline estimate".
      public var isEstimate: Bool

      public init(id: GeocodingSearch.Result.ID, days: [Day], isEstimate: Bool = false) {
        self.id = id
        self.days = days
        self.isEstimate = isEstimate
      }

      /// One day of a forecast.
      public struct Day: Codable, Equatable, Sendable {
        public var date: Date
        public var temperatureMax: Double
        public var temperatureMaxUnit: String
        public var temperatureMin: Double
        public var temperatureMinUnit: String

        public init(
          date: Date,
          temperatureMax: Double,
          temperatureMaxUnit: String,
          temperatureMin: Double,
          temperatureMinUnit: String
        ) {
          self.date = date
          self.temperatureMax = temperatureMax
          self.temperatureMaxUnit = temperatureMaxUnit
          self.temperatureMin = temperatureMin
          self.temperatureMinUnit = temperatureMinUnit
        }
      }
    }
  }

  public enum Action: Sendable {
    case forecastResponse(GeocodingSearch.Result.ID, Result<Forecast, any Error>)
    case searchQueryChanged(String)
    case searchQueryChangeDebounced
    case searchResponse(Result<GeocodingSearch, any Error>)
    case searchResultTapped(GeocodingSearch.Result)
  }

  @Dependency(\.continuousClock) var clock
  @Dependency(\.weatherClient) var weatherClient

  /// How long the query must stay still before it is searched.
  public static let debounce: Duration = .milliseconds(300)

  /// The longest query kept, in characters: longer than any place's name (the longest, Bangkok's
  /// ceremonial one, has 168), short enough that a stray paste cannot flood a screen or a request.
  /// A longer query is cut to this length.
  public static let maximumQueryLength = 200

  private enum CancelID { case debounce, location, weather }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .forecastResponse(_, .failure(let error)):
        state.weather = nil
        state.resultForecastRequestInFlight = nil
        state.errorMessage = error.localizedDescription
        return .none

      case .forecastResponse(let id, .success(let forecast)):
        state.weather = State.Weather(id: id, forecast: forecast)
        state.resultForecastRequestInFlight = nil
        state.errorMessage = nil
        return .none

      case .searchQueryChanged(let query):
        state.searchQuery = String(query.prefix(Self.maximumQueryLength))
        guard !state.searchQuery.isEmpty else {
          state.results = []
          state.weather = nil
          state.errorMessage = nil
          state.isSearchInFlight = false
          return .merge(.cancel(id: CancelID.debounce), .cancel(id: CancelID.location))
        }
        state.isSearchInFlight = true
        return .merge(
          .cancel(id: CancelID.location),
          .run { send in
            try await clock.sleep(for: Self.debounce)
            await send(.searchQueryChangeDebounced)
          }
          .cancellable(id: CancelID.debounce, cancelInFlight: true)
        )

      case .searchQueryChangeDebounced:
        guard !state.searchQuery.isEmpty else {
          state.isSearchInFlight = false
          return .cancel(id: CancelID.debounce)
        }
        state.isSearchInFlight = true
        return .merge(
          .cancel(id: CancelID.debounce),
          .run { [query = state.searchQuery] send in
            await send(.searchResponse(Result { try await weatherClient.search(query: query) }))
          }
          .cancellable(id: CancelID.location, cancelInFlight: true)
        )

      case .searchResponse(.failure(let error)):
        state.results = []
        state.errorMessage = error.localizedDescription
        state.isSearchInFlight = false
        return .none

      case .searchResponse(.success(let response)):
        state.results = response.results
        state.errorMessage = nil
        state.isSearchInFlight = false
        return .none

      case .searchResultTapped(let location):
        state.resultForecastRequestInFlight = location
        return .run { [unit = state.temperatureUnit] send in
          await send(
            .forecastResponse(
              location.id,
              Result {
                // Celsius is Open-Meteo's default: the seed's request, without a unit parameter.
                unit == .celsius
                  ? try await weatherClient.forecast(location: location)
                  : try await weatherClient.forecast(location: location, unit: unit)
              }
            )
          )
        }
        .cancellable(id: CancelID.weather, cancelInFlight: true)
      }
    }
  }
}

extension Search.State.Weather {
  /// The days of a forecast. Days whose temperatures are missing (arrays of unequal length, which
  /// only a broken response has) are left out rather than read out of range.
  public init(id: GeocodingSearch.Result.ID, forecast: Forecast) {
    let daily = forecast.daily
    let count = min(daily.time.count, daily.temperatureMax.count, daily.temperatureMin.count)
    self.init(
      id: id,
      days: (0..<count).map {
        Day(
          date: daily.time[$0],
          temperatureMax: daily.temperatureMax[$0],
          temperatureMaxUnit: forecast.dailyUnits.temperatureMax,
          temperatureMin: daily.temperatureMin[$0],
          temperatureMinUnit: forecast.dailyUnits.temperatureMin
        )
      },
      isEstimate: forecast.isEstimate
    )
  }
}
