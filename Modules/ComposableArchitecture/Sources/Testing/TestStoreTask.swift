import Foundation
import Synchronization

/// The effects of one ``TestStore/send(_:assert:fileID:file:line:column:)``, for tests that
/// cancel them or wait for them.
public struct TestStoreTask: Hashable, Sendable {
  let rawValue: StoreTask
  let timeout: Duration

  @usableFromInline
  init(rawValue: StoreTask, timeout: Duration) {
    self.rawValue = rawValue
    self.timeout = timeout
  }

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

        If this task delivers its action using a clock/scheduler (via "sleep(for:)", \
        "timer(interval:)", etc.), make sure that you wait enough time for it to perform its \
        work. If you are using a test clock/scheduler, advance the scheduler so that the \
        effects may complete, or consider using an immediate clock/scheduler to immediately \
        perform the effect instead.

        If you are not yet using a clock/scheduler, or cannot use a clock/scheduler, configure \
        this assertion with an explicit "timeout".
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

/// Runs `operation` and waits for it, at most `timeout` of real time. Returns whether it
/// finished; an unfinished operation is left running (it waits on effects, which a test may still
/// advance).
func waitUntil(
  timeout: Duration, _ operation: @escaping @Sendable () async -> Void
) async -> Bool {
  let outcome = Mutex<CheckedContinuation<Bool, Never>?>(nil)
  let resume: @Sendable (Bool) -> Void = { finished in
    outcome.withLock { continuation in
      continuation?.resume(returning: finished)
      continuation = nil
    }
  }
  return await withCheckedContinuation { continuation in
    outcome.withLock { $0 = continuation }
    Task {
      await operation()
      resume(true)
    }
    Task {
      try? await Task.sleep(for: timeout)
      resume(false)
    }
  }
}

extension Duration {
  /// "1.0 seconds", "0.5 seconds".
  var formattedSeconds: String {
    let (seconds, attoseconds) = components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return "\(value) seconds"
  }
}
