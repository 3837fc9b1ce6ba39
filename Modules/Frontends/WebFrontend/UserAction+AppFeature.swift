import AppFeature
import ComposableArchitecture
import CounterFeature
import EpisodesFeature
import Foundation
import SearchFeature
import SettingsFeature

extension UserAction {
  /// The `AppFeature` action for this user action, if what it names exists in `state`.
  ///
  /// The search query and submit actions are not mapped here: the session sends them through its
  /// debouncer.
  ///
  /// - Throws: ``APIError`` 422 when a counter, episode or search result id is not in `state`,
  ///   409 when an episode has no alert to dismiss. The runtime's "missing element" check is
  ///   therefore never reached.
  func appAction(validatingAgainst state: AppFeature.State) throws(APIError) -> AppFeature.Action {
    switch self {
    case .selectTab(let tab):
      return .tabSelected(tab)
    case .addCounter:
      return .addCounterButtonTapped
    case .removeCounter(let id):
      try Self.requireCounter(id, in: state)
      return .removeCounterButtonTapped(id: id)
    case .confirmRemoveCounter:
      guard case .confirmRemoval(let alert) = state.destination,
        let remove = alert.buttons.first?.action.action
      else {
        throw APIError(.conflict, "no removal confirmation is shown")
      }
      return .destination(.presented(.confirmRemoval(remove)))
    case .cancelRemoveCounter:
      guard case .confirmRemoval = state.destination else {
        throw APIError(.conflict, "no removal confirmation is shown")
      }
      return .destination(.dismiss)
    case .incrementCounter(let id):
      return try Self.counter(id, .incrementButtonTapped, in: state)
    case .decrementCounter(let id):
      return try Self.counter(id, .decrementButtonTapped, in: state)
    case .requestFact(let id):
      return try Self.counter(id, .factButtonTapped, in: state)
    case .requestRandomNumber(let id):
      return try Self.counter(id, .randomNumberButtonTapped, in: state)
    case .toggleTimer(let id):
      return try Self.counter(id, .timerButtonTapped, in: state)
    case .changeSearchQuery(let query):
      return .search(.searchQueryChanged(query))
    case .submitSearch:
      return .search(.searchQueryChangeDebounced)
    case .selectSearchResult(let id):
      guard let result = state.search.results.first(where: { $0.id == id }) else {
        throw APIError(
          .unprocessableContent, "no search result with id \(id) in the current results")
      }
      return .search(.searchResultTapped(result))
    case .changeSetting(let change):
      return .settings(.binding(change.bindingAction))
    case .resetSettings:
      return .settings(.resetButtonTapped)
    case .confirmResetSettings:
      guard case .confirmReset = state.settings.destination else {
        throw APIError(.conflict, "no reset confirmation is shown")
      }
      return .settings(.destination(.presented(.confirmReset(.reset))))
    case .cancelResetSettings:
      guard case .confirmReset = state.settings.destination else {
        throw APIError(.conflict, "no reset confirmation is shown")
      }
      return .settings(.destination(.dismiss))
    case .toggleFavorite(let id):
      try Self.requireEpisode(id, in: state)
      return .episodes(.episodes(.element(id: id, action: .favorite(.buttonTapped))))
    case .dismissFavoriteAlert(let id):
      try Self.requireEpisode(id, in: state)
      guard state.episodes.episodes[id: id]?.alert != nil else {
        throw APIError(.conflict, "episode \(id.uuidString) has no alert to dismiss")
      }
      return .episodes(.episodes(.element(id: id, action: .favorite(.alert(.dismiss)))))
    case .openEpisode(let id):
      try Self.requireEpisode(id, in: state)
      return .episodes(.episodeTapped(id))
    case .toggleScreenFavorite:
      return try Self.topScreen(.favorite(.buttonTapped), in: state)
    case .dismissScreenAlert:
      guard state.episodes.path.last?.alert != nil else {
        throw APIError(.conflict, "the episode screen has no alert to dismiss")
      }
      return try Self.topScreen(.favorite(.alert(.dismiss)), in: state)
    case .closeScreen:
      return try Self.topScreen(.closeButtonTapped, in: state)
    }
  }

  /// `action` for the episode screen on top of the stack.
  private static func topScreen(
    _ action: EpisodeDetail.Action, in state: AppFeature.State
  ) throws(APIError) -> AppFeature.Action {
    guard let id = state.episodes.path.ids.last else {
      throw APIError(.conflict, "no episode screen is open")
    }
    return .episodes(.path(.element(id: id, action: action)))
  }

  private static func counter(
    _ id: UUID, _ action: Counter.Action, in state: AppFeature.State
  ) throws(APIError) -> AppFeature.Action {
    try requireCounter(id, in: state)
    return .counters(.element(id: id, action: action))
  }

  private static func requireCounter(_ id: UUID, in state: AppFeature.State) throws(APIError) {
    guard state.counters[id: id] != nil else {
      throw APIError(.unprocessableContent, "no counter with id \(id.uuidString)")
    }
  }

  private static func requireEpisode(_ id: UUID, in state: AppFeature.State) throws(APIError) {
    guard state.episodes.episodes[id: id] != nil else {
      throw APIError(.unprocessableContent, "no episode with id \(id.uuidString)")
    }
  }
}

extension SettingChange {
  /// The binding action that writes this change.
  var bindingAction: BindingAction<Settings.State> {
    switch self {
    case .digest(let value): .set(\.digest, value)
    case .displayName(let value): .set(\.displayName, value)
    case .enableNotifications(let value): .set(\.enableNotifications, value)
    case .sendEmailNotifications(let value): .set(\.sendEmailNotifications, value)
    case .sendMobileNotifications(let value): .set(\.sendMobileNotifications, value)
    case .protectMyPosts(let value): .set(\.protectMyPosts, value)
    case .isHapticFeedbackEnabled(let value): .set(\.isHapticFeedbackEnabled, value)
    case .temperatureUnit(let value): .set(\.temperatureUnit, value)
    }
  }
}
