import Synchronization

/// A root store isolated to an actor of its own instead of the main actor: the same reducers,
/// effects, cancellation and observation as ``Store``, for servers that run many independent
/// stores side by side — each on its own serial executor, all of them on every core.
///
/// This type is ours; TCA has no counterpart (its `Store` stays on the main actor, as ours does).
///
/// ```swift
/// let store = StoreActor(initialState: Counter.State()) {
///   Counter()
/// }
/// await store.send(.incrementButtonTapped)
/// let count = await store.state.count
/// ```
///
/// What differs from ``Store``:
/// - Reading and sending from outside the actor is `async`. Code that must read the state and
///   send in one step (validate, then send) runs on the actor with an `isolated` parameter:
///   `func apply(_ input: Input, to store: isolated StoreActor<S, A>) { … store.send(…) … }`.
/// - Effects send their actions through `Send`, which is main-actor isolated as in TCA; the action
///   is posted from there to the actor's mailbox, reduced in the order posted, and dropped if its
///   effect was cancelled meanwhile. An effect counts as finished (for ``StoreTask/finish()``)
///   once the actor has reduced what it sent.
/// - Observers run on the actor, after each send, with the values that changed.
///
/// Releasing the actor cancels every effect it started.
public actor StoreActor<State, Action> {
  @usableFromInline let core: RootCore<State, Action>
  /// The core, for the session recording (`ComposableRecording`).
  @usableFromInline
  package var _rootCore: RootCore<State, Action> { core }
  private let link: _StoreActorLink<State, Action>

  /// Creates a root store on its own actor.
  ///
  /// The initial state and the reducer are built with the dependencies of `prepareDependencies`
  /// in effect, and the store keeps those dependencies for every action and effect.
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> R.State,
    @ReducerBuilder<State, Action> reducer: () -> R,
    withDependencies prepareDependencies: ((inout DependencyValues) -> Void)? = nil
  ) {
    let (state, reducer, dependencies) = withDependencies(prepareDependencies ?? { _ in }) {
      (initialState(), reducer(), DependencyValues._current)
    }
    let link = _StoreActorLink<State, Action>()
    let core = RootCore(
      initialState: state,
      resolveReducer: { reducer._resolve(&$0) },
      dependencies: dependencies,
      installsDependencies: prepareDependencies != nil
        || !DependencyValues._current.isDefaultForStores,
      executor: link
    )
    core.mailbox = _EffectMailbox(
      schedule: { [weak link] in
        guard let owner = link?.owner else { return }
        Task { await owner.takeMail() }
      },
      flush: { [weak link] in
        await link?.owner?.takeMail()
      }
    )
    self.core = core
    self.link = link
    link.owner = self
  }

  /// The current state.
  public var state: State { core.state }

  /// Sends an action to the reducer and starts the effects it returns.
  ///
  /// The action, and every action its effects send synchronously, are reduced before this
  /// returns; observers then see the resulting state once. The returned task follows the
  /// asynchronous effects.
  @discardableResult
  public func send(_ action: Action) -> StoreTask {
    core.send(action)
  }

  /// Whether the store has nothing in flight: no effect it started is still running (a timer, a
  /// request), and no action an effect sent waits to be reduced. A server may then keep only the
  /// state of a store nobody uses and build a new store from it later: nothing is lost.
  public var isIdle: Bool {
    takeMail()
    return core.registry.runningCount == 0
  }

  /// Reads the state on the actor, for callers that need only part of a state that is not
  /// `Sendable`.
  public func withState<Value: Sendable>(_ body: @Sendable (State) throws -> Value) rethrows
    -> Value
  {
    try body(core.state)
  }

  // MARK: Observation

  /// Calls `onChange`, on the actor, with each new value of a property of the state, right after
  /// the send that changed it. Observation stops when the token is cancelled or released.
  public func observe<Value: Equatable>(
    _ keyPath: KeyPath<State, Value>,
    onChange: @escaping @Sendable (_ value: Value) -> Void
  ) -> StoreActorObserveToken {
    let read = _StateRead(keyPath)
    let last = _LastValue(read.get(core.state))
    return addObserver { state in
      let changed = read.read(state) { value -> Value? in
        guard value != last.value else { return nil }
        last.value = value
        return value
      }
      if let changed { onChange(changed) }
    }
  }

  /// Calls `onSend`, on the actor, with the state after every send, changed or not, for
  /// observers that compare what they derive from it themselves (a `Shared` value compares
  /// through its reference, so a state before and after a shared change can compare equal).
  public func observeSends(
    _ onSend: @escaping @Sendable (_ state: State) -> Void
  ) -> StoreActorObserveToken {
    addObserver(onSend)
  }

  /// Registers an observer that a cancelled token silences at once; it leaves the core on the
  /// actor's next turn.
  private func addObserver(_ stateDidChange: @escaping (State) -> Void)
    -> StoreActorObserveToken
  {
    let isCancelled = _CancelFlag()
    let id = core.addObserver(
      stateDidChange: { state in
        guard !isCancelled.value.load(ordering: .acquiring) else { return }
        stateDidChange(state)
      },
      finish: {}
    )
    return StoreActorObserveToken { [weak self] in
      isCancelled.value.store(true, ordering: .releasing)
      Task { await self?.removeObserver(id) }
    }
  }

  /// The current state, then the state after every send that changed anything. The sequence ends
  /// when the store goes away; a consumer slower than the store sees the newest `limit` states
  /// (`nil` keeps all).
  public func states(bufferingNewest limit: Int? = nil) -> AsyncStream<State>
  where State: Sendable {
    let policy: AsyncStream<State>.Continuation.BufferingPolicy =
      limit.map { .bufferingNewest($0) } ?? .unbounded
    let (stream, continuation) = AsyncStream<State>.makeStream(bufferingPolicy: policy)
    continuation.yield(core.state)
    let id = core.addObserver(
      stateDidChange: { continuation.yield($0) },
      finish: { continuation.finish() }
    )
    continuation.onTermination = { [weak self] _ in
      Task { await self?.removeObserver(id) }
    }
    return stream
  }

  // MARK: Effects

  /// Reduces the actions effects posted, oldest first.
  fileprivate func takeMail() {
    guard let mailbox = core.mailbox else { return }
    for (action, tasks, effect) in mailbox.take() {
      core.receive(action, tasks: tasks, from: effect)
    }
  }

  private func removeObserver(_ id: Int) {
    core.removeObserver(id)
  }

  /// Runs a step of a concatenated effect on the actor.
  fileprivate func run(_ body: @Sendable () -> Void) {
    body()
  }
}

/// The store a reducer runs in on an actor of its own.
public typealias StoreActorOf<R: Reducer> = StoreActor<R.State, R.Action>

/// Keeps an observation of a ``StoreActor`` alive; it ends with ``cancel()`` or when the token is
/// released.
public final class StoreActorObserveToken: Sendable {
  private let onCancel: Mutex<(@Sendable () -> Void)?>

  init(onCancel: @escaping @Sendable () -> Void) {
    self.onCancel = Mutex(onCancel)
  }

  /// Ends the observation.
  public func cancel() {
    onCancel.withLock { $0.take() }?()
  }

  deinit {
    cancel()
  }
}

/// The core's way back to its actor, without keeping the actor alive: the core's executor for
/// concatenated effects, and the owner its mailbox wakes.
final class _StoreActorLink<State, Action>: _CoreExecutor, @unchecked Sendable {
  // Set once, in the actor's initializer, before the core runs anything.
  weak var owner: StoreActor<State, Action>?

  func run(_ body: @escaping @Sendable () -> Void) async {
    await owner?.run(body)
  }
}

/// Set when an observation is cancelled, read by its observer on the actor.
private final class _CancelFlag: Sendable {
  let value = Atomic(false)
}
