// swift-format-ignore-file
// Written by `record-to-test` from a recorded session; regenerate it rather than edit it.
// Record: sample-session.jsonl (58 steps, 16 dependency answers).

import ComposableArchitecture
import ComposableRecording
import Foundation
import Testing

@testable import AppFeature
@testable import CounterFeature
@testable import EpisodesFeature
@testable import FactClient
@testable import FavoriteClient
@testable import FavoritingFeature
@testable import RandomNumberClient
@testable import SearchFeature
@testable import SettingsClient
@testable import SettingsFeature
@testable import WeatherClient

@MainActor
struct SampleSessionTests {
  @Test
  func sampleSession() async {
    let id1 = UUID(uuidString: "B1187534-18A3-41D6-842E-7B35CB1CEF8A")!
    let id2 = UUID(0)
    let id3 = UUID(uuidString: "8D19F9BD-9C69-4810-AE85-710EC5AFA14D")!

    let clock = TestClock()
    let favoriteClientFavoritesReplies = RecordedReplies<Set<UUID>>("favoriteClient.favorites", [
      .success([]),
    ])
    let settingsClientLoadReplies = RecordedReplies<StoredSettings>("settingsClient.load", [
      .success(StoredSettings(
        digest: nil,
        displayName: nil,
        enableNotifications: nil,
        isHapticFeedbackEnabled: nil,
        protectMyPosts: nil,
        sendEmailNotifications: nil,
        sendMobileNotifications: nil,
        temperatureUnit: nil
      )),
    ])
    let factClientFetchReplies = RecordedReplies<String>("factClient.fetch", [
      .success("1 is the answer."),  // 1
    ])
    let randomNumberClientFetchReplies = RecordedReplies<Int>("randomNumberClient.fetch", [
      .success(7),  // 1, 100
    ])
    let uuidReplies = RecordedReplies<UUID>("uuid", [
      .success(id1),
    ])
    let weatherClientSearchReplies = RecordedReplies<GeocodingSearch>("weatherClient.search", [
      .success(GeocodingSearch(
        results: [
          GeocodingSearch.Result(
            country: "United Kingdom",
            latitude: 51.50853,
            longitude: -0.12574,
            id: 2643743,
            name: "London",
            admin1: "England"
          ),
          GeocodingSearch.Result(
            country: "Canada",
            latitude: 42.98339,
            longitude: -81.23304,
            id: 6058560,
            name: "London",
            admin1: "Ontario"
          ),
        ]
      )),  // "London"
      .failure(RecordedError("Open-Meteo geocoding: HTTP 500: fixture failure")),  // "fail"
    ])
    let weatherClientForecastReplies = RecordedReplies<Forecast>("weatherClient.forecast", [
      .success(Forecast(
        daily: Forecast.Daily(
          temperatureMax: [16.5, 19.0, 21.6, 22.0, 22.4, 18.8, 15.7, 19.2],
          temperatureMin: [12.8, 12.2, 12.5, 13.7, 14.6, 12.7, 10.6, 9.3],
          time: [
            Date(timeIntervalSince1970: 1748304000.0),
            Date(timeIntervalSince1970: 1748390400.0),
            Date(timeIntervalSince1970: 1748476800.0),
            Date(timeIntervalSince1970: 1748563200.0),
            Date(timeIntervalSince1970: 1748649600.0),
            Date(timeIntervalSince1970: 1748736000.0),
            Date(timeIntervalSince1970: 1748822400.0),
            Date(timeIntervalSince1970: 1748908800.0),
          ]
        ),
        dailyUnits: Forecast.DailyUnits(temperatureMax: "°C", temperatureMin: "°C"),
        isEstimate: false
      )),  // GeocodingSearch.Result(country: "United Kingdom", latitude:…
    ])
    let settingsClientSaveReplies = RecordedReplies<Void>("settingsClient.save", [
      .success(()),  // StoredSettings(digest: "daily", displayName: "A", enableNot…
      .success(()),  // StoredSettings(digest: "daily", displayName: "An", enableNo…
      .success(()),  // StoredSettings(digest: "daily", displayName: "Ann", enableN…
      .success(()),  // StoredSettings(digest: "weekly", displayName: "Ann", enable…
      .success(()),  // StoredSettings(digest: "weekly", displayName: "Ann", enable…
      .success(()),  // StoredSettings(digest: "weekly", displayName: "Ann", enable…
      .success(()),  // StoredSettings(digest: "daily", displayName: "", enableNoti…
    ])
    let favoriteClientFavoriteReplies = RecordedReplies<Bool>("favoriteClient.favorite", [
      .failure(RecordedError("Favoriting failed.")),  // id2, true
    ])
    var initialState = withDependencies {
      $0.uuid = .incrementing
      $0.date = .constant(Date(timeIntervalSince1970: 0))
    } operation: {
      AppFeature.State()
    }
    initialState.counterList.counters[id: id2] = nil
    initialState.counterList.counters[id: id3] = Counter.State(
      id: id3,
      count: 0,
      fact: nil,
      factError: nil,
      isFactRequestInFlight: false,
      isRandomNumberRequestInFlight: false,
      randomNumberError: nil,
      isTimerOn: false
    )
    let store = TestStore(initialState: initialState) {
      AppFeature()
    } withDependencies: {
      $0.continuousClock = clock
      $0.favoriteClient.favorites = { try await favoriteClientFavoritesReplies.reply() }
      $0.settingsClient.load = { try await settingsClientLoadReplies.reply() }
      $0.factClient.fetch = { _ in try await factClientFetchReplies.reply() }
      $0.randomNumberClient.fetch = { _, _ in try await randomNumberClientFetchReplies.reply() }
      $0.uuid = UUIDGenerator { uuidReplies.next(or: UUID()) }
      $0.weatherClient.search = { _ in try await weatherClientSearchReplies.reply() }
      $0.weatherClient.forecast = { _ in try await weatherClientForecastReplies.reply() }
      $0.settingsClient.save = { _ in try await settingsClientSaveReplies.reply() }
      $0.favoriteClient.favorite = { _, _ in try await favoriteClientFavoriteReplies.reply() }
    }

    // Step 1: sent
    await store.send(.task)

    // Step 2: received
    await store.receive(\.episodes.task) {
      $0.episodes.chosenWhileLoading = []
    }

    // Step 3: received
    await store.receive(\.settings.task) {
      $0.settings.isLoading = true
    }

    // Step 4: received
    favoriteClientFavoritesReplies.release(1)
    await store.receive(\.episodes.favoritesResponse.success) {
      $0.episodes.chosenWhileLoading = nil
    }

    // Step 5: received
    settingsClientLoadReplies.release(1)
    await store.receive(\.settings.loadResponse.success) {
      $0.settings.isLoading = false
    }

    // Step 6: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .incrementButtonTapped)))) {
      $0.counterList.counters[id: id3]?.count = 1
    }

