import AppFeature
import ComposableArchitecture

/// Turns the app's state into the text of one screen: the greeting, the tab bar, the selected
/// tab's ``TerminalScreen`` and the help line. Pure: the same state and view state always give the
/// same text, which is what the rendering tests check.
public enum ScreenRenderer {
  /// The screen of the terminal app's state.
  public static func render(_ state: TerminalFeature.State, style: Style) -> String {
    render(state.app, view: state.view, style: style)
  }

  public static func render(_ state: AppFeature.State, view: ViewState, style: Style) -> String {
    let screen = state.selectedTab.screen
    var lines: [String] = []
    lines.append(style.bold(state.header))
    lines.append(tabBar(state.selectedTab, style: style))
    lines.append(String(repeating: "─", count: 60))
    lines += screen.render(state, view: view, style: style)
    lines.append("")
    lines.append(
      style.dim(
        view.editing != nil
          ? "type to edit · Backspace delete · Enter/Esc done · Ctrl-C quit"
          : "\(screen.help(state, view: view)) · 1-4/Tab screens · q quit"))
    return lines.joined(separator: "\n")
  }

  static func tabBar(_ selected: AppFeature.Tab, style: Style) -> String {
    AppFeature.Tab.allCases.enumerated().map { index, tab in
      let title = "\(index + 1) \(tab.rawValue.capitalized)"
      return tab == selected ? style.inverse("[\(title)]") : " \(title) "
    }
    .joined(separator: " ")
  }

  /// The mark in front of the selected row.
  static func marker(_ isSelected: Bool, style: Style) -> String {
    isSelected ? style.bold("›") : " "
  }

  /// A confirmation in a box: its title, its message and the keys that answer it.
  static func confirmation(
    _ title: TextState, message: TextState?, confirm: TextState?
  ) -> [String] {
    box(
      [title.string, message?.string].compactMap { $0 }
        + ["Enter/y \(confirm?.string ?? "OK") · Esc/n Cancel"])
  }

  /// Lines framed by a box, after a blank line.
  static func box(_ lines: [String]) -> [String] {
    let width = lines.map(\.count).max() ?? 0
    let rule = String(repeating: "─", count: width + 2)
    return [""] + ["┌" + rule + "┐"]
      + lines.map { "│ " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + " │" }
      + ["└" + rule + "┘"]
  }
}
