/// Runs a feature: holds its state, sends actions through its reducer and runs its effects.
///
/// A front end creates one root store per running app, reads ``state``, sends user actions with
/// ``send(_:)`` and redraws from ``observe(_:onChange:)`` (or the `AsyncSequence`s ``states`` and
/// ``observe(_:)``). Child features get a scoped store with ``scope(state:action:)``; a scoped store
/// holds no state of its own, it is a view onto the root.
///
/// ```swift
/// let store = Store(initialState: Counter.State()) {
///   Counter()
/// } withDependencies: {
///   $0.factClient = .liveValue
/// }
/// store.send(.incrementButtonTapped)
/// let token = store.observe(\.count) { count in
///   render(count)
/// }
/// ```
///
/// Releasing the root store (and every scoped store of it) cancels all of its effects. A store
/// lives on the main actor, as TCA's does; `StoreActor` runs the same reducers on an actor of
/// their own.
@MainActor
@dynamicMemberLookup
public final class Store<State, Action> {
  /// The root's core, kept alive by every store scoped from it.
  @usableFromInline let root: AnyObject
  /// The root's core, for the session recording (`ComposableRecording`), which watches it
  /// through its step hook. Named so that no state field of a feature hides it.
  @usableFromInline
  package var _rootCore: AnyObject { root }
  @usableFromInline let getState: () -> State
  @usableFromInline let sendAction: (Action) -> StoreTask
  /// Registers an observer of this store's state; returns what removes it.
  @usableFromInline let addObserver: (@escaping (State) -> Void, @escaping () -> Void) -> Remover
  private var children: [ScopeID: AnyObject] = [:]
  /// Whether the state has an identity for observation (is `ObservableState`).
  @usableFromInline let stateIsObservable = State.self is any ObservableState.Type
  /// The trackers of `state`, made on the first read.
  private lazy var registrar = ObservationRegistrar()
  /// The watch of the state's identity, started by the first read.
  private var identityWatch: ObserveToken?
  /// Whether stores scoped from this one can be cached: not when this one, or a store it was
  /// scoped from, was scoped with closures, which have no identity.
  var canCacheChildren = true

  @usableFromInline
  init(
    root: AnyObject,
    state: @escaping () -> State,
    send: @escaping (Action) -> StoreTask,
    addObserver: @escaping (@escaping (State) -> Void, @escaping () -> Void) -> Remover
  ) {
    self.root = root
    self.getState = state
    self.sendAction = send
    self.addObserver = addObserver
  }

  @inlinable
  convenience init(core: RootCore<State, Action>) {
    self.init(
      root: core,
      state: { core.state },
      send: { core.send($0) },
      addObserver: { [weak core] stateDidChange, finish in
        guard let id = core?.addObserver(stateDidChange: stateDidChange, finish: finish)
        else {
          finish()
          return {}
        }
        return { [weak core] in core?.removeObserver(id) }
      }
    )
  }

