import AppFeature
import WebFrontend

extension AppFeature {
  /// The app's web API: every feature the page reaches, one line each, in the order their keys
  /// appear in the state JSON and their actions in the catalogue. A new feature adds its
  /// ``WebFeature`` (a file in this module) here.
  public static let webAPI = WebAPI<AppFeature>([
    .feature(TabsWeb.self),
    .feature(CountersWeb.self),
    .feature(SearchWeb.self),
    .feature(SettingsWeb.self),
    .feature(EpisodesWeb.self),
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
