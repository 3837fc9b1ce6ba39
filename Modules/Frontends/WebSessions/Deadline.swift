import Synchronization

/// Runs an operation against a deadline, answering as soon as either comes: for a storage that
/// may stop answering (a database outage), so that a request waiting for it gets a prompt answer
/// instead of hanging.
package enum Deadline {
  /// The operation's result, or `nil` when `timeout` passed first. The operation runs in a task
  /// of its own and is cancelled then, but not waited for: a storage that ignores cancellation
  /// cannot hold the answer past the deadline.
  package static func run<T: Sendable>(
    _ timeout: Duration, _ operation: @escaping @Sendable () async throws -> T
  ) async -> Result<T, any Error>? {
    let answer = Mutex<CheckedContinuation<Result<T, any Error>?, Never>?>(nil)
    let finish: @Sendable (Result<T, any Error>?) -> Void = { result in
      answer.withLock { $0.take() }?.resume(returning: result)
    }
    var tasks: [Task<Void, Never>] = []
    let result = await withCheckedContinuation { continuation in
      answer.withLock { $0 = continuation }
      tasks.append(
        Task {
          do {
            finish(.success(try await operation()))
          } catch {
            finish(.failure(error))
          }
        })
      tasks.append(
        Task {
          guard (try? await Task.sleep(for: timeout)) != nil else { return }
          finish(nil)
        })
    }
    for task in tasks { task.cancel() }
    return result
  }
}
