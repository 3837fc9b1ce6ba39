import ComposableArchitecture

/// One feature's screen in the terminal: how it is drawn, what its keys mean, and what it remembers
/// besides the feature's state (its selected row, the field being edited).
///
/// A screen is written against its own feature's state and actions, in the feature's terminal
/// adapter module (`Modules/Frontends/Adapters/<Feature>/Terminal`), so that it runs alone in the
/// feature's preview and, lifted into the app's root with a key path and a case key path, as a
/// tab of the app (``TerminalScreenPart/screen(_:state:action:)``):
///
/// ```swift
/// public enum CounterListScreen: TerminalScreen {
///   public static func render(_ state: CounterList.State, view: ViewState, style: Style)
///     -> [String] { … }
///   public static func help(_ state: CounterList.State, view: ViewState) -> String { "+/- count" }
///   public static func action(for key: Key, state: CounterList.State, view: inout ViewState)
///     -> CounterList.Action? { key == .character("a") ? .addCounterButtonTapped : nil }
/// }
/// ```
///
/// Everything is pure: the same state, view state and key always give the same lines and the same
/// action, which is what `TerminalFeature`'s tests check with a `TestStore`.
public protocol TerminalScreen: SendableMetatype {
  /// The reducer whose state the screen shows and whose actions its keys send (its feature's).
  associatedtype Root: Reducer

  /// The screen's lines, below the tab bar.
  static func render(_ state: Root.State, view: ViewState, style: Style) -> [String]

  /// The screen's keys, for the help line (the keys every screen shares are added to it).
  static func help(_ state: Root.State, view: ViewState) -> String

  /// What `key` means on this screen: the action to send, if any, after changing `view` (moving
  /// the selection, starting or ending an edit). While ``ViewState/editing`` is one of the
  /// screen's fields, every key but Ctrl-C comes here.
  static func action(for key: Key, state: Root.State, view: inout ViewState) -> Root.Action?

  /// Keeps `view` in step with the feature after its state changed: a selection stays on a row
  /// that exists, a new row is selected. `action` is the feature's action that changed it, or
  /// `nil` when another part of the app did (a resumed session putting back kept state).
  static func update(_ view: inout ViewState, after action: Root.Action?, state: Root.State)
}

extension TerminalScreen {
  public static func update(_ view: inout ViewState, after action: Root.Action?, state: Root.State)
  {}
}

/// A ``TerminalScreen`` with its type erased and lifted into a root reducer's domain, as
/// `TerminalFeature` holds its screens.
public struct TerminalScreenPart<Root: Reducer>: Sendable {
  let render: @Sendable (Root.State, ViewState, Style) -> [String]
  let help: @Sendable (Root.State, ViewState) -> String
  let action: @Sendable (Key, Root.State, inout ViewState) -> Root.Action?
  let update: @Sendable (inout ViewState, Root.Action?, Root.State) -> Void

  /// The part of `screen`, on the root's own domain (a feature previewed alone).
  public static func screen<Screen: TerminalScreen>(_: Screen.Type) -> Self
  where Screen.Root == Root {
    Self(
      render: { Screen.render($0, view: $1, style: $2) },
      help: { Screen.help($0, view: $1) },
      action: { Screen.action(for: $0, state: $1, view: &$2) },
      update: { Screen.update(&$0, after: $1, state: $2) })
  }

  /// The part of `screen`, whose feature the root holds at `state` and whose actions it wraps in
  /// the case `action` (what the root's `Scope(state:action:)` names for the same child).
  ///
  /// The screen sees only its feature's state; its keys' actions are embedded in the root's; its
  /// ``TerminalScreen/update(_:after:state:)`` gets the feature's action, or `nil` for a root
  /// action of another case (which may have changed the feature's state too).
  public static func screen<Screen: TerminalScreen>(
    _: Screen.Type,
    state toChildState: KeyPath<Root.State, Screen.Root.State> & Sendable,
    action toChildAction: CaseKeyPath<Root.Action, Screen.Root.Action>
  ) -> Self where Root.Action: CasePathable {
    // Case key paths are immutable values; they are not declared `Sendable`.
    nonisolated(unsafe) let toChildAction = toChildAction
    return Self(
      render: { Screen.render($0[keyPath: toChildState], view: $1, style: $2) },
      help: { Screen.help($0[keyPath: toChildState], view: $1) },
      action: { key, state, view in
        Screen.action(for: key, state: state[keyPath: toChildState], view: &view)
          .map { toChildAction($0) }
      },
      update: { view, action, state in
        Screen.update(
          &view, after: action.flatMap { $0[case: toChildAction] },
          state: state[keyPath: toChildState])
      })
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
  public func update(_ view: inout ViewState, after action: Root.Action?, state: Root.State) {
    update(&view, action, state)
  }
}

// Helpers for the keys of a screen.
extension TerminalScreen {
  /// A confirmation on screen: Enter or y confirms, Esc or n cancels; other keys wait.
  public static func answer<Action>(_ key: Key, confirm: Action?, cancel: Action) -> Action? {
    switch key {
    case .enter, .character("y"): confirm
    case .escape, .character("n"): cancel
    default: nil
    }
  }

  /// `index` moved onto a row that exists among `count` rows (0 when there are none).
  public static func clamp(_ index: Int, count: Int) -> Int {
    count == 0 ? 0 : min(max(index, 0), count - 1)
  }

  /// `index` moved by the arrow keys (↑/k one up, ↓/j one down) among `count` rows, or `nil` for
  /// another key.
  public static func moved(_ index: Int, by key: Key, count: Int) -> Int? {
    switch key {
    case .up, .character("k"): max(0, index - 1)
    case .down, .character("j"): clamp(index + 1, count: count)
    default: nil
    }
  }
}
