import AppFeature
import AppWeb
import CounterWeb
import EpisodesWeb
import Foundation
import SearchWeb
import SettingsWeb
import WebFrontend
import WebSessions

/// What a Swift client of the API reads back: the state JSON decoded through each feature's view
/// type, one member per key (`state.counters`, `state.search`, …), as the page reads it.
@dynamicMemberLookup
struct StateView: Decodable, Equatable, CustomStringConvertible {
  let tabs: TabsPage.View
  let countersPart: CounterListPage.View
  let searchPart: SearchPage.View
  let settingsPart: SettingsPage.View
  let episodesPart: EpisodesPage.View

  init(from decoder: any Decoder) throws {
    tabs = try TabsPage.View(from: decoder)
    countersPart = try CounterListPage.View(from: decoder)
    searchPart = try SearchPage.View(from: decoder)
    settingsPart = try SettingsPage.View(from: decoder)
    episodesPart = try EpisodesPage.View(from: decoder)
  }

  /// The state of a snapshot's JSON.
  init(json: Data) throws {
    self = try JSONDecoder().decode(Self.self, from: json)
  }

  subscript<Value>(dynamicMember path: KeyPath<TabsPage.View, Value>) -> Value {
    tabs[keyPath: path]
  }
  subscript<Value>(dynamicMember path: KeyPath<CounterListPage.View, Value>) -> Value {
    countersPart[keyPath: path]
  }
  subscript<Value>(dynamicMember path: KeyPath<SearchPage.View, Value>) -> Value {
    searchPart[keyPath: path]
  }
  subscript<Value>(dynamicMember path: KeyPath<SettingsPage.View, Value>) -> Value {
    settingsPart[keyPath: path]
  }
  subscript<Value>(dynamicMember path: KeyPath<EpisodesPage.View, Value>) -> Value {
    episodesPart[keyPath: path]
  }

  static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.tabs, lhs.countersPart, lhs.searchPart) == (rhs.tabs, rhs.countersPart, rhs.searchPart)
      && (lhs.settingsPart, lhs.episodesPart) == (rhs.settingsPart, rhs.episodesPart)
  }

  var description: String {
    "\(tabs) \(countersPart) \(searchPart) \(settingsPart) \(episodesPart)"
  }
}

/// A snapshot as a client reads it (`POST /api/session`, `GET /api/session/state`, actions,
/// events).
struct SessionResponse: Decodable, Equatable {
  var revision: Int
  var state: StateView
  var generation: String
}

extension SessionRegistry {
  /// The current state of a session, read back as a client reads it.
  func state(of id: String) -> StateView? {
    view(of: id).flatMap { try? StateView(json: $0) }
  }
}

/// The actions the tests send, by what they do; the server knows them only by their JSON form.
extension UserAction {
  static func selectTab(_ tab: AppFeature.Tab) -> Self {
    Self("tab.select", ["tab": .string(tab.rawValue)])
  }
  static let addCounter = Self("counter.add")
  static func removeCounter(id: UUID) -> Self { Self("counter.remove", id: id) }
  static let confirmRemoveCounter = Self("counter.confirmRemove")
  static let cancelRemoveCounter = Self("counter.cancelRemove")
  static func incrementCounter(id: UUID) -> Self { Self("counter.increment", id: id) }
  static func decrementCounter(id: UUID) -> Self { Self("counter.decrement", id: id) }
  static func requestFact(id: UUID) -> Self { Self("counter.fact", id: id) }
  static func requestRandomNumber(id: UUID) -> Self { Self("counter.random", id: id) }
  static func toggleTimer(id: UUID) -> Self { Self("counter.timer", id: id) }
  static func changeSearchQuery(_ query: String) -> Self {
    Self("search.query", ["query": .string(query)])
  }
  static let submitSearch = Self("search.submit")
  static func selectSearchResult(id: Int) -> Self {
    Self("search.select", ["id": .number(String(id))])
  }
  static func changeSetting(_ change: SettingChange) -> Self {
    Self("settings.set", ["field": .string(change.field), "value": change.value])
  }
  static let resetSettings = Self("settings.reset")
  static let confirmResetSettings = Self("settings.confirmReset")
  static let cancelResetSettings = Self("settings.cancelReset")
  static func toggleFavorite(episodeID: UUID) -> Self { Self("episode.favorite", id: episodeID) }
  static func dismissFavoriteAlert(episodeID: UUID) -> Self {
    Self("episode.dismissAlert", id: episodeID)
  }
  static func openEpisode(id: UUID) -> Self { Self("episode.open", id: id) }
  static let toggleFavoritesOnly = Self("episodes.favoritesOnly")
  static let toggleScreenFavorite = Self("screen.favorite")
  static let dismissScreenAlert = Self("screen.dismissAlert")
  static let closeScreen = Self("screen.close")
  static let popScreen = Self("screen.pop")

  private init(_ type: String, id: UUID) {
    self.init(type, ["id": .string(id.uuidString)])
  }
}
