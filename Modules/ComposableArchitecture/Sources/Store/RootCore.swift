import Foundation

/// The state, the resolved reducer and the running effects of a root store. Scoped stores are
/// views onto it.
///
/// A send reduces the action at once and interprets the returned effect in the same step:
/// synchronous actions (`.send`) join a buffer that is drained in order before the send returns,
/// cancellations happen immediately, and each `.run` becomes a task registered under its
/// cancellation identifiers before it can run. Observers are told once, after the buffer is
/// drained, and only those whose value changed are called.
///
/// The fast path — an action whose effect is `.none`, nobody observing — takes no lock, allocates
/// nothing, and runs specialized in the feature's module (the path is `@inlinable`). The reducer
/// is resolved once (see ``_ResolvedReducer``) and again only when the dependencies change.
///
/// A core belongs to one isolation domain: the main actor for `Store` and `TestStore`, its own
/// actor for `StoreActor`. Every method runs there; effect tasks reach the core only through the
/// `Send` its owner builds, which hops there first. That confinement is what the unchecked
/// `Sendable` conformance stands for: the conformance lets the owner's closures capture the core,
/// and nothing reaches it from another domain.
@usableFromInline
package final class RootCore<State, Action>: @unchecked Sendable {
  @usableFromInline @exclusivity(unchecked) package var state: State
  @usableFromInline @exclusivity(unchecked) var resolved: _ResolvedReducer<State, Action>
  @usableFromInline let resolveReducer: (inout _Resolution) -> _ResolvedReducer<State, Action>
  /// Whether the dependencies must be installed around each reduce: false only when the store
  /// runs on exactly the dependencies a reducer would see anyway (see `init`).
  @usableFromInline @exclusivity(unchecked) var installsDependencies: Bool
  @usableFromInline package var dependencies: DependencyValues {
    didSet {
      installsDependencies = true
      resolved = Self.resolve(resolveReducer, with: dependencies)
      if let stepHook { resolved = Self.hooked(resolved, stepHook) }
    }
  }
  /// The observer of the store's steps, if any (a session recording, set from outside the
  /// runtime: see ``_StoreStepHook``): while there is one, `resolved` also reports each step.
  /// `nil` costs the send path one check.
  @usableFromInline @exclusivity(unchecked) package var stepHook: _StoreStepHook<State, Action>?
  /// The dependencies and their installation before the step hook's replaced them.
  @usableFromInline var beforeStepHook: (dependencies: DependencyValues, installs: Bool)?
  @usableFromInline package let registry = CancellationRegistry()
  /// How effect tasks get back to the core's executor.
  @usableFromInline let executor: any _CoreExecutor
  /// Where effects leave their actions when the core is not on the main actor (`StoreActor`);
  /// `nil`: effects deliver on the main actor. Set once, by the owning actor as it starts.
  @usableFromInline @exclusivity(unchecked) var mailbox: _EffectMailbox<Action>?

  @usableFromInline @exclusivity(unchecked) var isSending = false
  @usableFromInline @exclusivity(unchecked) var buffer: [Pending] = []
  @usableFromInline @exclusivity(unchecked) var observers: [Observer] = []
  var nextObserverID = 0

  @usableFromInline
  struct Pending {
    @usableFromInline let action: Action
    @usableFromInline let tasks: EffectTaskList
    /// Whether it was sent from outside (during another send), not by an effect.
    @usableFromInline let isFromOutside: Bool
    /// The effect that sent it, kept only while a step hook is set (a record names it).
    @usableFromInline let effect: EffectHandle?

    @inlinable
    init(
      action: Action, tasks: EffectTaskList, isFromOutside: Bool = false,
      effect: EffectHandle? = nil
    ) {
      self.action = action
      self.tasks = tasks
      self.isFromOutside = isFromOutside
      self.effect = effect
    }
  }

  @usableFromInline
  struct Observer {
    @usableFromInline let id: Int
    @usableFromInline let stateDidChange: (State) -> Void
    @usableFromInline let finish: () -> Void
  }

  /// - Parameter installsDependencies: `false` when `dependencies` are the ambient ones of a
  ///   store that overrides nothing, so reducers see them without a task-local per action.
  @usableFromInline
  init(
    initialState: State,
    resolveReducer: @escaping (inout _Resolution) -> _ResolvedReducer<State, Action>,
    dependencies: DependencyValues,
    installsDependencies: Bool = true,
    executor: any _CoreExecutor = _MainActorCoreExecutor()
  ) {
    self.executor = executor
    self.state = initialState
    self.resolveReducer = resolveReducer
    self.dependencies = dependencies
    self.installsDependencies = installsDependencies
    self.resolved = Self.resolve(resolveReducer, with: dependencies)
  }

  deinit {
    stepHook?.stop(0)
    registry.cancelAll()
    for observer in observers {
      observer.finish()
    }
  }

  @usableFromInline
  static func resolve(
    _ resolveReducer: (inout _Resolution) -> _ResolvedReducer<State, Action>,
    with dependencies: DependencyValues
  ) -> _ResolvedReducer<State, Action> {
    DependencyValues.$_current.withValue(dependencies) {
      var resolution = _Resolution()
      return resolveReducer(&resolution)
    }
  }

  // MARK: Sending

  /// Reduces `action` and everything its effects send synchronously, then tells observers.
  @inlinable
  func send(_ action: Action) -> StoreTask {
    guard !isSending else { return enqueueReentrant(action) }
    isSending = true
    let tasks = withStoreDependencies { process(action, tasks: nil) }
    isSending = false
    if !observers.isEmpty { notifyObservers() }
    return StoreTask(tasks)
  }

  /// Delivers an action an effect sent: reduced at once, or after the send in progress.
  /// `effect` is the effect that sent it, if known: the step hook is told (a record names the
  /// effect), and a hook that holds the action back (``_StoreStepHook/admit``) drops it if that
  /// effect is cancelled before its turn, as a live store drops the send of a cancelled effect.
  @inlinable
  package func receive(_ action: Action, tasks: EffectTaskList, from effect: EffectHandle? = nil) {
    guard !isSending else {
      buffer.append(
        Pending(action: action, tasks: tasks, effect: stepHook == nil ? nil : effect))
      return
    }
    if let stepHook {
      if let admit = stepHook.admit, !admit(action, tasks, effect) { return }
      stepHook.nextIsFromEffect = true
      stepHook.nextEffect = effect
    }
    isSending = true
    _ = withStoreDependenciesUnlessCurrent { process(action, tasks: tasks) }
    isSending = false
    if !observers.isEmpty { notifyObservers() }
  }

  /// An action sent while another is being processed waits its turn; its task follows the
  /// effects it will start.
  @usableFromInline
  func enqueueReentrant(_ action: Action) -> StoreTask {
    let tasks = EffectTaskList()
    buffer.append(Pending(action: action, tasks: tasks, isFromOutside: true))
    return StoreTask(tasks)
  }

  /// Runs a send with the store's dependencies installed — once for the whole send: its action,
  /// the actions its effects send synchronously, and the start of every effect, whose tasks so
  /// inherit the dependencies and need not install them again (see `Effect.run`).
  @inlinable
  func withStoreDependencies<R>(_ body: () -> R) -> R {
    guard installsDependencies else { return body() }
    return DependencyValues.$_current.withValue(dependencies, operation: body)
  }

  /// `withStoreDependencies` for an action an effect sent: the effect's task inherited the
  /// store's dependencies when the send that started it installed them, so they are usually
  /// current already and need no second install (about 750 instructions). An effect whose
  /// reducer ran under other dependencies (`.dependency(_:_:)`), or that outlived a change of the
  /// store's dependencies (recording started), still gets the store's own.
  @inlinable
  func withStoreDependenciesUnlessCurrent<R>(_ body: () -> R) -> R {
    guard installsDependencies, !DependencyValues._current.isIdentical(to: dependencies) else {
      return body()
    }
    return withStoreDependencies(body)
  }

  /// Reduces an action, starts its effects (into `tasks`, or a new list if it starts any) and
  /// drains the actions they sent synchronously.
  @inlinable
  func process(_ action: Action, tasks: EffectTaskList?) -> EffectTaskList? {
    let effect = resolved.run(&state, action)
    var tasks = tasks
    if !effect.isNone {
      let list = tasks ?? EffectTaskList()
      start(effect, tasks: list)
      tasks = list
    }
    if !buffer.isEmpty { drainBuffer() }
    return tasks
  }

  @inlinable
  func drainBuffer() {
    var index = 0
    while index < buffer.count {
      let pending = buffer[index]
      index += 1
      if let stepHook {
        stepHook.nextIsFromEffect = !pending.isFromOutside
        stepHook.nextEffect = pending.effect
      }
      let effect = resolved.run(&state, pending.action)
      if !effect.isNone { start(effect, tasks: pending.tasks) }
    }
    buffer.removeAll(keepingCapacity: true)
  }

  // MARK: Step hook

  /// Sets `hook` (removing one set before) and runs the store on `dependencies` until it is
  /// removed; the store's own dependencies come back then.
  @usableFromInline
  package func setStepHook(
    _ hook: _StoreStepHook<State, Action>, dependencies newDependencies: DependencyValues
  ) {
    removeStepHook()
    beforeStepHook = (dependencies, installsDependencies)
    stepHook = hook
    dependencies = newDependencies
  }

  /// Removes the step hook, if any (telling it how many effects still run), and puts the
  /// store's own dependencies back.
  @usableFromInline
  package func removeStepHook() {
    guard let stepHook else { return }
    stepHook.stop(registry.runningCount)
    self.stepHook = nil
    if let (original, installs) = beforeStepHook {
      beforeStepHook = nil
      dependencies = original
      installsDependencies = installs
    }
  }

  /// `resolved`, also reporting each step to `hook`.
  @usableFromInline
  static func hooked(
    _ resolved: _ResolvedReducer<State, Action>, _ hook: _StoreStepHook<State, Action>
  ) -> _ResolvedReducer<State, Action> {
    _ResolvedReducer { state, action in
      let effect = resolved.run(&state, action)
      let (fromEffect, sender) = (hook.nextIsFromEffect, hook.nextEffect)
      hook.nextIsFromEffect = false
      hook.nextEffect = nil
      // What a reducer outside the observed feature sends it comes from outside it.
      let observed = hook.didReduce(action, state, fromEffect, sender)
      hook.sendsAreFromOutside = !observed
      hook.startsObservedEffects = observed
      return effect
    }
  }

  // MARK: Effects

  @inlinable
  func start(_ effect: Effect<Action>, tasks: EffectTaskList) {
    start(effect, tasks: tasks, cancelIDs: .none)
  }

  @inlinable
  func start(_ effect: Effect<Action>, tasks: EffectTaskList, cancelIDs: consuming _CancelIDs) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      buffer.append(
        Pending(
          action: action, tasks: tasks, isFromOutside: stepHook?.sendsAreFromOutside ?? false))
    case .cancel(let id):
      registry.cancel(id)
    case .cancellable(let effect, let id, let cancelInFlight):
      if cancelInFlight {
        registry.cancel(id)
      }
      start(effect, tasks: tasks, cancelIDs: cancelIDs.appending(id))
    case .merge(let effects):
      for effect in effects {
        start(effect, tasks: tasks, cancelIDs: copy cancelIDs)
      }
    case .run(let operation):
      // A presentation's lifetime is not among the effects a send waits for.
      let counted = !operation.isLifetime
      let running = _RunningEffect(
        operation: operation, core: self, tasks: tasks, isCounted: counted,
        registeredUnder: cancelIDs)
      registry.register(running)
      if let stepHook, stepHook.startsObservedEffects { stepHook.effectStarted(running) }
      if counted { tasks.willStart() }
      // The effect's context is bound around the task's creation, which copies it into the task,
      // and the effect leaves the registry and its task list when the task releases its closure
      // (see `_EffectEnd`): nothing runs in the task after the operation, so an operation whose
      // last step was on the store's executor completes there, without hopping back to the
      // global executor first.
      let end = _EffectEnd(running)
      let task = running.bound {
        if let mailbox {
          return Task(name: operation.name, priority: operation.priority) {
            await end.effect.run()
            // An actor-owned core takes the actions this effect posted before the effect counts
            // as finished, so a `StoreTask` waiting on it also waits for the effects those
            // actions start.
            await mailbox.flush()
          }
        }
        return Task(name: operation.name, priority: operation.priority) {
          await end.effect.run()
        }
      }
      running.attach(task)
      if counted { tasks.append(task) }
    case .concatenate(let effects):
      startConcatenation(effects, tasks: tasks, cancelIDs: cancelIDs)
    }
  }

  @usableFromInline
  func startConcatenation(_ effects: [Effect<Action>], tasks: EffectTaskList, cancelIDs: _CancelIDs)
  {
    let handle = EffectHandle(registeredUnder: cancelIDs)
    registry.register(handle)
    let (registry, executor) = (self.registry, self.executor)
    tasks.willStart()
    let task = Task { [weak self] in
      defer {
        registry.remove(handle)
        tasks.taskEnded()
      }
      for effect in effects {
        guard !Task.isCancelled else { return }
        let step = EffectTaskList()
        await executor.run { [weak self] in
          self?.startStep(effect, tasks: step, cancelIDs: cancelIDs)
        }
        await withTaskCancellationHandler {
          await step.waitForAll()
        } onCancel: {
          step.cancel()
        }
      }
    }
    handle.attach(task)
    tasks.append(task)
  }

  /// Starts one step of a concatenation, on the core's executor.
  private func startStep(_ effect: Effect<Action>, tasks: EffectTaskList, cancelIDs: _CancelIDs) {
    // No step starts it: the step hook is not told (see `_StoreStepHook.startsObservedEffects`).
    let previous = stepHook?.startsObservedEffects
    stepHook?.startsObservedEffects = false
    defer { if let previous { stepHook?.startsObservedEffects = previous } }
    guard !isSending else {
      start(effect, tasks: tasks, cancelIDs: cancelIDs)
      return
    }
    isSending = true
    withStoreDependencies {
      start(effect, tasks: tasks, cancelIDs: cancelIDs)
      if !buffer.isEmpty { drainBuffer() }
    }
    isSending = false
    if !observers.isEmpty { notifyObservers() }
  }

  // MARK: Observation

  /// Calls `stateDidChange` with the state after every send; returns the id that removes it.
  @usableFromInline
  func addObserver(
    stateDidChange: @escaping (State) -> Void,
    finish: @escaping () -> Void
  ) -> Int {
    let id = nextObserverID
    nextObserverID += 1
    observers.append(Observer(id: id, stateDidChange: stateDidChange, finish: finish))
    return id
  }

  @usableFromInline
  func removeObserver(_ id: Int) {
    observers.removeAll { $0.id == id }
  }

  @inlinable
  func notifyObservers() {
    let state = self.state
    for observer in observers {
      observer.stateDidChange(state)
    }
  }
}

