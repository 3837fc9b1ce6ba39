import ComposableArchitecture

/// One tab of the terminal app: how it is drawn, what its keys mean, and what it remembers besides
/// the app's state (its selected row, the field being edited).
///
/// A feature that wants a screen gets one file in `Screens/` of this module with a type conforming
/// to this protocol, and one line in `AppFeature.Tab.screen`:
///
/// ```swift
/// enum CountersScreen: TerminalScreen {
///   static func render(_ state: AppFeature.State, view: ViewState, style: Style) -> [String] { … }
///   static func help(_ state: AppFeature.State, view: ViewState) -> String { "+/- count" }
///   static func action(for key: Key, state: AppFeature.State, view: inout ViewState)
///     -> AppFeature.Action? { key == .character("a") ? .addCounterButtonTapped : nil }
/// }
/// ```
///
/// Everything is pure: the same state, view state and key always give the same lines and the same
/// action, which is what `TerminalFeature`'s tests check with a `TestStore`.
public protocol TerminalScreen: SendableMetatype {
  /// The reducer whose state the screen shows and whose actions its keys send (the app's root).
  associatedtype Root: Reducer

  /// The screen's lines, below the tab bar.
  static func render(_ state: Root.State, view: ViewState, style: Style) -> [String]

  /// The screen's keys, for the help line (the keys every screen shares are added to it).
  static func help(_ state: Root.State, view: ViewState) -> String

  /// What `key` means on this screen: the action to send, if any, after changing `view` (moving
  /// the selection, starting or ending an edit). While ``ViewState/editing`` is one of the
  /// screen's fields, every key but Ctrl-C comes here.
  static func action(for key: Key, state: Root.State, view: inout ViewState) -> Root.Action?

  /// Keeps `view` in step with the app after `action` changed it: a selection stays on a row
  /// that exists, a new row is selected.
  static func update(_ view: inout ViewState, after action: Root.Action, state: Root.State)
}

extension TerminalScreen {
  public static func update(_ view: inout ViewState, after action: Root.Action, state: Root.State) {
  }
}

/// A ``TerminalScreen`` with its type erased, as `TerminalFeature` holds its screens.
public struct TerminalScreenPart<Root: Reducer>: Sendable {
  let render: @Sendable (Root.State, ViewState, Style) -> [String]
  let help: @Sendable (Root.State, ViewState) -> String
  let action: @Sendable (Key, Root.State, inout ViewState) -> Root.Action?
  let update: @Sendable (inout ViewState, Root.Action, Root.State) -> Void

  /// The part of `screen`.
  public static func screen<Screen: TerminalScreen>(_: Screen.Type) -> Self
  where Screen.Root == Root {
    Self(
      render: { Screen.render($0, view: $1, style: $2) },
      help: { Screen.help($0, view: $1) },
      action: { Screen.action(for: $0, state: $1, view: &$2) },
      update: { Screen.update(&$0, after: $1, state: $2) })
  }

  /// The screen's lines.
  public func render(_ state: Root.State, view: ViewState, style: Style) -> [String] {
    render(state, view, style)
  }

  /// The screen's help line.
  public func help(_ state: Root.State, view: ViewState) -> String {
    help(state, view)
  }

  /// What `key` means on the screen.
  public func action(for key: Key, state: Root.State, view: inout ViewState) -> Root.Action? {
    action(key, state, &view)
  }

  /// Keeps `view` in step with the app after `action`.
  public func update(_ view: inout ViewState, after action: Root.Action, state: Root.State) {
    update(&view, action, state)
  }
}

/// A confirmation on screen: Enter or y confirms, Esc or n cancels; other keys wait.
func answer<Action>(_ key: Key, confirm: Action?, cancel: Action) -> Action? {
  switch key {
  case .enter, .character("y"): confirm
  case .escape, .character("n"): cancel
  default: nil
  }
}

/// `index` moved onto a row that exists among `count` rows (0 when there are none).
func clamp(_ index: Int, count: Int) -> Int {
  count == 0 ? 0 : min(max(index, 0), count - 1)
}

/// `index` moved by the arrow keys (↑/k one up, ↓/j one down) among `count` rows, or `nil` for
/// another key.
func moved(_ index: Int, by key: Key, count: Int) -> Int? {
  switch key {
  case .up, .character("k"): max(0, index - 1)
  case .down, .character("j"): clamp(index + 1, count: count)
  default: nil
  }
}
