import AppFeature
import AppRecording
import WebFrontend
import WebSessions

extension AppFeature {
  /// The app's web API: the app's own frame (the greeting, the tab selection: ``TabsPage``),
  /// then every tab's feature in the order of the features table, which is the order of their
  /// keys in the state JSON, of their actions in the catalogue and of their sections (tabs) on
  /// the page. Each feature's part — routes, view, section markup and module — is written
  /// against that feature alone (its adapter folder, `Modules/Frontends/Adapters/<Feature>/Web`)
  /// and lifted into the app with the key path and case key path of its `Scope`
  /// (``AppFeature/pages``, derived from the features table in `AppFeature+Pages.swift`).
  public static let webAPI = WebAPI<AppFeature>([.feature(TabsPage.self)] + pages)
}

extension WebApp {
  /// The app as the server serves it: a session runs ``AppFeature`` from a fresh state, loads what
  /// the visitor kept (`.task`), and saves its ``AppFeature/KeptState`` (counters, selected tab),
  /// which `.restore` puts back in a resumed session. The page has a tab, and an address, per
  /// feature section.
  public static let app = WebApp(
    AppFeature(),
    title: "Composable App",
    initialState: { AppFeature.State() },
    api: AppFeature.webAPI,
    start: .task,
    kept: \.kept,
    restore: { .restore($0) },
    recorded: AppFeature.recorded)
}
