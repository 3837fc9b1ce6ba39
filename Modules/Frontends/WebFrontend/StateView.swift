import AppFeature
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import Foundation
import SearchFeature
import SettingsFeature

/// What the page shows: a JSON snapshot of one session's `AppFeature.State`.
///
/// The features' states are not all `Codable` (and should not have to be), so the web front end
/// maps them to these plain types. The form is stable: fields are only ever added.
///
/// ```json
/// {"header": "Hello, Blob!", "selectedTab": "counters",
///  "counters": [{"id": "…", "count": 3, "isTimerOn": false, …}],
///  "search": {"query": "Ber", "isSearchInFlight": true, "results": [], …},
///  "settings": {"displayName": "Blob", "digest": "daily", …},
///  "episodes": [{"id": "…", "title": "Functions", "isFavorite": true, "alert": {"title": "Favoriting failed.", "message": null}}]}
/// ```
public struct StateView: Codable, Equatable, Sendable {
  /// The JSON Schema of this form (`GET /api/state-schema`), read off the type itself, so it
  /// lists exactly the fields the server encodes.
  public static let schema: Data = {
    do {
      return try JSONSchema.json(of: StateView.self, title: "The state of a session")
    } catch {
      fatalError("StateView has a shape JSONSchema cannot describe: \(error)")
    }
  }()

  /// `AppFeature.State.header`, e.g. `"Hello, Blob!"`.
  public var header: String
  /// The tab on screen: `counters`, `search`, `settings` or `episodes`.
  public var selectedTab: String
  public var counters: [CounterView]
  /// The confirmation of a counter's removal, while it is shown (`counter.confirmRemove` /
  /// `counter.cancelRemove`).
  public var removalConfirmation: Confirmation?
  public var search: SearchView
  public var settings: SettingsView
  public var episodes: [EpisodeView]
  /// Why the saved favorites could not be loaded.
  public var episodesError: String?
  /// The episode screens open on the navigation stack, the last one on top (the one shown).
  public var episodeScreens: [EpisodeView]

  /// One counter of the list.
  public struct CounterView: Codable, Equatable, Sendable {
    public var id: UUID
    public var count: Int
    public var fact: String?
    public var factError: String?
    public var isFactRequestInFlight: Bool
    public var isRandomNumberRequestInFlight: Bool
    public var randomNumberError: String?
    public var isTimerOn: Bool
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

  /// The settings form.
  public struct SettingsView: Codable, Equatable, Sendable {
    public var digest: String
    public var displayName: String
    public var displayNameError: String?
    public var enableNotifications: Bool
    public var isHapticFeedbackEnabled: Bool
    public var protectMyPosts: Bool
    public var sendEmailNotifications: Bool
    public var sendMobileNotifications: Bool
    public var temperatureUnit: String
    /// Why the settings could not be loaded or saved (they stay in the session).
    public var storageError: String?
    /// The reset confirmation, while it is shown (`settings.confirmReset` / `settings.cancelReset`).
    public var resetConfirmation: Confirmation?
  }

  /// A confirmation dialog: a title, a message and the label of its confirming button (the other
  /// button cancels).
  public struct Confirmation: Codable, Equatable, Sendable {
    public var title: String
    public var message: String?
    public var confirm: String
  }

  /// One episode row.
  public struct EpisodeView: Codable, Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var isFavorite: Bool
    /// The failure alert, while it is shown.
    public var alert: Alert?
  }

  /// An alert; its only button dismisses it (`episode.dismissAlert`).
  public struct Alert: Codable, Equatable, Sendable {
    /// e.g. `Favoriting failed.`
    public var title: String
    public var message: String?

    init?<Action>(_ alert: AlertState<Action>?) {
      guard let alert else { return nil }
      self.title = alert.title.string
      self.message = alert.message?.string
    }
  }
}

extension StateView {
  /// The snapshot of `state`.
  public init(_ state: AppFeature.State) {
    self.header = state.header
    if case .confirmRemoval(let alert) = state.destination {
      self.removalConfirmation = Confirmation(
        title: alert.title.string, message: alert.message?.string,
        confirm: alert.buttons.first?.label.string ?? "OK")
    } else {
      self.removalConfirmation = nil
    }
    self.selectedTab = state.selectedTab.rawValue
    self.counters = state.counters.map {
      CounterView(
        id: $0.id, count: $0.count, fact: $0.fact, factError: $0.factError,
        isFactRequestInFlight: $0.isFactRequestInFlight,
        isRandomNumberRequestInFlight: $0.isRandomNumberRequestInFlight,
        randomNumberError: $0.randomNumberError, isTimerOn: $0.isTimerOn)
    }
    let search = state.search
    self.search = SearchView(
      query: search.searchQuery,
      isSearchInFlight: search.isSearchInFlight,
      results: search.results.map {
        Place(
          id: $0.id, name: $0.name, admin1: $0.admin1, country: $0.country,
          latitude: $0.latitude, longitude: $0.longitude)
      },
      forecastRequestInFlightID: search.resultForecastRequestInFlight?.id,
      weather: search.weather.map { weather in
        Weather(
          id: weather.id,
          days: weather.days.map {
            Weather.Day(
              date: Self.day($0.date), min: $0.temperatureMin, max: $0.temperatureMax,
              unit: $0.temperatureMaxUnit)
          },
          isEstimate: weather.isEstimate)
      },
      errorMessage: search.errorMessage,
      temperatureUnit: search.temperatureUnit.rawValue
    )
    let settings = state.settings
    self.settings = SettingsView(
      digest: settings.digest.rawValue,
      displayName: settings.displayName,
      displayNameError: settings.displayNameError,
      enableNotifications: settings.enableNotifications,
      isHapticFeedbackEnabled: settings.isHapticFeedbackEnabled,
      protectMyPosts: settings.protectMyPosts,
      sendEmailNotifications: settings.sendEmailNotifications,
      sendMobileNotifications: settings.sendMobileNotifications,
      temperatureUnit: settings.temperatureUnit.rawValue,
      storageError: settings.storageError,
      resetConfirmation: settings.destination.flatMap {
        guard case .confirmReset(let dialog) = $0 else { return nil }
        return Confirmation(
          title: dialog.title.string, message: dialog.message?.string,
          confirm: dialog.buttons.first?.label.string ?? "OK")
      }
    )
    self.episodes = state.episodes.episodes.map {
      EpisodeView(id: $0.id, title: $0.title, isFavorite: $0.isFavorite, alert: Alert($0.alert))
    }
    self.episodesError = state.episodes.loadError
    self.episodeScreens = state.episodes.path.map {
      EpisodeView(id: $0.id, title: $0.title, isFavorite: $0.isFavorite, alert: Alert($0.alert))
    }
  }

  /// `yyyy-MM-dd` of a forecast day (days are midnight UTC of their date).
  private static func day(_ date: Date) -> String {
    let components = Calendar(identifier: .iso8601).dateComponents(
      in: TimeZone(identifier: "UTC") ?? .current, from: date)
    let (year, month, day) = (components.year ?? 0, components.month ?? 0, components.day ?? 0)
    return String(format: "%04d-%02d-%02d", year, month, day)
  }
}