/// How the effects of a root store get back to the store's executor.
@usableFromInline
protocol _CoreExecutor: Sendable {
  /// Runs `body` on the core's executor.
  func run(_ body: @escaping @Sendable () -> Void) async
}

/// The executor of `Store` and `TestStore`: the main actor.
@usableFromInline
struct _MainActorCoreExecutor: _CoreExecutor {
  @usableFromInline
  init() {}

  @usableFromInline
  func run(_ body: @escaping @Sendable () -> Void) async {
    await MainActor.run { body() }
  }
}

/// One running `.run` effect: its registration, its context for `Task.cancel(id:)`, its task's
/// body and the target of the `Send` it delivers actions with, in one object — held by the
/// registry, its `Send` and its `_EffectEnd` (which the task's closure holds).
@usableFromInline
final class _RunningEffect<State, Action>: EffectContext, @unchecked Sendable {
  // Set once here, read by the effect's task and its `Send`; see `EffectHandle`. Only what the
  // task needs is kept, not the whole `RunOperation`: fewer copies on the way in.
  @usableFromInline let body: @Sendable (_ send: Send<Action>) async -> Void
  /// Written only here (weak: the store may go while the effect runs); read without a dynamic
  /// exclusivity check on every delivery.
  @usableFromInline @exclusivity(unchecked) weak var core: RootCore<State, Action>?
  @usableFromInline let tasks: EffectTaskList
  /// Whether `tasks` counts this effect (a presentation's lifetime is not counted).
  @usableFromInline let isCounted: Bool
  @usableFromInline let mailbox: _EffectMailbox<Action>?

