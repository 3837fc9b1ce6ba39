import AppFeature
import AppRecording
import CounterWeb
import EpisodesWeb
import SearchWeb
import SettingsWeb
import WebFrontend

extension AppFeature {
  /// The app's web API: every feature the page reaches, one line each, in the order their keys
  /// appear in the state JSON, their actions in the catalogue and their sections (tabs) on the
  /// page. Each feature's part — routes, view, section markup and module — is written against that
  /// feature alone (its adapter folder, `Modules/Frontends/Adapters/<Feature>/Web`) and lifted
  /// here with the key path and case key path of its `Scope`; the app's own frame (the greeting,
  /// the tab selection) is ``TabsPage``. A new feature adds its line here.
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
  /// which `.restore` puts back in a resumed session. The page has a tab, and an address, per
  /// feature section.
  public static let app = WebApp(
    AppFeature(),
    title: "Composable App",
    initialState: { AppFeature.State() },
    api: AppFeature.webAPI,
    start: .task,
    kept: \.snapshot,
    restore: { .restore($0) },
    recorded: AppFeature.recorded)
}
