import ComposableArchitecture
import Testing

@MainActor
struct StoreTests {
  @Test func sendMutatesStateSynchronously() {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    #expect(store.count == 2)
  }

  @Test func timerTicksWithTestClock() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(\.timerTicked) { $0.count = 1 }
    await clock.advance(by: .seconds(5))
    for count in 2...6 {
      await store.receive(\.timerTicked) { $0.count = count }
    }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
  }
}

@MainActor
struct StoreTaskTests {
  @Test func storeTaskFollowsTheEffectsOfActionsItsEffectsSendBack() async {
    let clock = TestClock()
    let finished = LockIsolated<[String]>([])
    let store = Store(initialState: 0) {
      SendsBackASecondAction(clock: clock, finished: finished)
    }
    let task = store.send("start")
    let waiter = Task { await task.finish() }
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await waiter.value
    #expect(finished.value == ["second's effect"])
  }

  @Test func everyWaiterResumesOnceTheLastEffectEnds() async {
    let clock = TestClock()
    let store = Store(initialState: 0) {
      Reduce<Int, String> { state, action in
        switch action {
        case "start":
          // Deadlines fixed when the action is reduced: a sleep that begins after the test
          // advanced the clock still ends at its own time (see `waitForSleeper`).
          let start = clock.now
          return .merge(
            .run { _ in try await clock.sleep(until: start.advanced(by: .seconds(1))) },
            .run { _ in try await clock.sleep(until: start.advanced(by: .seconds(2))) }
          )
        default:
          return .none
        }
      }
    }
    let task = store.send("start")
    let resumed = LockIsolated(0)
    let waiters = (0..<3).map { _ in
      Task {
        await task.finish()
        resumed.withValue { $0 += 1 }
      }
    }
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await Task.megaYield()
    #expect(resumed.value == 0, "one effect is still running")
    await clock.advance(by: .seconds(1))
    for waiter in waiters { await waiter.value }
    #expect(resumed.value == 3)
    // Waiting again once everything has ended returns at once.
    await task.finish()
    #expect(!task.isCancelled)
  }

  @Test func cancellingTheWaitingTaskCancelsTheEffects() async {
    let events = LockIsolated<[String]>([])
    let store = Store(initialState: 0) {
      RunsUntilCancelled(events: events)
    }
    let task = store.send(())
    let waiter = Task { await task.finish() }
    await Task.megaYield()
    waiter.cancel()
    await waiter.value
    #expect(events.value == ["cancelled"])
  }
}
