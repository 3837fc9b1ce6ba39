import AppFeature
import ComposableArchitecture
import WebFrontend

/// The app's frame on the page: the greeting and the tab bar.
public enum TabsPage: WebFeature {
  public static let routes: [WebRoute<AppFeature>] = [
    // {"type":"tab.select","tab":"search"}
    WebRoute(
      "tab.select",
      ["tab": "one of " + AppFeature.Tab.allCases.map(\.rawValue).joined(separator: ", ")]
    ) {
      fields throws(DecodingFailure) in
      try fields.choice("tab", AppFeature.Tab.self)
    } resolve: { tab, _ in
      .tabSelected(tab)
    }
  ]

  public struct View: Codable, Equatable, Sendable {
    /// `AppFeature.State.header`, e.g. `"Hello, Blob!"`.
    public var header: String
    /// The tab on screen: an `AppFeature.Tab` raw value (`counters`, `search`, …).
    public var selectedTab: String
  }

  public static func view(of state: AppFeature.State) -> View {
    View(header: state.header, selectedTab: state.selectedTab.rawValue)
  }
}
