import Synchronization

/// What a test store hears from the feature it runs: an effect started or finished, an action
/// arrived. A test step that waits (for an action, for effects to finish) sleeps until the next
/// event or its deadline, instead of polling; a step that lets effects run yields only until the
/// events stop.
///
/// Events come from effect tasks on any thread, so the counter and the waiters are guarded by a
/// mutex; a waiter is resumed outside it.
@usableFromInline
final class EffectEvents: Sendable {
  private let state = Mutex<State>(State())

  private struct State {
    var count = 0
    var nextWaiterID = 0
    var waiters: [Int: CheckedContinuation<Bool, Never>] = [:]
  }

  /// The number of events so far.
  var count: Int { state.withLock { $0.count } }

  /// Records an event and wakes every waiter.
  @usableFromInline
  func signal() {
    let waiters = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
      state.count += 1
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume(returning: true) }
  }

  /// Waits until there has been an event after the `seen`-th, or until `deadline` of real time;
  /// returns `false` on the deadline.
  func wait(after seen: Int, until deadline: ContinuousClock.Instant) async -> Bool {
    let id = state.withLock { state -> Int? in
      guard state.count == seen else { return nil }
      defer { state.nextWaiterID += 1 }
      return state.nextWaiterID
    }
    guard let id else { return true }
    let timer = Task { [weak self] in
      try? await Task.sleep(until: deadline, clock: .continuous)
      self?.timeOut(id)
    }
    defer { timer.cancel() }
    return await withCheckedContinuation { continuation in
      let resumeNow = state.withLock { state -> Bool in
        guard state.count == seen, ContinuousClock.now < deadline else { return true }
        state.waiters[id] = continuation
        return false
      }
      if resumeNow { continuation.resume(returning: state.withLock { $0.count != seen }) }
    }
  }

  private func timeOut(_ id: Int) {
    let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
    waiter?.resume(returning: false)
  }
}

extension Task where Success == Never, Failure == Never {
  /// Yields until every tracked effect has begun to run and then nothing the test store hears of
  /// happens for `quietYields` yields in a row (at most `limit` yields): effects started by a
  /// step get to run up to their first wait on something outside the test (a clock, a client).
  ///
  /// Test stores run on the main serial executor, where one yield lets every job queued before
  /// it run; a new task takes a couple of jobs to begin, hence the wait for every effect to have
  /// begun before counting quiet yields.
  @MainActor
  @usableFromInline
  static func settle(
    _ events: EffectEvents, whileRunning effects: InFlightEffects, quietYields: Int = 3,
    limit: Int = 64
  ) async {
    var quiet = 0
    for _ in 0..<limit {
      // With no effect in flight, nothing the test store hears of can still happen.
      guard !effects.isEmpty else { return }
      let before = events.count
      await Task.yield()
      quiet = events.count == before && !effects.hasUnstarted ? quiet + 1 : 0
      if quiet >= quietYields { return }
    }
  }
}
