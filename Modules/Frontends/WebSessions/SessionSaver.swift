import Foundation
import Synchronization

/// Writes the states that sessions hand to their archive, for all the sessions of an archive
/// together: while one write is on its way, the newest state of every session that changed in
/// the meantime waits, and the next write saves all of them in one transaction (group commit).
/// Under load that is one transaction for many actions instead of one per action, and the cost
/// of a write — a hop to the database's queue, a commit — is shared by every session in it.
///
/// Only a session's newest state is kept while it waits: a state that a newer one replaced
/// before it was written is never written, and whoever waited for it is released with the newer
/// one (a session releases the waiters of every revision up to the one written). Each session
/// hears when its state is written (or failed to be), with the revision.
///
/// A write that fails is tried again — after 50 ms, then twice as long each time up to 250 ms,
/// so that an instance notices within a quarter of a second that its database is back (and its
/// readiness recovers as soon) —
/// until it succeeds or the session is forgotten (``forget(_:)``), newest state first: a state
/// that failed waits with the states handed over since, and a newer one of its session replaces
/// it. So whatever a session showed is in the database once the database takes writes again,
/// with no further request. ``health`` tells whether writes are failing (readiness) and how
/// long the oldest unsaved state has waited (metrics).
package final class SessionSaver: Sendable {
  /// A session's state waiting to be written.
  package struct Pending: Sendable {
    let visitor: VisitorID
    /// The copy of the session that handed it over (``SavedSessions/SavedSession/holder``).
    let holder: String
    let revision: Int
    /// What of the state is saved; written as JSON when its turn comes.
    let kept: AnyKeptState
    /// Called once the state is written, could not be (after a failure, again for each later
    /// try), or was refused because another copy holds the session, with its revision.
    let written: @Sendable (_ revision: Int, _ outcome: Outcome) -> Void
    /// Since when the session has had a state that is not saved: kept from the state this one
    /// replaced, if that was not saved either.
    var unsavedSince: ContinuousClock.Instant = .now
  }

  /// What became of a write of a session's state.
  package enum Outcome: Sendable {
    case saved
    /// The write failed; it is tried again.
    case failed(any Error)
    /// The storage left the session as it was: another copy holds it now. Not tried again.
    case superseded
  }

  /// Whether writes succeed, as readiness and metrics read it.
  package struct Health: Equatable, Sendable {
    /// Since when writes have failed without one succeeding; `nil` while they succeed.
    package var failingSince: ContinuousClock.Instant?
    /// What the last failed write said.
    package var lastFailure: String?
    /// Writes of a session's state that failed, and that were tried again, since the start.
    package var failedSaves = 0
    package var retriedSaves = 0
    /// Since when the oldest state not yet saved has waited; `nil` when every state is saved.
    package var oldestUnsaved: ContinuousClock.Instant?
  }

  /// The pause before the first retry, and the longest pause between two.
  package static let firstRetryDelay: Duration = .milliseconds(50)
  package static let longestRetryDelay: Duration = .milliseconds(250)

  private struct State {
    var pending: [SessionID: Pending] = [:]
    var isWriting = false
    var health = Health()
    /// The states of the write on its way, by session, with since when each is unsaved.
    var writing: [SessionID: ContinuousClock.Instant] = [:]
    /// Sessions forgotten while their state was being written: not tried again.
    var forgotten: Set<SessionID> = []
  }

  private let state = Mutex(State())
  /// The timeouts of requests that wait for a write, for the sessions of this archive.
  package let timeouts = Timeouts()

  /// Hands a session's newest state to the writer; writes at once when no write is on its way,
  /// with the next write otherwise. It replaces the state of that session still waiting, if
  /// any (whose waiters the newer revision releases); an older revision of the same copy than
  /// the one waiting is ignored. A state of another copy of the session (one that resumed it
  /// after the copy of the waiting state was dropped) replaces the waiting one whatever its
  /// revision: the waiting one is refused as superseded.
  package func enqueue(
    _ id: SessionID, _ entry: Pending,
    save:
      @escaping @Sendable ([SessionID: SavedSessions.SavedSession]) async throws -> Set<
        SessionID
      >
  ) {
    var entry = entry
    var replaced: Pending?
    let startsWriting = state.withLock { state -> Bool in
      if let waiting = state.pending[id] {
        if waiting.holder != entry.holder {
          replaced = waiting
        } else {
          if waiting.revision >= entry.revision { return false }
          entry.unsavedSince = min(entry.unsavedSince, waiting.unsavedSince)
        }
      }
      if let writing = state.writing[id] { entry.unsavedSince = min(entry.unsavedSince, writing) }
      state.forgotten.remove(id)
      state.pending[id] = entry
      guard !state.isWriting else { return false }
      state.isWriting = true
      return true
    }
    replaced.map { $0.written($0.revision, .superseded) }
    if startsWriting {
      Task { await self.write(with: save) }
    }
  }

  /// Stops writing a session's state (the session ended and its saved state is deleted): a state
  /// that waits, or fails on its way, is not tried again.
  package func forget(_ id: SessionID) {
    state.withLock { state in
      state.pending[id] = nil
      if state.writing[id] != nil { state.forgotten.insert(id) }
    }
  }

  /// Whether writes succeed, and how long the oldest unsaved state has waited.
  package var health: Health {
    state.withLock { state in
      var health = state.health
      health.oldestUnsaved = (state.pending.values.map(\.unsavedSince) + state.writing.values).min()
      return health
    }
  }

  /// Writes what waits, one batch at a time, until nothing does; a failed batch waits with what
  /// came since and is tried again after a pause.
  private func write(
    with save: @Sendable ([SessionID: SavedSessions.SavedSession]) async throws -> Set<SessionID>
  ) async {
    var delay = Self.firstRetryDelay
    while let batch = nextBatch() {
      var entries: [SessionID: SavedSessions.SavedSession] = [:]
      entries.reserveCapacity(batch.count)
      for (id, pending) in batch {
        do {
          entries[id] = SavedSessions.SavedSession(
            visitor: pending.visitor, revision: pending.revision,
            state: try pending.kept.encode(), holder: pending.holder)
        } catch {
          pending.written(pending.revision, .failed(error))
        }
      }
      var failure: (any Error)?
      var refused: Set<SessionID> = []
      if !entries.isEmpty {
        do {
          refused = try await save(entries)
        } catch {
          failure = error
        }
      }
      let written = batch.filter { entries[$0.key] != nil }
      settle(written, failure: failure)
      for (id, pending) in written {
        let outcome: Outcome =
          if let failure { .failed(failure) } else if refused.contains(id) {
            .superseded
          } else { .saved }
        pending.written(pending.revision, outcome)
      }
      if failure == nil {
        delay = Self.firstRetryDelay
      } else {
        try? await Task.sleep(for: delay)
        delay = min(delay * 2, Self.longestRetryDelay)
      }
    }
  }

  /// After a write: its states are saved, or wait to be tried again unless a newer state of
  /// their session waits already (or the session was forgotten meanwhile).
  private func settle(_ batch: [SessionID: Pending], failure: (any Error)?) {
    state.withLock { state in
      defer {
        state.writing = [:]
        state.forgotten = []
      }
      guard let failure else {
        state.health.failingSince = nil
        return
      }
      state.health.failingSince = state.health.failingSince ?? .now
      state.health.lastFailure = failure.localizedDescription
      state.health.failedSaves += batch.count
      for (id, pending) in batch where !state.forgotten.contains(id) {
        state.health.retriedSaves += 1
        if var newer = state.pending[id] {
          // A newer copy's state replaces a failed one of the copy it superseded (which was
          // dropped before the newer copy could resume the session).
          guard newer.holder == pending.holder else { continue }
          newer.unsavedSince = min(newer.unsavedSince, pending.unsavedSince)
          state.pending[id] = newer
        } else {
          state.pending[id] = pending
        }
      }
    }
  }

  /// Everything that waits, taken; `nil` (and the writer stops) when nothing does.
  private func nextBatch() -> [SessionID: Pending]? {
    state.withLock { state in
      guard !state.pending.isEmpty else {
        state.isWriting = false
        return nil
      }
      defer { state.pending = [:] }
      state.writing = state.pending.mapValues(\.unsavedSince)
      return state.pending
    }
  }
}

