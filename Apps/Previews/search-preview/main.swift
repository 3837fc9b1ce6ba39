// search-preview: the weather search alone, full screen, as the app's Search tab shows it, on the
// embedded gazetteer and climate model (no network). It links the feature, its terminal screen
// and the offline weather client only: no server, no storage.
import ComposableArchitecture
import Foundation
import SearchFeature
import SearchTerminal
import TerminalFrontend
import WeatherClient
import WeatherClientOffline

// The gazetteer loads while the first screen is drawn, so that the first search does not wait.
Task.detached(priority: .utility) { _ = try? Gazetteer.bundled() }

exit(
  await TerminalPreview.main(
    "search-preview", Search(),
    registration: .single(
      .screen(SearchScreen.self), title: "Search",
      quit: { $0.isSearchInFlight ? .searchQueryChanged("") : nil }),
    dependencies: { $0.weatherClient = .offline() },
    initialState: { Search.State() }))
