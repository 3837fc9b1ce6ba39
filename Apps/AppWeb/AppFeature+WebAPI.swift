import AppFeature
import CounterWeb
import EpisodesWeb
import SearchWeb
import SettingsWeb
import WebFrontend

extension AppFeature {
  /// The app's web API: every feature the page reaches, one line each, in the order their keys
  /// appear in the state JSON and their actions in the catalogue. Each feature's part is written
  /// against that feature alone (its adapter module, `Modules/Frontends/Adapters/<Feature>/Web`)
  /// and lifted here with the key path and case key path of its `Scope`; the app's own frame (the
  /// greeting, the tabs) is ``TabsPage``. A new feature adds its line here.
  public static let webAPI = WebAPI<AppFeature>([
    .feature(TabsPage.self),
    .feature(CounterListPage.self, state: \.counterList, action: \.counterList),
    .feature(SearchPage.self, state: \.search, action: \.search),
    .feature(SettingsPage.self, state: \.settings, action: \.settings),
    .feature(EpisodesPage.self, state: \.episodes, action: \.episodes),
  ])
}

extension WebApp {
  /// The app as the server serves it: a session runs ``AppFeature`` from a fresh state, loads what
  /// the visitor kept (`.task`), and saves its ``AppFeature/Snapshot`` (counters, selected tab),
  /// which `.restore` puts back in a resumed session. The page has an address per tab.
  public static let app = WebApp(
    AppFeature(),
    initialState: { AppFeature.State() },
    api: AppFeature.webAPI,
    pages: AppFeature.Tab.allCases.map { "/\($0.rawValue)" },
    start: .task,
    kept: \.snapshot,
    restore: { .restore($0) })
}