/// Deadlines of many waiting requests, watched by one sleeping task instead of a timer each.
///
/// A request that waits registers what to do when its time is up and removes it when it is
/// served first, both a dictionary update under a lock. One task sleeps until the earliest
/// deadline, runs what expired, and sleeps again while anything is registered; it ends when
/// nothing is. Deadlines fire no earlier than asked, and late by at most the clock's tolerance.
package final class Timeouts: Sendable {
  /// A registered deadline, to remove it.
  package struct Token: Hashable, Sendable {
    fileprivate let value: Int
  }

  private struct Entry {
    let deadline: ContinuousClock.Instant
    let expire: @Sendable () -> Void
  }

  private struct State {
    var entries: [Token: Entry] = [:]
    var nextToken = 0
    /// When the task that watches the entries wakes next; `nil` when no task runs.
    var wakesAt: ContinuousClock.Instant?
    /// Which task that is (a task started for an earlier deadline takes over from the one
    /// before it, which ends when it wakes).
    var watcher = 0
  }

  private let state = Mutex(State())

  /// Calls `expire` after `duration`, unless ``remove(_:)`` comes first.
  package func add(after duration: Duration, _ expire: @escaping @Sendable () -> Void) -> Token {
    let deadline = ContinuousClock.now.advanced(by: duration)
    let (token, watcher) = state.withLock { state -> (Token, Int?) in
      let token = Token(value: state.nextToken)
      state.nextToken += 1
      state.entries[token] = Entry(deadline: deadline, expire: expire)
      // A task sleeping until later than this deadline would wake too late: start another.
      if let wakesAt = state.wakesAt, wakesAt <= deadline { return (token, nil) }
      state.wakesAt = deadline
      state.watcher += 1
      return (token, state.watcher)
    }
    if let watcher {
      Task { await self.watch(until: deadline, as: watcher) }
    }
    return token
  }

  /// Forgets a deadline (its request was served first); nothing when it expired already.
  package func remove(_ token: Token) {
    _ = state.withLock { $0.entries.removeValue(forKey: token) }
  }

  /// How many deadlines are registered (for tests).
  package var count: Int {
    state.withLock { $0.entries.count }
  }

  /// Sleeps until `deadline`, runs what expired, and goes on until the earliest remaining
  /// deadline while this task (`watcher`) is the one the state counts on.
  private func watch(until deadline: ContinuousClock.Instant, as watcher: Int) async {
    var wakeAt = deadline
    while true {
      try? await Task.sleep(until: wakeAt, clock: .continuous)
      let now = ContinuousClock.now
      let (expired, next) = state.withLock {
        state -> ([@Sendable () -> Void], ContinuousClock.Instant?) in
        let due = state.entries.filter { $0.value.deadline <= now }
        for token in due.keys { state.entries[token] = nil }
        // Another task took over (it wakes earlier): this one ends.
        guard state.watcher == watcher else { return (due.values.map(\.expire), nil) }
        state.wakesAt = state.entries.values.lazy.map(\.deadline).min()
        return (due.values.map(\.expire), state.wakesAt)
      }
      for expire in expired { expire() }
      guard let next else { return }
      wakeAt = next
    }
  }
}
