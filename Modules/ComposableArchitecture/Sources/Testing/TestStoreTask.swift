import Foundation

/// The effects of one ``TestStore/send(_:assert:fileID:file:line:column:)``, for tests that
/// cancel them or wait for them.
public struct TestStoreTask: Hashable, Sendable {
  let rawValue: StoreTask
  let timeout: Duration

  /// Cancels the effects and waits until they have stopped.
  public func cancel() async {
    rawValue.cancel()
    await rawValue.tasks?.waitForAll()
  }

  /// Waits for the effects to finish; fails the test if they are still running after `timeout`
  /// (default: the store's ``TestStore/timeout``) of real time.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    guard let tasks = rawValue.tasks else { return }
    let timeout = timeout ?? self.timeout
    let finished = await waitUntil(timeout: timeout) { await tasks.waitForAll() }
    if !finished {
      reportIssue(
        """
        Expected task to finish, but it is still in-flight after \(timeout.formattedSeconds).
        """,
        fileID: fileID, filePath: filePath, line: line, column: column
      )
    }
  }

  /// Whether the effects were cancelled; `true` when the send started no effect.
  public var isCancelled: Bool {
    rawValue.isCancelled
  }
}

/// Runs `operation` in a task and polls until it finishes or `timeout` of real time passes.
/// Returns whether it finished; an unfinished operation is left running.
@MainActor
func waitUntil(timeout: Duration, _ operation: @escaping @Sendable () async -> Void) async -> Bool {
  let isFinished = LockIsolated(false)
  let watcher = Task {
    await operation()
    isFinished.setValue(true)
  }
  _ = watcher
  let deadline = ContinuousClock.now.advanced(by: timeout)
  while !isFinished.value {
    if ContinuousClock.now >= deadline { return false }
    await Task.megaYield(count: 10)
    if !isFinished.value {
      try? await Task.sleep(for: .milliseconds(1))
    }
  }
  return true
}

extension Duration {
  /// "1.0 seconds", "0.5 seconds".
  var formattedSeconds: String {
    let (seconds, attoseconds) = components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return "\(value) seconds"
  }
}
