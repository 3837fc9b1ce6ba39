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
@usableFromInline
final class EffectTaskList: Sendable {
  @usableFromInline
  init() {}

  private let state = Mutex<State>(State())

  /// The tasks, the first kept inline: most sends start one effect.
  private struct State {
    var first: Task<Void, Never>?
    var rest: [Task<Void, Never>] = []
    var isCancelled = false

    var count: Int { first == nil ? 0 : 1 + rest.count }

    subscript(index: Int) -> Task<Void, Never> {
      index == 0 ? first! : rest[index - 1]
    }

    var all: [Task<Void, Never>] {
      first.map { [$0] + rest } ?? []
    }
  }

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

  var isEmpty: Bool { state.withLock { $0.first == nil } }
  var isCancelled: Bool { state.withLock { $0.isCancelled } }

  func cancel() {
    let tasks = state.withLock { state -> [Task<Void, Never>] in
      state.isCancelled = true
      return state.all
    }
    for task in tasks { task.cancel() }
  }

  /// Waits for every task, including those appended while waiting.
  func waitForAll() async {
    var index = 0
    while let task = state.withLock({ index < $0.count ? $0[index] : nil }) {
      await task.value
      index += 1
    }
  }

  /// The tasks so far.
  var tasks: [Task<Void, Never>] { state.withLock { $0.all } }
}
