/// Runs a feature: holds its state, sends actions through its reducer and runs its effects.
///
/// A front end creates one root store per running app (the web server: one per visitor), reads
/// ``state``, sends user actions with ``send(_:)`` and redraws from ``states`` or
/// ``observe(_:)``. Child features get a scoped store with ``scope(_:action:)``; a scoped store
/// holds no state of its own, it is a view onto the root.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// } withDependencies: {
///   $0.factClient = .liveValue
/// }
/// store.send(.incrementButtonTapped)
/// for await state in store.states {
///   render(state)
/// }
/// ```
///
/// Releasing the root store (and every scoped store of it) cancels all of its effects.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  private let root: any StoreRoot
  private let getState: @MainActor () -> State
  /// Derives this store's state from the root's, for observers (which must not capture the root).
  private let stateFromRoot: @MainActor (Any) -> State
  private let sendAction: @MainActor (Action) -> StoreTask
  private var children: [ScopeID: AnyObject] = [:]

  private init(
    root: any StoreRoot,
    state: @escaping @MainActor () -> State,
    stateFromRoot: @escaping @MainActor (Any) -> State,
    send: @escaping @MainActor (Action) -> StoreTask
  ) {
    self.root = root
    self.getState = state
    self.stateFromRoot = stateFromRoot
    self.sendAction = send
  }

  init(core: RootCore<State, Action>) {
    self.root = core
    self.getState = { core.state }
    self.stateFromRoot = { $0 as! State }
    self.sendAction = { core.send($0) }
  }

  /// Creates a root store.
  ///
  /// The initial state and the reducer are built with the dependencies of `prepareDependencies`
  /// in effect, and the store keeps those dependencies for every action and effect.
  public convenience init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reducer, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      (initialState(), reducer(), DependencyValues._current)
    }
    self.init(
      core: RootCore(
        initialState: state,
        reducer: { reducer.reduce(into: &$0, action: $1) },
        dependencies: dependencies
      )
    )
  }

  /// The current state.
  public var state: State { getState() }

  /// Reads a property of the current state: `store.count`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    getState()[keyPath: keyPath]
  }

  /// Sends an action to the reducer and starts the effects it returns.
  ///
  /// The action, and every action the effects send synchronously, are processed before this
  /// returns; observers then see the resulting state once. The returned task follows the
  /// asynchronous effects.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendAction(action)
  }

  /// A store for a child feature: the state at `state`, the actions of case `action`.
  ///
  /// Scoping with the same key paths returns the same store.
  public func scope<ChildState, ChildAction>(
    _ state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let id = ScopeID(state: state, action: action)
    if let child = children[id] as? Store<ChildState, ChildAction> {
      return child
    }
    let getState = self.getState
    let sendAction = self.sendAction
    let embedding = CaseEmbedding(action)
    let stateFromRoot = self.stateFromRoot
    let child = Store<ChildState, ChildAction>(
      root: root,
      state: { getState()[keyPath: state] },
      stateFromRoot: { stateFromRoot($0)[keyPath: state] },
      send: { sendAction(embedding.embed($0)) }
    )
    children[id] = child
    return child
  }

  /// Deprecated spelling of ``scope(_:action:)``.
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state, action: action)
  }

  /// A store for optional child state, or `nil` while that state is `nil`.
  public func scope<ChildState, ChildAction>(
    _ state: KeyPath<State, ChildState?>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    guard var lastValue = getState()[keyPath: state] else { return nil }
    let getState = self.getState
    let sendAction = self.sendAction
    let embedding = CaseEmbedding(action)
    let stateFromRoot = self.stateFromRoot
    return Store<ChildState, ChildAction>(
      root: root,
      state: {
        if let value = getState()[keyPath: state] { lastValue = value }
        return lastValue
      },
      stateFromRoot: { rootState in
        // A stale child store keeps showing the last value it had.
        if let value = stateFromRoot(rootState)[keyPath: state] { lastValue = value }
        return lastValue
      },
      send: { sendAction(embedding.embed($0)) }
    )
  }

  // MARK: Observation

  /// The current state, then the state after every send that changed anything, for front ends
  /// that redraw from state. The sequence ends when the root store goes away.
  ///
  /// A consumer that is slower than the store sees the newest states: at most `limit` states
  /// are kept for it (`nil` keeps all).
  public func states(bufferingNewest limit: Int? = nil) -> AsyncStream<State>
  where State: Sendable {
    let policy: AsyncStream<State>.Continuation.BufferingPolicy =
      limit.map { .bufferingNewest($0) } ?? .unbounded
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: policy)
    continuation.yield(getState())
    let stateFromRoot = self.stateFromRoot
    let observerID = root.addObserver(
      onChange: { continuation.yield(stateFromRoot($0)) },
      onFinish: { continuation.finish() }
    )
    continuation.onTermination = { [weak root] _ in
      Task { @MainActor in root?.removeObserver(observerID) }
    }
    return stream
  }

  /// The current value of a property of the state, then each new value, with duplicates removed.
  ///
  /// ```swift
  /// for await query in store.observe(\.searchQuery) {
  ///   debouncer.schedule(query)
  /// }
  /// ```
  public func observe<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value>
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    var last = getState()[keyPath: keyPath]
    continuation.yield(last)
    let stateFromRoot = self.stateFromRoot
    let observerID = root.addObserver(
      onChange: { rootState in
        let value = stateFromRoot(rootState)[keyPath: keyPath]
        guard value != last else { return }
        last = value
        continuation.yield(value)
      },
      onFinish: { continuation.finish() }
    )
    continuation.onTermination = { [weak root] _ in
      Task { @MainActor in root?.removeObserver(observerID) }
    }
    return stream
  }
}

