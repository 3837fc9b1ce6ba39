/// The state, reducer and running effects of a root store. Scoped stores are views onto it.
///
/// A send appends the action to a buffer and, unless a send is already in progress, processes
/// the buffer in order: reduce, then interpret the returned effect at once — synchronous
/// actions join the end of the same buffer, cancellations happen immediately, and each `.run`
/// becomes a task registered under its cancellation identifiers before it can run. Observers
/// are told once, after the buffer is drained.
@MainActor
final class RootCore<State, Action> {
  private(set) var state: State
  private let reducer: (inout State, Action) -> Effect<Action>
  var dependencies: DependencyValues
  let registry = CancellationRegistry()

  private var buffer: [Pending] = []
  private var isSending = false
  private var observers: [Int: RootObserver] = [:]
  private var nextObserverID = 0

  struct Pending {
    let action: Action
    let tasks: EffectTaskList
  }

  init(
    initialState: State,
    reducer: @escaping (inout State, Action) -> Effect<Action>,
    dependencies: DependencyValues
  ) {
    self.state = initialState
    self.reducer = reducer
    self.dependencies = dependencies
  }

  isolated deinit {
    registry.cancelAll()
    for observer in observers.values {
      observer.onFinish()
    }
  }

  // MARK: Sending

  func send(_ action: Action) -> StoreTask {
    let tasks = EffectTaskList()
    enqueue(action, tasks: tasks)
    return StoreTask(tasks.isEmpty ? nil : tasks)
  }

  private func enqueue(_ action: Action, tasks: EffectTaskList) {
    guard !isSending else {
      // Re-entrant: an action sent while another is being reduced waits its turn.
      buffer.append(Pending(action: action, tasks: tasks))
      return
    }
    isSending = true
    // Fast path: the action that started the send is reduced without going through the buffer.
    reduce(action, tasks: tasks)
    if !buffer.isEmpty {
      var index = 0
      while index < buffer.count {
        let pending = buffer[index]
        index += 1
        reduce(pending.action, tasks: pending.tasks)
      }
      buffer.removeAll(keepingCapacity: true)
    }
    isSending = false
    notifyObservers()
  }

  private func reduce(_ action: Action, tasks: EffectTaskList) {
    let effect = DependencyValues.$_current.withValue(dependencies) {
      reducer(&state, action)
    }
    start(effect, tasks: tasks, cancelIDs: [])
  }

  // MARK: Effects

  private func start(_ effect: Effect<Action>, tasks: EffectTaskList, cancelIDs: [EffectID]) {
    switch effect.operation {
    case .none:
      return
    case .send(let action):
      enqueue(action, tasks: tasks)
    case .cancel(let id):
      registry.cancel(id)
    case .cancellable(let effect, let id, let cancelInFlight):
      if cancelInFlight {
        registry.cancel(id)
      }
      start(effect, tasks: tasks, cancelIDs: cancelIDs + [id])
    case .merge(let effects):
      for effect in effects {
        start(effect, tasks: tasks, cancelIDs: cancelIDs)
      }
    case .run(let operation):
      let handle = EffectHandle(registeredUnder: cancelIDs)
      registry.register(handle)
      let send = Send<Action> { [weak self] action in
        self?.enqueue(action, tasks: tasks)
      }
      let task = Self.runTask(
        operation, send: send,
        context: EffectContext(registry: registry, path: operation.path), handle: handle)
      handle.attach(task)
      tasks.append(task)
    case .concatenate(let effects):
      let handle = EffectHandle(registeredUnder: cancelIDs)
      registry.register(handle)
      let registry = self.registry
      let task = Task { [weak self] in
        defer { registry.remove(handle) }
        for effect in effects {
          guard let self, !Task.isCancelled else { return }
          let step = EffectTaskList()
          self.start(effect, tasks: step, cancelIDs: cancelIDs)
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
  }

  /// Starts the task of a `.run` effect off the main actor; it unregisters itself when done.
  private nonisolated static func runTask(
    _ operation: RunOperation<Action>,
    send: Send<Action>,
    context: EffectContext,
    handle: EffectHandle
  ) -> Task<Void, Never> {
    Task(name: operation.name, priority: operation.priority) {
      await EffectContext.$current.withValue(context) {
        await operation.body(send)
      }
      context.registry.remove(handle)
    }
  }

  // MARK: Observation

  func addObserver(
    onChange: @escaping @MainActor (_ rootState: Any) -> Void,
    onFinish: @escaping @MainActor () -> Void
  ) -> Int {
    let id = nextObserverID
    nextObserverID += 1
    observers[id] = RootObserver(onChange: onChange, onFinish: onFinish)
    return id
  }

  func removeObserver(_ id: Int) {
    observers[id] = nil
  }

  private func notifyObservers() {
    guard !observers.isEmpty else { return }
    let state = self.state as Any
    for observer in observers.values {
      observer.onChange(state)
    }
  }
}

/// An observer of a root store. Not nested in the generic `RootCore`, so that the dictionary of
/// observers has one concrete type and checking it needs no generic metadata on every send.
struct RootObserver {
  let onChange: @MainActor (_ rootState: Any) -> Void
  let onFinish: @MainActor () -> Void
}
