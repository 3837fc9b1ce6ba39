import ComposableArchitecture
import EpisodesFeature
import TerminalFrontend

/// The episodes: the list with hearts, or the episode screen on top of the navigation stack; a
/// favorite's failure alert in a box.
public enum EpisodesScreen: TerminalScreen {
  public typealias Root = Episodes

  public static func render(_ state: Episodes.State, view: ViewState, style: Style) -> [String] {
    let episodes = state
    if let screen = episodes.path.last {
      return episodeScreen(screen, style: style)
    }
    var lines: [String] = []
    let shown = episodes.shownEpisodes
    if episodes.showsFavoritesOnly {
      lines.append(style.dim("Favorites only (\(shown.count) of \(episodes.episodes.count))"))
      if shown.isEmpty { lines.append("No favorites yet: v shows every episode.") }
    }
    for (index, episode) in shown.enumerated() {
      let heart = episode.favoriting.isFavorite ? style.red("♥") : "♡"
      let marker = ScreenRenderer.marker(index == view.selectedEpisode, style: style)
      let saving = episode.favoriting.isSaving ? "  " + style.yellow("⟳ saving…") : ""
      lines.append("\(marker) \(heart) \(episode.title)\(saving)")
    }
    if let error = episodes.loadError {
      lines.append(style.red(error))
    }
    if let alerted = episodes.episodes.first(where: { $0.favoriting.alert != nil }),
      let alert = alerted.favoriting.alert
    {
      lines += failureAlert("\(alert.title.string) (\(alerted.title))", style: style)
    }
    return lines
  }

  public static func help(_ state: Episodes.State, view: ViewState) -> String {
    // While a failure's alert is up, only dismissing it does anything here.
    let alertIsUp =
      state.path.last.map { $0.favoriting.alert != nil }
      ?? state.episodes.contains { $0.favoriting.alert != nil }
    if alertIsUp { return "Enter/Esc/Space OK (puts the ♥ back)" }
    guard state.path.isEmpty else { return "Enter/Space/f favorite · Esc/← back" }
    let filter = state.showsFavoritesOnly ? "v every episode" : "v favorites only"
    return "↑/↓ select · Enter/Space/f favorite · →/o open · \(filter)"
  }

  public static func action(
    for key: Key, state: Episodes.State, view: inout ViewState
  ) -> Episodes.Action? {
    let dismisses = key == .enter || key == .escape || key == .character(" ")
    if let id = state.path.ids.last {
      return episodeScreen(id, key, state: state, dismisses: dismisses)
    }
    if let alerted = state.episodes.first(where: { $0.favoriting.alert != nil }) {
      guard dismisses else { return nil }
      return .episodes(.element(id: alerted.id, action: .favorite(.alert(.dismiss))))
    }
    if key == .character("v") { return .favoritesOnlyToggled }
    let episodes = state.shownEpisodes
    if let row = moved(view.selectedEpisode, by: key, count: episodes.count) {
      view.selectedEpisode = row
      return nil
    }
    guard !episodes.isEmpty else { return nil }
    let selected = episodes[view.selectedEpisode]
    switch key {
    case .enter, .character(" "), .character("f"):
      return .episodes(.element(id: selected.id, action: .favorite(.buttonTapped)))
    case .right, .character("o"):
      return .episodeTapped(selected.id)
    default:
      return nil
    }
  }

  public static func update(
    _ view: inout ViewState, after action: Episodes.Action?, state: Episodes.State
  ) {
    view.selectedEpisode = clamp(view.selectedEpisode, count: state.shownEpisodes.count)
  }

  /// A key on the episode screen on top of the stack: favorite, its alert, close (the screen
  /// dismisses itself).
  private static func episodeScreen(
    _ id: StackElementID, _ key: Key, state: Episodes.State, dismisses: Bool
  ) -> Episodes.Action? {
    func send(_ action: EpisodeDetail.Action) -> Episodes.Action {
      .path(.element(id: id, action: action))
    }
    if state.path[id: id]?.favoriting.alert != nil {
      return dismisses ? send(.favorite(.alert(.dismiss))) : nil
    }
    switch key {
    case .enter, .character(" "), .character("f"): return send(.favorite(.buttonTapped))
    case .escape, .left, .backspace: return send(.closeButtonTapped)
    default: return nil
    }
  }

  /// The episode screen on top of the navigation stack.
  static func episodeScreen(_ screen: EpisodeDetail.State, style: Style) -> [String] {
    let heart = screen.favoriting.isFavorite ? style.red("♥ favorite") : "♡ not a favorite"
    let saving = screen.favoriting.isSaving ? "  " + style.yellow("⟳ saving…") : ""
    var lines = [
      style.dim("Episodes ›") + " " + style.bold(screen.title),
      "",
      "  \(heart)\(saving)",
    ]
    if let alert = screen.favoriting.alert {
      lines += failureAlert(alert.title.string, style: style)
    }
    return lines
  }

  /// A favorite's failure alert, in red in a box, and how to dismiss it.
  static func failureAlert(_ text: String, style: Style) -> [String] {
    let text = " \(text) "
    return [
      "",
      "┌" + String(repeating: "─", count: text.count) + "┐",
      "│" + style.red(text) + "│",
      "└" + String(repeating: "─", count: text.count) + "┘",
      style.bold("Press Enter to dismiss: the ♥ goes back to what it was."),
    ]
  }
}

extension ViewState {
  /// The selected row of the episode list.
  public var selectedEpisode: Int {
    get { self[selection: "episodes"] }
    set { self[selection: "episodes"] = newValue }
  }
}