  @inlinable
  init(
    operation: borrowing RunOperation<Action>, core: RootCore<State, Action>,
    tasks: EffectTaskList, isCounted: Bool, registeredUnder cancelIDs: consuming _CancelIDs
  ) {
    self.body = operation.body
    self.core = core
    self.tasks = tasks
    self.isCounted = isCounted
    self.mailbox = core.mailbox
    super.init(registry: core.registry, path: operation.path, registeredUnder: cancelIDs)
  }

  /// The body of the effect's task: the operation.
  @inlinable
  func run() async {
    await body(Send { action in self.deliver(action) })
  }

  /// Delivers an action the effect sent: into the core on the main actor, or into the mailbox of
  /// the actor that owns the core.
  @inlinable
  func deliver(_ action: Action) {
    if let mailbox {
      mailbox.post(action, tasks: tasks, handle: self)
    } else {
      core?.receive(action, tasks: tasks, from: self)
    }
  }
}

/// The end of a running effect: when the last reference goes — the task's closure, once `start`
/// has returned — the effect leaves the registry and its send's task list.
///
/// Swift's runtime releases a task's closure as the task completes (before it wakes whoever awaits
/// the task), not when the last `Task` handle goes; `StoreTask.finish()` relies on that, and every
/// test that awaits an effect would hang without it. In exchange, the waiters of the task list are
/// woken from wherever the operation ended (the store's executor, after a last `send`) instead of
/// after a hop back to the global executor that a step of the task's own would take.
@usableFromInline
final class _EffectEnd<State, Action>: Sendable {
  @usableFromInline let effect: _RunningEffect<State, Action>

