import Foundation
import Synchronization

/// Whether the archive's storage answers, for readiness: an instance with no save on its way
/// learns of a database outage only by asking. The probe reads a session id that cannot exist
/// (the same path a resume takes) and fails when the read throws or takes longer than
/// `timeout`.
///
/// Health checks come often (every few hundred milliseconds, from each balancer), so one result
/// serves every check for `interval`; a check that comes while a probe is on its way gets the
/// previous result instead of starting another, so a hanging storage never piles up probes.
final class StorageProbe: Sendable {
  private struct State {
    var checkedAt: ContinuousClock.Instant?
    var problem: String?
    var isProbing = false
  }

  private let state = Mutex(State())
  private let interval: Duration
  private let timeout: Duration

  init(interval: Duration, timeout: Duration) {
    self.interval = interval
    self.timeout = timeout
  }

  /// Why the storage cannot be used now, or `nil` when its last probe answered.
  func problem(of archive: SessionArchive) async -> String? {
    let startsProbe = state.withLock { state -> Bool in
      if state.isProbing { return false }
      if let checkedAt = state.checkedAt, checkedAt.duration(to: .now) < interval { return false }
      state.isProbing = true
      return true
    }
    if startsProbe {
      let problem = await probe(archive)
      state.withLock { state in
        state.checkedAt = .now
        state.problem = problem
        state.isProbing = false
      }
    }
    return state.withLock { $0.problem }
  }

  /// One read, raced against the timeout. The read runs in a task of its own so that a storage
  /// that ignores cancellation cannot hold the answer past the timeout.
  private func probe(_ archive: SessionArchive) async -> String? {
    let timeout = self.timeout
    let answer = Mutex<CheckedContinuation<String?, Never>?>(nil)
    let finish: @Sendable (String?) -> Void = { problem in
      answer.withLock { $0.take() }?.resume(returning: problem)
    }
    var tasks: [Task<Void, Never>] = []
    let problem = await withCheckedContinuation { continuation in
      answer.withLock { $0 = continuation }
      tasks.append(
        Task {
          do {
            _ = try await archive.load(.unused)
            finish(nil)
          } catch {
            finish("the storage cannot be read: \(error.localizedDescription)")
          }
        })
      tasks.append(
        Task {
          try? await Task.sleep(for: timeout)
          finish("the storage did not answer in \(timeout.seconds) s")
        })
    }
    for task in tasks { task.cancel() }
    return problem
  }
}

extension Duration {
  /// The duration in seconds, as a person writes it: `1`, `0.25`.
  fileprivate var seconds: String {
    let (seconds, attoseconds) = components
    let value = Double(seconds) + Double(attoseconds) / 1e18
    return value == value.rounded() ? String(Int(value)) : String(value)
  }
}

extension SessionID {
  /// An id no session has: the probe reads it.
  fileprivate static let unused = SessionID("00000000000000000000000000000000")!
}
