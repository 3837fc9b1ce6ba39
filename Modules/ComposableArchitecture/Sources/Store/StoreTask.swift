import Synchronization

/// The effects started by one `Store.send`, including those started by the actions those
/// effects sent back, transitively.
///
/// ```swift
/// // Keep the search running only as long as the caller is interested:
/// await store.send(.searchQueryChangeDebounced).finish()
/// ```
public struct StoreTask: Hashable, Sendable {
  let tasks: EffectTaskList?

  init(_ tasks: EffectTaskList?) {
    self.tasks = tasks
  }

  /// Cancels the effects.
  public func cancel() {
    tasks?.cancel()
  }

  /// Waits for the effects to finish. Cancelling the waiting task cancels them.
  public func finish() async {
    guard let tasks else { return }
    await withTaskCancellationHandler {
      await tasks.waitForAll()
    } onCancel: {
      tasks.cancel()
    }
  }

  /// Whether the effects were cancelled; `true` when the send started no effect.
  public var isCancelled: Bool {
    tasks?.isCancelled ?? true
  }

  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.tasks === rhs.tasks }
  public func hash(into hasher: inout Hasher) {
    hasher.combine(tasks.map(ObjectIdentifier.init))
  }
}

/// The tasks of the effects started on behalf of one send. It grows while those effects send
/// more actions, and is drained in order by ``StoreTask/finish()``.
final class EffectTaskList: Sendable {
  private let state = Mutex<(tasks: [Task<Void, Never>], isCancelled: Bool)>(([], false))

  func append(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state -> Bool in
      state.tasks.append(task)
      return state.isCancelled
    }
    if cancelled { task.cancel() }
  }

  var isEmpty: Bool { state.withLock { $0.tasks.isEmpty } }
  var isCancelled: Bool { state.withLock { $0.isCancelled } }

  func cancel() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.isCancelled = true
      return state.tasks
    }
    for task in tasks { task.cancel() }
  }

  func waitForAll() async {
    var index = 0
    while let task = state.withLock({ index < $0.tasks.count ? $0.tasks[index] : nil }) {
      await task.value
      index += 1
    }
  }

  /// Whether every task has finished, without waiting.
  var tasks: [Task<Void, Never>] { state.withLock { $0.tasks } }
}