  @usableFromInline
  init(_ effect: _RunningEffect<State, Action>) {
    self.effect = effect
  }

  deinit {
    effect.registry.remove(effect)
    if effect.isCounted { effect.tasks.taskEnded() }
  }
}

/// The actions that effects of a core owned by an actor send back, in order, until the actor
/// takes them. An action whose effect was cancelled before the actor took it is dropped, as a
/// main-actor store would have dropped it at `send`.
@usableFromInline
final class _EffectMailbox<Action>: @unchecked Sendable {
  // Guarded by `lock`; the actions are handed from effect tasks to the owning actor.
  private let lock = NSLock()
  private var pending: [(action: Action, tasks: EffectTaskList, handle: EffectHandle)] = []
  private var isScheduled = false
  /// Asks the owner to take the pending actions, on its executor.
  let schedule: @Sendable () -> Void
  /// Has the owner take the pending actions now, and returns once it has.
  @usableFromInline let flush: @Sendable () async -> Void

  init(schedule: @escaping @Sendable () -> Void, flush: @escaping @Sendable () async -> Void) {
    self.schedule = schedule
    self.flush = flush
  }

  @usableFromInline
  func post(_ action: Action, tasks: EffectTaskList, handle: EffectHandle) {
    let needsSchedule = lock.withLock {
      pending.append((action, tasks, handle))
      defer { isScheduled = true }
      return !isScheduled
    }
    if needsSchedule { schedule() }
  }

  /// The actions posted so far, oldest first, without those of cancelled effects, each with the
  /// effect that sent it.
  func take() -> [(action: Action, tasks: EffectTaskList, effect: EffectHandle)] {
    let taken = lock.withLock {
      defer {
        pending.removeAll()
        isScheduled = false
      }
      return pending
    }
    return taken.compactMap { $0.handle.isCancelled ? nil : ($0.action, $0.tasks, $0.handle) }
  }
}
