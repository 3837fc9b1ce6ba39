import ComposableArchitecture
import Foundation
import Testing

struct StoreActorTests {
  // That stores reduce in parallel is shown by the server benchmark (Tools/ServerBenchmark),
  // not here: other suites run under `withMainSerialExecutor`, which sends every task of the
  // process to the main thread while they run.

  @Test func sendReducesInOrder() async {
    let seen = LockIsolated<[Int]>([])
    let store = StoreActor(initialState: 0) {
      Reduce<Int, Int> { state, action in
        seen.withValue { $0.append(action) }
        state += action
        return .none
      }
    }
    await store.send(2)
    await store.send(3)
    #expect(await store.state == 5)
    #expect(seen.value == [2, 3])
  }

  @Test func anEffectsActionIsReducedBeforeItsTaskFinishes() async {
    let clock = TestClock()
    let store = StoreActor(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let task = await store.send(.factButtonTapped)
    let waiter = Task { await task.finish() }
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await waiter.value
    #expect(await store.state.fact == "0 is a number")
  }

  /// A store is idle only with no effect running and no effect's action waiting to be reduced.
  @Test func isIdleOnlyWithNothingInFlight() async {
    let clock = TestClock()
    let store = StoreActor(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    #expect(await store.isIdle)
    let task = await store.send(.factButtonTapped)
    #expect(await !store.isIdle)
    await clock.waitForSleeper()
    #expect(await !store.isIdle)
    await clock.advance(by: .seconds(1))
    await task.finish()
    #expect(await store.isIdle)
    #expect(await store.state.fact == "0 is a number")
  }

  @Test func storeTaskFollowsTheEffectsOfActionsItsEffectsSendBack() async {
    let clock = TestClock()
    let finished = LockIsolated<[String]>([])
    let store = StoreActor(initialState: 0) {
      SendsBackASecondAction(clock: clock, finished: finished)
    }
    let task = await store.send("start")
    let waiter = Task { await task.finish() }
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await waiter.value
    #expect(finished.value == ["second's effect"])
  }

  @Test func aTimerTicksIntoTheStateAndStopsWhenToggledOff() async {
    let clock = TestClock()
    let store = StoreActor(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    var counts = await store.states().map(\.count).makeAsyncIterator()
    #expect(await counts.next() == 0)
    await store.send(.timerButtonTapped)
    #expect(await counts.next() == 0)  // isTimerOn changed
    for expected in 1...3 {
      await clock.waitForSleeper()
      await clock.advance(by: .seconds(1))
      #expect(await counts.next() == expected)
    }
    await store.send(.timerButtonTapped).finish()
    await clock.advance(by: .seconds(1))
    #expect(await store.state.count == 3)
    #expect(await store.state.isTimerOn == false)
  }

  @Test func cancelInFlightDropsTheActionOfTheCancelledEffect() async {
    let clock = TestClock()
    let store = StoreActor(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.timerButtonTapped)
    await store.send(.timerButtonTapped)
    await store.send(.timerButtonTapped)
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    let ticked = await store.states().first { $0.count == 1 }
    #expect(ticked?.count == 1)
    await store.send(.timerButtonTapped).finish()
    await clock.advance(by: .seconds(1))
    #expect(await store.state.count == 1)
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let events = LockIsolated<[String]>([])
    var store: StoreActor<Int, Void>? = StoreActor(initialState: 0) {
      RunsUntilCancelled(events: events)
    }
    let task = await store?.send(())
    store = nil
    await task?.finish()
    #expect(events.value == ["cancelled"])
  }

  @Test func observersRunOnTheActorOnlyWhenTheirValueChanges() async {
    let store = StoreActor(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.continuousClock = TestClock()
    }
    let seen = LockIsolated<[Int]>([])
    let token = await store.observe(\.count) { count in seen.withValue { $0.append(count) } }
    await store.send(.incrementButtonTapped)
    await store.send(.timerButtonTapped)  // count unchanged: not observed
    await store.send(.timerButtonTapped)
    await store.send(.decrementButtonTapped)
    #expect(seen.value == [1, 0])
    token.cancel()
    await store.send(.incrementButtonTapped)
    await store.send(.incrementButtonTapped)
    #expect(seen.value == [1, 0])
  }

  @Test func dependenciesApplyToReducersAndEffects() async {
    struct Greeter: Reducer {
      typealias State = [Date]
      typealias Action = Bool
      @Dependency(\.date.now) var now
      var body: some ReducerOf<Self> {
        Reduce { state, fromEffect in
          state.append(now)
          return fromEffect ? .none : .run { send in await send(true) }
        }
      }
    }
    let fixed = Date(timeIntervalSince1970: 1_000)
    let store = StoreActor(initialState: [Date]()) {
      Greeter()
    } withDependencies: {
      $0.date.now = fixed
    }
    await store.send(false).finish()
    #expect(await store.state == [fixed, fixed])
  }

  @Test func readAndSendInOneStepWithAnIsolatedParameter() async {
    let store = StoreActor(initialState: Counter.State()) { Counter() }
    /// Increments only while the count is below `limit`: the read and the send cannot interleave
    /// with another caller's.
    func incrementBelow(_ limit: Int, on store: isolated StoreActorOf<Counter>) -> Bool {
      guard store.state.count < limit else { return false }
      store.send(.incrementButtonTapped)
      return true
    }
    let accepted = await withTaskGroup(of: Bool.self) { group in
      for _ in 0..<50 {
        group.addTask { await incrementBelow(10, on: store) }
      }
      return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
    }
    #expect(accepted == 10)
    #expect(await store.withState(\.count) == 10)
  }

  @Test func anObserverOfEverySendSeesUnchangedStatesToo() async {
    let store = StoreActor(initialState: 0) {
      Reduce<Int, Int> { state, action in
        state += action
        return .none
      }
    }
    let seen = LockIsolated<[Int]>([])
    let token = await store.observeSends { state in seen.withValue { $0.append(state) } }
    await store.send(1)
    await store.send(0)
    await store.send(2)
    token.cancel()
    await store.send(5)
    #expect(seen.value == [1, 1, 3])
  }
}