  /// Creates a root store.
  ///
  /// The initial state and the reducer are built with the dependencies of `prepareDependencies`
  /// in effect, and the store keeps those dependencies for every action and effect.
  @inlinable
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
        resolveReducer: { reducer._resolve(&$0) },
        dependencies: dependencies,
        installsDependencies: prepareDependencies != nil
          || !DependencyValues._current.isDefaultForStores
      )
    )
  }

  /// The current state.
  ///
  /// Reading it (or a field through the store, `store.count`) inside `withObservationTracking`
  /// also tracks the state as a whole: when a send replaces it — a new value of another identity,
  /// another case of an enum state — the tracking fires, even if the fields read were not
  /// written one by one.
  @inlinable
  public var state: State {
    accessState()
    return getState()
  }

  /// Reads a property of the current state: `store.count`.
  @inlinable
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    accessState()
    return getState()[keyPath: keyPath]
  }

  // MARK: Observation of the store itself

  /// Reports a read of the whole state to observation tracking, and, the first time, starts
  /// watching the state's identity. Only observable states have one; others are observed
  /// through nothing but ``observe(_:onChange:)``.
  @usableFromInline
  func accessState() {
    guard stateIsObservable else { return }
    registrar.access(self, keyPath: \.state)
    if identityWatch == nil { watchIdentity() }
  }

  /// After each send, compares the state's identity with the last one seen, and tells the
  /// trackers of `state` when it changed. Started by the first read, so a store nobody reads
  /// pays nothing per send.
  private func watchIdentity() {
    let last = _LastValue(ObservableStateID._$id(for: getState()))
    identityWatch = ObserveToken(
      onCancel: addObserver(
        { [weak self] state in
          let id = ObservableStateID._$id(for: state)
          guard id != last.value else { return }
          last.value = id
          guard let self else { return }
          self.registrar.withMutation(of: self, keyPath: \.state) {}
        }, {}))
  }

  /// Sends an action to the reducer and starts the effects it returns.
  ///
  /// The action, and every action the effects send synchronously, are processed before this
  /// returns; observers then see the resulting state once. The returned task follows the
  /// asynchronous effects. An action sent while another is being processed (from an observer,
  /// say) is processed right after it, and its task follows its own effects.
  @inlinable
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    sendAction(action)
  }

  /// Sends an action; the animation is accepted and ignored (see ``Animation``).
  @discardableResult
  public func send(_ action: Action, animation: Animation?) -> StoreTask {
    sendAction(action)
  }

  /// Sends an action; the transaction is accepted and ignored (see ``Transaction``).
  @discardableResult
  public func send(_ action: Action, transaction: Transaction) -> StoreTask {
    sendAction(action)
  }

  /// A store for a child feature: the state at `state`, the actions of case `action`.
  ///
  /// Scoping with the same key paths returns the same store.
  ///
  /// ```swift
  /// let searchStore = store.scope(state: \.search, action: \.search)
  /// ```
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    let id = ScopeID(state: state, action: action, isOptional: false)
    if let child = children[id] as? Store<ChildState, ChildAction> {
      return child
    }
    let child = scoped(state: { $0[keyPath: state] }, embed: CaseEmbedding(action).embedValue)
    children[id] = child
    return child
  }

  /// A store for optional child state (a presented feature, an enum case), or `nil` while that
  /// state is `nil`. A child store kept after its state went away keeps showing the last value
  /// it had, so a front end that still holds it does not crash; actions it sends then reach the
  /// parent, which reports them.
  ///
  /// ```swift
  /// if let detailStore = store.scope(state: \.detail, action: \.detail.presented) { … }
  /// ```
  public func scope<ChildState, ChildAction>(
    state: KeyPath<State, ChildState?>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    reportIfUncached()
    guard let initial = getState()[keyPath: state] else { return nil }
    let id = ScopeID(state: state, action: action, isOptional: true)
    if let child = children[id] as? OptionalChild<ChildState, ChildAction> {
      return child.store
    }
    let lastValue = _LastValue(initial)
    let child = scoped(
      state: { parentState in
        if let value = parentState[keyPath: state] { lastValue.value = value }
        return lastValue.value
      },
      embed: CaseEmbedding(action).embedValue
    )
    children[id] = OptionalChild(store: child)
    return child
  }

  /// A store for a child feature, spelled without the `state:` label as TCA now writes it:
  /// `store.scope(\.search, action: \.search)`. The same store as
  /// `scope(state:action:)` returns.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ state: KeyPath<State, ChildState>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction> {
    scope(state: state, action: action)
  }

  /// A store for optional child state, or `nil` while it is `nil`, spelled without the `state:`
  /// label: `store.scope(\.destination?.detail, action: \.destination.detail)`.
  @inlinable
  public func scope<ChildState, ChildAction>(
    _ state: KeyPath<State, ChildState?>,
    action: CaseKeyPath<Action, ChildAction>
  ) -> Store<ChildState, ChildAction>? {
    scope(state: state, action: action)
  }

  /// A store that views this one through `toChildState` and sends through `embed`.
  func scoped<ChildState, ChildAction>(
    state toChildState: @escaping (State) -> ChildState,
    embed: @escaping (ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let (getState, sendAction, addObserver) = (self.getState, self.sendAction, self.addObserver)
    let child = Store<ChildState, ChildAction>(
      root: root,
      state: { toChildState(getState()) },
      send: { sendAction(embed($0)) },
      addObserver: { stateDidChange, finish in
        addObserver({ stateDidChange(toChildState($0)) }, finish)
      }
    )
    child.canCacheChildren = canCacheChildren
    return child
  }

  /// Scoping optional or collection state from a store that cannot cache its children (one
  /// scoped with closures) is reported, as TCA reports it: such a scope makes a new store each
  /// time, which observation cannot follow. (TCA's text has a no-break space after "2.", and
  /// tests compare it exactly.)
  func reportIfUncached() {
    guard !canCacheChildren else { return }
    reportIssue(
      """
      Scoping from uncached '\(storeTypeName(State.self, Action.self))' is not compatible with \
      observation.

      This can happen for one of two reasons:

      1. A parent view scopes on a store using transform functions, which has been \
      deprecated, instead of with key paths and case paths. Read the migration guide for 1.5 \
      to update these scopes: \
      https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.5

      2.\u{00A0}A parent feature is using deprecated navigation APIs, such as 'IfLetStore', \
      'SwitchStore', 'ForEachStore', or any navigation view modifiers taking stores instead of \
      bindings. Read the migration guide for 1.7 to update those APIs: \
      https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.7
      """)
  }

  // MARK: Observation

  /// Calls `onChange` with each new value of a property of the state, right after the send that
  /// changed it; sends that leave the value equal do not call it. Observation stops when the
  /// returned token is cancelled or released.
  ///
  /// ```swift
  /// let token = store.observe(\.count) { count in
  ///   label.text = "\(count)"
  /// }
  /// ```
  @inlinable
  public func observe<Value: Equatable>(
    _ keyPath: KeyPath<State, Value>,
    onChange: @escaping @MainActor (_ value: Value) -> Void
  ) -> ObserveToken {
    let read = _StateRead(keyPath)
    let last = _LastValue(read.get(getState()))
    let remove = addObserver(
      { state in
        let changed = read.read(state) { value -> Value? in
          guard value != last.value else { return nil }
          last.value = value
          return value
        }
        guard let changed else { return }
        MainActor.assumeIsolated { onChange(changed) }
      },
      {}
    )
    return ObserveToken(onCancel: remove)
  }

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
    let remove = addObserver({ continuation.yield($0) }, { continuation.finish() })
    continuation.onTermination = { _ in
      Task { @MainActor in remove() }
    }
    return stream
  }

  /// The current value of a property of the state, then each new value, with duplicates removed.
  ///
  /// ```swift
  /// for await query in store.observe(\.searchQuery) {
  ///   render(query)
  /// }
  /// ```
  public func observe<Value: Equatable & Sendable>(
    _ keyPath: KeyPath<State, Value>
  ) -> AsyncStream<Value> {
    let (stream, continuation) = AsyncStream<Value>.makeStream()
    var last = getState()[keyPath: keyPath]
    continuation.yield(last)
    let remove = addObserver(
      { state in
        let value = state[keyPath: keyPath]
        guard value != last else { return }
        last = value
        continuation.yield(value)
      },
      { continuation.finish() }
    )
    continuation.onTermination = { _ in
      Task { @MainActor in remove() }
    }
    return stream
  }
}

