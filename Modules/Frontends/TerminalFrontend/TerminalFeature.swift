import ComposableArchitecture

/// A root feature in the terminal, as a reducer: the root's state, plus what the terminal adds —
/// which row of each screen is selected, which text field is being edited, whether the user is
/// quitting — and the key map, screen by screen, from the root's ``TerminalRegistration``.
///
/// A key press is ``Action/keyPressed(_:)``; what it means for the root is sent on as an
/// ``Action/app(_:)`` action, so a `TestStore` sees every key's effect on the root:
///
/// ```swift
/// let store = TestStore(initialState: TerminalFeature<Home>.State(app: Home.State())) {
///   TerminalFeature(Home(), registration: .home)
/// }
/// await store.send(.keyPressed(.character("+")))
/// await store.receive(\.app.counterList.counters) { $0.app.counterList.counters[0].count = 1 }
/// ```
public struct TerminalFeature<Root: Reducer & Sendable>: Reducer, Sendable
where Root.State: Equatable & Sendable, Root.Action: Sendable {
  public struct State: Equatable, Sendable {
    public var app: Root.State
    /// Selections and the field being edited.
    public var view: ViewState
    /// Set by a quit key (or a signal): the session ends after this action.
    public var isQuitting = false

    public init(app: Root.State, isOffline: Bool = false) {
      self.app = app
      self.view = ViewState()
      self.view.isOffline = isOffline
    }
  }

  @CasePathable
  public enum Action: Sendable {
    /// Something happened in the root feature.
    case app(Root.Action)
    /// A key was pressed.
    case keyPressed(Key)
    /// The terminal went away or the process was asked to stop (SIGTERM, SIGHUP, end of input).
    case quitRequested
    /// The session's status line changed (``ViewState/status``): recording started or stopped.
    case statusChanged(String?)
  }

  let root: Root
  /// The root's screens and tab keys.
  public let registration: TerminalRegistration<Root>

  /// `root` driven by the keys of `registration`'s screens.
  public init(_ root: Root, registration: TerminalRegistration<Root>) {
    self.root = root
    self.registration = registration
  }

  public var body: some Reducer<State, Action> {
    Scope(state: \.app, action: \.app) {
      root
    }
    Reduce { state, action in
      switch action {
      case .app(let action):
        for tab in registration.tabs {
          tab.screen.update(&state.view, after: action, state: state.app)
        }
        return .none

      case .keyPressed(let key):
        return keyPressed(key, state: &state)

      case .quitRequested:
        return quit(&state)

      case .statusChanged(let status):
        state.view.status = status
        return .none
      }
    }
  }

  /// The keys every screen shares (quit, screen switching), else the selected screen's; while a
  /// field is edited, every key but Ctrl-C goes to the screen.
  private func keyPressed(_ key: Key, state: inout State) -> Effect<Action> {
    if key == .controlC { return quit(&state) }
    if state.view.editing == nil {
      switch key {
      case .character("q"), .controlD:
        return quit(&state)
      default:
        if let index = tabIndex(for: key, state: state.app), let selectTab = registration.selectTab
        {
          return .send(.app(selectTab(index)))
        }
      }
    }
    let screen = registration.tab(of: state.app).screen
    guard let action = screen.action(for: key, state: state.app, view: &state.view) else {
      return .none
    }
    return .send(.app(action))
  }

  /// The tab a key switches to: `1`…`9` the tab at that place, Tab the next, Shift-Tab the one
  /// before (wrapping around); `nil` for other keys, or when the root has one screen.
  private func tabIndex(for key: Key, state: Root.State) -> Int? {
    guard registration.hasTabKeys else { return nil }
    let count = registration.tabs.count
    let current = registration.selectedTab(state)
    switch key {
    case .character(let digit):
      guard let number = digit.wholeNumberValue, (1...min(count, 9)).contains(number) else {
        return nil
      }
      return number - 1
    case .tab:
      return (current + 1) % count
    case .backTab:
      return (current - 1 + count) % count
    default:
      return nil
    }
  }

  /// Ends the session, after the registration's last action (dropping work still in flight).
  private func quit(_ state: inout State) -> Effect<Action> {
    state.isQuitting = true
    state.view.editing = nil
    return registration.quit(state.app).map { .send(.app($0)) } ?? .none
  }
}

extension CaseIterable where Self: Equatable, AllCases.Index == Int {
  /// The case `step` places after this one, wrapping around.
  public func cycled(by step: Int) -> Self {
    let all = Self.allCases
    let index = all.firstIndex(of: self)!
    return all[((index + step) % all.count + all.count) % all.count]
  }
}
