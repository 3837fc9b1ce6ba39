import ComposableArchitecture

/// Turns a root feature's state into the text of one screen: the header, the tab bar, the
/// selected tab's ``TerminalScreen`` and the help line. Pure: the same state and view state always
/// give the same text, which is what the rendering tests check.
public enum ScreenRenderer {
  /// The screen of a terminal feature's state.
  ///
  /// `sessionKeys` is the help of keys the running session handles itself, before the feature
  /// sees them (`Ctrl-R record` when it can record); it joins the help line before `q quit`.
  public static func render<Root>(
    _ state: TerminalFeature<Root>.State, registration: TerminalRegistration<Root>, style: Style,
    sessionKeys: String? = nil
  ) -> String where Root.State: Equatable & Sendable, Root.Action: Sendable {
    render(
      state.app, view: state.view, registration: registration, style: style,
      sessionKeys: sessionKeys)
  }

  /// The screen of `state` with `view`'s selections, as `registration` lays it out.
  public static func render<Root>(
    _ state: Root.State, view: ViewState, registration: TerminalRegistration<Root>, style: Style,
    sessionKeys: String? = nil
  ) -> String where Root.Action: Sendable {
    let selected = registration.tab(of: state)
    var lines: [String] = []
    lines.append(style.bold(registration.header(state)))
    lines.append(tabBar(registration, selected: registration.selectedTab(state), style: style))
    lines.append(String(repeating: "─", count: 60))
    lines += selected.screen.render(state, view: view, style: style)
    lines.append("")
    if let status = view.status { lines.append(style.bold(status)) }
    let help =
      view.editing != nil
      ? ["type to edit · Backspace delete · Enter/Esc done · Ctrl-C quit"]
      : [selected.screen.help(state, view: view), registration.tabKeysHelp, sessionKeys, "q quit"]
        .compactMap { $0 }
    lines.append(style.dim(help.joined(separator: " · ")))
    return lines.joined(separator: "\n")
  }

  /// The titles of the tabs, the selected one in inverse video; numbered when number keys switch
  /// to them.
  static func tabBar<Root>(
    _ registration: TerminalRegistration<Root>, selected: Int, style: Style
  ) -> String where Root.Action: Sendable {
    registration.tabs.enumerated().map { index, tab in
      let title = registration.hasTabKeys ? "\(index + 1) \(tab.title)" : tab.title
      return index == selected ? style.inverse("[\(title)]") : " \(title) "
    }
    .joined(separator: " ")
  }

  /// The mark in front of the selected row.
  public static func marker(_ isSelected: Bool, style: Style) -> String {
    isSelected ? style.bold("›") : " "
  }

  /// A confirmation in a box: its title, its message and the keys that answer it.
  public static func confirmation(
    _ title: TextState, message: TextState?, confirm: TextState?
  ) -> [String] {
    box([title.string, message?.string].compactMap { $0 } + [confirmationHelp(confirm: confirm)])
  }

  /// Lines framed by a box, after a blank line.
  /// The keys that answer a confirmation: its help line while it is up.
  public static func confirmationHelp(confirm: TextState?) -> String {
    "Enter/y \(confirm?.string ?? "OK") · Esc/n Cancel"
  }

  public static func box(_ lines: [String]) -> [String] {
    let width = lines.map(\.count).max() ?? 0
    let rule = String(repeating: "─", count: width + 2)
    return [""] + ["┌" + rule + "┐"]
      + lines.map { "│ " + $0.padding(toLength: width, withPad: " ", startingAt: 0) + " │" }
      + ["└" + rule + "┘"]
  }
}