extension Store {
  /// Calls `onChange` with each new value of a property of the state, right after the send that
  /// changed it; sends that leave the value equal do not call it. Observation stops when the
  /// returned token is cancelled or released.
  ///
  /// ```swift
  /// let token = store.observe(\.count) { count in
  ///   label.text = "\(count)"
  /// }
  /// ```
  public func observe<Value: Equatable>(
    _ keyPath: KeyPath<State, Value>,
    onChange: @escaping @MainActor (_ value: Value) -> Void
  ) -> ObserveToken {
    var last = getState()[keyPath: keyPath]
    let stateFromRoot = self.stateFromRoot
    let observerID = root.addObserver(
      onChange: { rootState in
        let value = stateFromRoot(rootState)[keyPath: keyPath]
        guard value != last else { return }
        last = value
        onChange(value)
      },
      onFinish: {}
    )
    return ObserveToken { [weak root] in
      root?.removeObserver(observerID)
    }
  }
}

/// Keeps an observation of a store alive; observation ends with ``cancel()`` or when the token is
/// released.
@MainActor
public final class ObserveToken {
  private var onCancel: (@MainActor () -> Void)?

  init(onCancel: @escaping @MainActor () -> Void) {
    self.onCancel = onCancel
  }

  /// Ends the observation.
  public func cancel() {
    onCancel?()
    onCancel = nil
  }

  isolated deinit {
    cancel()
  }
}

extension Store where State: Sendable {
  /// ``states(bufferingNewest:)`` keeping every state.
  public var states: AsyncStream<State> { states() }
}

/// What a store needs of its root for observation.
@MainActor
protocol StoreRoot: AnyObject, Sendable {
  func addObserver(
    onChange: @escaping @MainActor (_ rootState: Any) -> Void,
    onFinish: @escaping @MainActor () -> Void
  ) -> Int
  func removeObserver(_ id: Int)
}

extension RootCore: StoreRoot {}

/// The store of a reducer.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

extension Store: Identifiable {
  nonisolated public var id: ObjectIdentifier { ObjectIdentifier(self) }
}

/// Identifies a cached child store by the key paths it was scoped with.
private struct ScopeID: Hashable {
  let state: AnyKeyPath
  let action: AnyKeyPath
}
