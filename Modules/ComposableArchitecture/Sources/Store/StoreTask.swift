import Synchronization

/// The effects started by one `Store.send`, including those started by the actions those
/// effects sent back, transitively.
///
/// ```swift
/// // Keep the search running only as long as the caller is interested:
/// await store.send(.searchQueryChangeDebounced).finish()
/// ```
public struct StoreTask: Hashable, Sendable {
  @usableFromInline let tasks: EffectTaskList?

  @inlinable
  init(_ tasks: EffectTaskList?) {
    self.tasks = tasks
  }

  /// Cancels the effects.
  public func cancel() {
    tasks?.cancel()
  }

  /// Waits for the effects to finish. Cancelling the waiting task cancels them.
  ///
  /// The wait stays on the caller's executor (`isolation`, the caller's by default): awaited on
  /// the main actor it does not hop to the global executor to wait and back again.
  public func finish(isolation: isolated (any Actor)? = #isolation) async {
    guard let tasks, tasks.isRunning else { return }
    // One async frame for the handler and the continuation: each frame is a task allocation.
    await withTaskCancellationHandler {
      await withUnsafeContinuation(isolation: isolation) { tasks.wait(resuming: $0) }
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
/// more actions, and ``StoreTask/finish()`` waits until every one has ended.
///
/// Each task is counted from just before it is created (``willStart()``) until it ends
/// (``taskEnded()``: for a `.run`, when the task releases its closure, see `_EffectEnd`; for a
/// concatenation, its body's last step), and a waiter is a continuation resumed when the count
/// reaches zero. Because an effect's actions start their effects (and count them) before the
/// effect ends, the count cannot reach zero while more work is on its way.
@usableFromInline
package final class EffectTaskList: Sendable {
  @usableFromInline
  init() {}

  private let state = Mutex<State>(State())

  private struct State {
    /// The tasks, the first kept inline: most sends start one effect.
    var first: Task<Void, Never>?
    var rest: [Task<Void, Never>] = []
    var isCancelled = false
    /// Tasks counted by `willStart()` whose body has not yet ended.
    var running = 0
    /// Who waits for the count to reach zero; the first kept inline (there is rarely another).
    var firstWaiter: UnsafeContinuation<Void, Never>?
    var otherWaiters: [UnsafeContinuation<Void, Never>] = []

    var all: [Task<Void, Never>] {
      first.map { [$0] + rest } ?? []
    }
  }

  /// Counts a task about to be created; ``taskEnded()`` must follow once, when the task ends.
  @usableFromInline
  func willStart() {
    state.withLock { $0.running += 1 }
  }

  /// Keeps a task for cancellation. A list cancelled before the task arrives cancels it at once.
  @usableFromInline
  func append(_ task: Task<Void, Never>) {
    let cancelled = state.withLock { state -> Bool in
      if state.first == nil {
        state.first = task
      } else {
        state.rest.append(task)
      }
      return state.isCancelled
    }
    if cancelled { task.cancel() }
  }

  /// The end of a task counted by ``willStart()``: wakes the waiters when it was the last.
  @usableFromInline
  func taskEnded() {
    let (first, others) = state.withLock {
      state -> (UnsafeContinuation<Void, Never>?, [UnsafeContinuation<Void, Never>]) in
      state.running -= 1
      guard state.running == 0, let first = state.firstWaiter else { return (nil, []) }
      defer {
        state.firstWaiter = nil
        state.otherWaiters = []
      }
      return (first, state.otherWaiters)
    }
    first?.resume()
    for waiter in others { waiter.resume() }
  }

  var isCancelled: Bool { state.withLock { $0.isCancelled } }

  func cancel() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.isCancelled = true
      return state.all
    }
    for task in tasks { task.cancel() }
  }

  /// Whether some counted task has not ended yet.
  var isRunning: Bool { state.withLock { $0.running > 0 } }

  /// Resumes `waiter` when every task has ended, including those started while waiting: at once
  /// if none is running, otherwise from the last ``taskEnded()``.
  func wait(resuming waiter: UnsafeContinuation<Void, Never>) {
    let endedMeanwhile = state.withLock { state -> Bool in
      guard state.running > 0 else { return true }
      if state.firstWaiter == nil {
        state.firstWaiter = waiter
      } else {
        state.otherWaiters.append(waiter)
      }
      return false
    }
    if endedMeanwhile { waiter.resume() }
  }

  /// Waits until every task has ended, including those started while waiting, on the caller's
  /// executor.
  func waitForAll(isolation: isolated (any Actor)? = #isolation) async {
    guard isRunning else { return }
    await withUnsafeContinuation(isolation: isolation) { wait(resuming: $0) }
  }
}