    // Step 7: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .incrementButtonTapped)))) {
      $0.counterList.counters[id: id3]?.count = 2
    }

    // Step 8: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .decrementButtonTapped)))) {
      $0.counterList.counters[id: id3]?.count = 1
    }

    // Step 9: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .factButtonTapped)))) {
      $0.counterList.counters[id: id3]?.isFactRequestInFlight = true
    }

    // Step 10: received
    factClientFetchReplies.release(1)
    await store.receive(\.counterList.counters[id: id3].factResponse.success, "1 is the answer.") {
      $0.counterList.counters[id: id3]?.fact = "1 is the answer."
      $0.counterList.counters[id: id3]?.isFactRequestInFlight = false
    }

    // Step 11: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .randomNumberButtonTapped)))) {
      $0.counterList.counters[id: id3]?.isRandomNumberRequestInFlight = true
    }

    // Step 12: received
    randomNumberClientFetchReplies.release(1)
    await store.receive(\.counterList.counters[id: id3].randomNumberResponse.success, 7) {
      $0.counterList.counters[id: id3]?.count = 7
      $0.counterList.counters[id: id3]?.isRandomNumberRequestInFlight = false
    }

    // Step 13: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .timerButtonTapped)))) {
      $0.counterList.counters[id: id3]?.isTimerOn = true
    }

    // Step 14: received
    await clock.advance(by: .seconds(1))
    await store.receive(\.counterList.counters[id: id3].timerTicked) {
      $0.counterList.counters[id: id3]?.count = 8
    }

    // Step 15: received
    await clock.advance(by: .seconds(1))
    await store.receive(\.counterList.counters[id: id3].timerTicked) {
      $0.counterList.counters[id: id3]?.count = 9
    }

    // Step 16: sent
    await store.send(.counterList(.counters(.element(id: id3, action: .timerButtonTapped)))) {
      $0.counterList.counters[id: id3]?.isTimerOn = false
    }

    // Step 17: sent
    await store.send(.counterList(.addCounterButtonTapped)) {
      $0.counterList.counters[id: id1] = Counter.State(
        id: id1,
        count: 0,
        fact: nil,
        factError: nil,
        isFactRequestInFlight: false,
        isRandomNumberRequestInFlight: false,
        randomNumberError: nil,
        isTimerOn: false
      )
    }

    // Step 18: sent
    await store.send(.counterList(.removeCounterButtonTapped(id: id1))) {
      $0.counterList.destination = .confirmRemoval(
        AlertState {
          TextState("Remove Counter 2?")
        } actions: {
          ButtonState(role: .destructive, action: .remove(id: id1)) {
            TextState("Remove")
          }
          ButtonState(role: .cancel) {
            TextState("Cancel")
          }
        } message: {
          TextState("Its count, fact and timer go with it.")
        }
      )
    }

    // Step 19: sent
    await store.send(.counterList(.destination(.presented(.confirmRemoval(.remove(id: id1)))))) {
      $0.counterList.counters[id: id1] = nil
      $0.counterList.destination = nil
    }

    // Step 20: sent
    await store.send(.tabSelected(.search)) {
      $0.selectedTab = .search
    }

    // Step 21: sent
    await store.send(.search(.searchQueryChanged("L"))) {
      $0.search.searchQuery = "L"
      $0.search.isSearchInFlight = true
    }

    // Step 22: sent
    await store.send(.search(.searchQueryChanged("Lo"))) {
      $0.search.searchQuery = "Lo"
    }

    // Step 23: sent
    await store.send(.search(.searchQueryChanged("Lon"))) {
      $0.search.searchQuery = "Lon"
    }

    // Step 24: sent
    await store.send(.search(.searchQueryChanged("Lond"))) {
      $0.search.searchQuery = "Lond"
    }

    // Step 25: sent
    await store.send(.search(.searchQueryChanged("Londo"))) {
      $0.search.searchQuery = "Londo"
    }

    // Step 26: sent
    await store.send(.search(.searchQueryChanged("London"))) {
      $0.search.searchQuery = "London"
    }

    // Step 27: received
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.search.searchQueryChangeDebounced)

    // Step 28: received
    weatherClientSearchReplies.release(1)
    await store.receive(\.search.searchResponse.success) {
      $0.search.results = [
        GeocodingSearch.Result(
          country: "United Kingdom",
          latitude: 51.50853,
          longitude: -0.12574,
          id: 2643743,
          name: "London",
          admin1: "England"
        ),
        GeocodingSearch.Result(
          country: "Canada",
          latitude: 42.98339,
          longitude: -81.23304,
          id: 6058560,
          name: "London",
          admin1: "Ontario"
        ),
      ]
      $0.search.isSearchInFlight = false
    }

    // Step 29: sent
    await store.send(.search(
      .searchResultTapped(
        GeocodingSearch.Result(
          country: "United Kingdom",
          latitude: 51.50853,
          longitude: -0.12574,
          id: 2643743,
          name: "London",
          admin1: "England"
        )
      )
    )) {
      $0.search.resultForecastRequestInFlight = GeocodingSearch.Result(
        country: "United Kingdom",
        latitude: 51.50853,
        longitude: -0.12574,
        id: 2643743,
        name: "London",
        admin1: "England"
      )
    }

    // Step 30: received
    weatherClientForecastReplies.release(1)
    await store.receive(\.search.forecastResponse) {
      $0.search.resultForecastRequestInFlight = nil
      $0.search.weather = Search.State.Weather(
        id: 2643743,
        days: [
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748304000.0),
            temperatureMax: 16.5,
            temperatureMaxUnit: "°C",
            temperatureMin: 12.8,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748390400.0),
            temperatureMax: 19.0,
            temperatureMaxUnit: "°C",
            temperatureMin: 12.2,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748476800.0),
            temperatureMax: 21.6,
            temperatureMaxUnit: "°C",
            temperatureMin: 12.5,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748563200.0),
            temperatureMax: 22.0,
            temperatureMaxUnit: "°C",
            temperatureMin: 13.7,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748649600.0),
            temperatureMax: 22.4,
            temperatureMaxUnit: "°C",
            temperatureMin: 14.6,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748736000.0),
            temperatureMax: 18.8,
            temperatureMaxUnit: "°C",
            temperatureMin: 12.7,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748822400.0),
            temperatureMax: 15.7,
            temperatureMaxUnit: "°C",
            temperatureMin: 10.6,
            temperatureMinUnit: "°C"
          ),
          Search.State.Weather.Day(
            date: Date(timeIntervalSince1970: 1748908800.0),
            temperatureMax: 19.2,
            temperatureMaxUnit: "°C",
            temperatureMin: 9.3,
            temperatureMinUnit: "°C"
          ),
        ],
        isEstimate: false
      )
    }

    // Step 31: sent
    await store.send(.search(.searchQueryChanged("Londo"))) {
      $0.search.searchQuery = "Londo"
      $0.search.isSearchInFlight = true
    }

    // Step 32: sent
    await store.send(.search(.searchQueryChanged("Lond"))) {
      $0.search.searchQuery = "Lond"
    }

    // Step 33: sent
    await store.send(.search(.searchQueryChanged("Lon"))) {
      $0.search.searchQuery = "Lon"
    }

    // Step 34: sent
    await store.send(.search(.searchQueryChanged("Lo"))) {
      $0.search.searchQuery = "Lo"
    }

    // Step 35: sent
    await store.send(.search(.searchQueryChanged("L"))) {
      $0.search.searchQuery = "L"
    }

    // Step 36: sent
    await store.send(.search(.searchQueryChanged(""))) {
      $0.search.results = []
      $0.search.searchQuery = ""
      $0.search.weather = nil
      $0.search.isSearchInFlight = false
    }

    // Step 37: sent
    await store.send(.search(.searchQueryChanged("f"))) {
      $0.search.searchQuery = "f"
      $0.search.isSearchInFlight = true
    }

    // Step 38: sent
    await store.send(.search(.searchQueryChanged("fa"))) {
      $0.search.searchQuery = "fa"
    }

    // Step 39: sent
    await store.send(.search(.searchQueryChanged("fai"))) {
      $0.search.searchQuery = "fai"
    }

    // Step 40: sent
    await store.send(.search(.searchQueryChanged("fail"))) {
      $0.search.searchQuery = "fail"
    }

    // Step 41: received
    await clock.advance(by: .milliseconds(300))
    await store.receive(\.search.searchQueryChangeDebounced)

    // Step 42: received
    weatherClientSearchReplies.release(2)
    await store.receive(\.search.searchResponse.failure) {
      $0.search.errorMessage = "Open-Meteo geocoding: HTTP 500: fixture failure"
      $0.search.isSearchInFlight = false
    }

    // Step 43: sent
    await store.send(.tabSelected(.settings)) {
      $0.selectedTab = .settings
    }

    // Step 44: sent
    await store.send(.settings(.binding(.set(\.displayName, "A")))) {
      $0.settings.displayName = "A"
      $0.settings.$publicName.withLock { $0 = "A" }
    }

    // Step 45: sent
    await store.send(.settings(.binding(.set(\.displayName, "An")))) {
      $0.settings.displayName = "An"
      $0.settings.$publicName.withLock { $0 = "An" }
    }

    // Step 46: sent
    await store.send(.settings(.binding(.set(\.displayName, "Ann")))) {
      $0.settings.displayName = "Ann"
      $0.settings.$publicName.withLock { $0 = "Ann" }
    }

    // Step 47: sent
    await store.send(.settings(.binding(.set(\.digest, .weekly)))) {
      $0.settings.digest = .weekly
    }

    // Step 48: sent
    await store.send(.settings(.binding(.set(\.enableNotifications, true)))) {
      $0.settings.enableNotifications = true
    }

    // Step 49: sent
    await store.send(.settings(.binding(.set(\.temperatureUnit, .fahrenheit)))) {
      $0.search.temperatureUnit = .fahrenheit
      $0.settings.temperatureUnit = .fahrenheit
    }

    // Step 50: sent
    await store.send(.settings(.resetButtonTapped)) {
      $0.settings.destination = .confirmReset(
        ConfirmationDialogState(titleVisibility: .visible) {
          TextState("Reset all settings?")
        } actions: {
          ButtonState(role: .destructive, action: .reset) {
            TextState("Reset")
          }
          ButtonState(role: .cancel) {
            TextState("Cancel")
          }
        } message: {
          TextState("Every setting goes back to its default.")
        }
      )
    }

    // Step 51: sent
    await store.send(.settings(.destination(.presented(.confirmReset(.reset))))) {
      $0.search.temperatureUnit = .celsius
      $0.settings.destination = nil
      $0.settings.digest = .daily
      $0.settings.displayName = ""
      $0.settings.$publicName.withLock { $0 = "" }
      $0.settings.enableNotifications = false
      $0.settings.temperatureUnit = .celsius
    }

    // Step 52: sent
    await store.send(.tabSelected(.episodes)) {
      $0.selectedTab = .episodes
    }

    // Step 53: sent
    await store.send(.episodes(.episodes(.element(id: id2, action: .favorite(.buttonTapped))))) {
      $0.episodes.episodes[id: id2]?.$favoriting.withLock {
        $0.isFavorite = true
        $0.saving = true
      }
    }

    // Step 54: received
    favoriteClientFavoriteReplies.release(1)
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes.episodes[id: id2].favorite.response.failure) {
      $0.episodes.episodes[id: id2]?.$favoriting.withLock {
        $0.alert = AlertState {
          TextState("Favoriting failed.")
        }
        $0.saving = nil
      }
    }

    // Step 55: sent
    await store.send(.episodes(.episodes(.element(id: id2, action: .favorite(.alert(.dismiss)))))) {
      $0.episodes.episodes[id: id2]?.$favoriting.withLock {
        $0.alert = nil
        $0.isFavorite = false
      }
    }

    // Step 56: sent
    await store.send(.episodes(.episodeTapped(id2))) {
      $0.episodes.path[id: 0] = EpisodeDetail.State(
        id: id2,
        favoriting: Shared(value: FavoritingState<UUID>(
          alert: nil,
          id: id2,
          isFavorite: false,
          saved: false,
          saving: nil
        )),
        title: "Functions"
      )
    }

    // Step 57: sent
    await store.send(.episodes(.path(.element(id: 0, action: .closeButtonTapped))))

    // Step 58: received
    await store.receive(\.episodes.path.popFrom, 0) {
      $0.episodes.path[id: 0] = nil
    }

    // Answers no recorded action waited for (their effects sent nothing after).
    settingsClientSaveReplies.release(1)
    settingsClientSaveReplies.release(2)
    settingsClientSaveReplies.release(3)
    settingsClientSaveReplies.release(4)
    settingsClientSaveReplies.release(5)
    settingsClientSaveReplies.release(6)
    settingsClientSaveReplies.release(7)
    await store.finish()
  }
}
