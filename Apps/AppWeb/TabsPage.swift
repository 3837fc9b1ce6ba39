import AppFeature
import ComposableArchitecture
import WebFrontend

/// The app's frame on the page: the greeting and the tab bar.
public enum TabsPage: WebFeature {
  public static let routes: [WebRoute<AppFeature>] = [
    // {"type":"tab.select","tab":"search"}
    WebRoute("tab.select", ["tab": "one of counters, search, settings, episodes"]) {
      fields throws(DecodingFailure) in
      try fields.choice("tab", AppFeature.Tab.self)
    } resolve: { tab, _ in
      .tabSelected(tab)
    }
  ]

  public struct View: Codable, Equatable, Sendable {
    /// `AppFeature.State.header`, e.g. `"Hello, Blob!"`.
    public var header: String
    /// The tab on screen: `counters`, `search`, `settings` or `episodes`.
    public var selectedTab: String
  }

  public static func view(of state: AppFeature.State) -> View {
    View(header: state.header, selectedTab: state.selectedTab.rawValue)
  }
}
