import ComposableArchitecture

/// What a root feature tells the terminal front end: its screens (one tab each, in order), which
/// tab is shown, the line at the top, and what to send when the session starts and ends.
///
/// The front end knows no feature: the app registers its four tabs where the app is composed, and
/// a feature's preview registers its one screen (``single(_:title:header:start:)``). Tab keys
/// (`1`…`N`, Tab, Shift-Tab) and the help line come from the tabs registered here.
///
/// ```swift
/// let registration = TerminalRegistration<Home>(
///   tabs: [
///     .init(title: "Counters", screen: .screen(CounterListScreen.self, state: \.counterList,
///                                              action: \.counterList)),
///     …
///   ],
///   selectedTab: { $0.selectedTab.index },
///   selectTab: { .tabSelected(Home.Tab.allCases[$0]) },
///   header: \.header,
///   start: .task)
/// ```
public struct TerminalRegistration<Root: Reducer>: Sendable where Root.Action: Sendable {
  /// One tab: its title in the tab bar and its screen.
  public struct Tab: Sendable {
    public var title: String
    public var screen: TerminalScreenPart<Root>

    public init(title: String, screen: TerminalScreenPart<Root>) {
      self.title = title
      self.screen = screen
    }
  }

  /// The tabs, in the order of their keys (`1` is the first).
  public var tabs: [Tab]
  /// The index in ``tabs`` of the tab the state shows.
  public var selectedTab: @Sendable (Root.State) -> Int
  /// The action that shows the tab at an index, or `nil` when the root has one screen.
  public var selectTab: (@Sendable (Int) -> Root.Action)?
  /// The line at the top of every screen.
  public var header: @Sendable (Root.State) -> String
  /// Sent once when the interactive session starts (loading what was kept), if any.
  public var start: Root.Action?
  /// Sent when the user quits, to drop work that would outlive the session (a search waiting for
  /// its debounce), if the state has any.
  public var quit: @Sendable (Root.State) -> Root.Action?

  /// - Precondition: at least one tab.
  public init(
    tabs: [Tab],
    selectedTab: @escaping @Sendable (Root.State) -> Int,
    selectTab: (@Sendable (Int) -> Root.Action)?,
    header: @escaping @Sendable (Root.State) -> String,
    start: Root.Action? = nil,
    quit: @escaping @Sendable (Root.State) -> Root.Action? = { _ in nil }
  ) {
    precondition(!tabs.isEmpty, "a terminal registration needs at least one tab")
    self.tabs = tabs
    self.selectedTab = selectedTab
    self.selectTab = selectTab
    self.header = header
    self.start = start
    self.quit = quit
  }

  /// A root with one screen and no tabs to switch: a feature run on its own.
  public static func single(
    _ screen: TerminalScreenPart<Root>,
    title: String,
    header: String? = nil,
    start: Root.Action? = nil,
    quit: @escaping @Sendable (Root.State) -> Root.Action? = { _ in nil }
  ) -> Self {
    let header = header ?? "\(title) · preview"
    return Self(
      tabs: [Tab(title: title, screen: screen)], selectedTab: { _ in 0 }, selectTab: nil,
      header: { _ in header }, start: start, quit: quit)
  }

  /// The tab the state shows (the first when the registration's answer is out of range).
  func tab(of state: Root.State) -> Tab {
    let index = selectedTab(state)
    return tabs.indices.contains(index) ? tabs[index] : tabs[0]
  }

  /// Whether there are tabs to switch between.
  var hasTabKeys: Bool { tabs.count > 1 && selectTab != nil }

  /// The keys that switch tabs, for the help line: `1-4/Tab screens`, or nothing.
  var tabKeysHelp: String? {
    guard hasTabKeys else { return nil }
    return tabs.count <= 9 ? "1-\(tabs.count)/Tab screens" : "Tab screens"
  }
}