extension Store where State: Sendable {
  /// ``states(bufferingNewest:)`` keeping every state.
  public var states: AsyncStream<State> { states() }
}

/// Keeps an observation of a store alive; observation ends with ``cancel()`` or when the token is
/// released.
@MainActor
public final class ObserveToken {
  private var onCancel: Remover?

  @usableFromInline
  init(onCancel: @escaping Remover) {
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

/// The last value an observer saw. Touched only by its observer, on the store's executor.
@usableFromInline
final class _LastValue<Value> {
  @usableFromInline @exclusivity(unchecked) var value: Value

  @inlinable
  init(_ value: Value) {
    self.value = value
  }
}

/// Removes an observer from a root store; called on the store's executor.
@usableFromInline
typealias Remover = @Sendable () -> Void

/// The store of a reducer.
public typealias StoreOf<R: Reducer> = Store<R.State, R.Action>

extension Store: Identifiable {
  nonisolated public var id: ObjectIdentifier { ObjectIdentifier(self) }
}

/// Identifies a cached child store by the key paths it was scoped with.
private struct ScopeID: Hashable {
  let state: AnyKeyPath
  let action: AnyKeyPath
  /// The optional scope of a key path to `T?` caches apart from the plain scope of the same
  /// key path, whose store has state `T?`.
  let isOptional: Bool
}

/// A cached store of optional child state.
@MainActor
private final class OptionalChild<State, Action> {
  let store: Store<State, Action>
  init(store: Store<State, Action>) { self.store = store }
}

extension DependencyValues {
  /// Whether nothing is overridden in these dependencies: then a reducer run without installing
  /// them sees the same values, and a store can skip the task-local push per action (about 400
  /// instructions of a send).
  ///
  /// swift-dependencies keeps overrides in a private dictionary, which is empty — the shared
  /// empty-dictionary storage — until something is overridden; this reads that word. The reading
  /// is checked once against a known override and a known default (`overrideDetection`); if the
  /// layout ever differs, every store installs its dependencies, as it would without this check.
  @usableFromInline
  var isDefaultForStores: Bool {
    guard let detection = overrideDetection else { return false }
    return detection(self) == false
  }
}

extension DependencyValues {
  /// Whether these are the very same dependency values as `other` (the same storage, not merely
  /// equal-looking): then installing `other` where these are current changes nothing.
  @usableFromInline
  func isIdentical(to other: DependencyValues) -> Bool {
    areIdentical(self, other)
  }
}

/// Tells whether dependency values carry overrides, or `nil` when the layout it relies on does
/// not hold for the swift-dependencies in use.
private let overrideDetection: (@Sendable (DependencyValues) -> Bool)? = {
  let emptyStorage = withUnsafeBytes(of: [ObjectIdentifier: any Sendable]()) {
    $0.load(as: UInt.self)
  }
  guard MemoryLayout<DependencyValues>.size == 2 * MemoryLayout<UInt>.size else { return nil }
  let isOverridden: @Sendable (DependencyValues) -> Bool = { values in
    withUnsafeBytes(of: values) {
      $0.load(fromByteOffset: MemoryLayout<UInt>.size, as: UInt.self) != emptyStorage
    }
  }
  let defaults = DependencyValues()
  var overridden = DependencyValues()
  overridden.context = .test
  guard !isOverridden(defaults), isOverridden(overridden) else { return nil }
  return isOverridden
}()

/// A store's type as messages name it: `StoreOf<Feature>` when the state and action are a
/// feature's, `StoreOf<Feature>?` for its optional state, else `Store<State, Action>`.
func storeTypeName(_ state: Any.Type, _ action: Any.Type) -> String {
  let stateType = typeName(state, genericsAbbreviated: false)
  let actionType = typeName(action, genericsAbbreviated: false)
  if stateType.hasSuffix(".State"), actionType.hasSuffix(".Action"),
    stateType.dropLast(6) == actionType.dropLast(7)
  {
    return "StoreOf<\(stateType.dropLast(6))>"
  }
  if stateType.hasSuffix(".State?"), actionType.hasSuffix(".Action"),
    stateType.dropLast(7) == actionType.dropLast(7)
  {
    return "StoreOf<\(stateType.dropLast(7))?>"
  }
  return "Store<\(stateType), \(actionType)>"
}

extension Store: Observable {}
