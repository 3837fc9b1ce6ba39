import Foundation
import Synchronization

/// Whether the archive's storage answers, for readiness: an instance with no save on its way
/// learns of a database outage only by asking. The probe reads a session id that cannot exist
/// (the same path a resume takes) and fails when the read throws or takes longer than
/// `timeout`.
///
/// Health checks come often (every few hundred milliseconds, from each balancer), so one result
/// serves every check for `interval` — a failed one only for ``retryInterval``, so that an
/// instance is ready again within a fraction of a second of its storage coming back; a check
/// that comes while a probe is on its way gets the previous result instead of starting another,
/// so a hanging storage never piles up probes.
package final class StorageProbe: Sendable {
  private struct State {
    var checkedAt: ContinuousClock.Instant?
    var problem: String?
    var isProbing = false
  }

  private let state = Mutex(State())
  private let interval: Duration
  private let timeout: Duration

  /// How long a failed probe's result serves (at most) before the next check probes again.
  package static let retryInterval: Duration = .milliseconds(200)

  package init(interval: Duration, timeout: Duration) {
    self.interval = interval
    self.timeout = timeout
  }

  /// Why the storage cannot be used now, or `nil` when its last probe answered.
  package func problem(of savedSessions: SavedSessions) async -> String? {
    let startsProbe = state.withLock { state -> Bool in
      if state.isProbing { return false }
      if let checkedAt = state.checkedAt,
        checkedAt.duration(to: .now)
          < (state.problem == nil ? interval : min(interval, Self.retryInterval))
      {
        return false
      }
      state.isProbing = true
      return true
    }
    if startsProbe {
      let problem = await probe(savedSessions)
      state.withLock { state in
        state.checkedAt = .now
        state.problem = problem
        state.isProbing = false
      }
    }
    return state.withLock { $0.problem }
  }

  /// One read, raced against the timeout (``Deadline``).
  private func probe(_ savedSessions: SavedSessions) async -> String? {
    switch await Deadline.run(timeout, { try await savedSessions.load(.unused) }) {
    case .success?: nil
    case .failure(let error)?: "the storage cannot be read: \(error.localizedDescription)"
    case nil: "the storage did not answer in \(timeout.seconds) s"
    }
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
