import ComposableArchitecture
import Foundation
import Testing

@MainActor
struct CancellationTests {
  enum Action: Equatable, Sendable {
    case start(Int)
    case cancel
    case finished(Int)
  }

  private enum CancelID { case work }

  /// Starts work `n` that waits on `clock` and then reports `.finished(n)`; `.cancel` cancels it.
  private func worker(
    clock: TestClock<Duration>, cancelInFlight: Bool = false, events: LockIsolated<[String]>? = nil
  ) -> some Reducer<[Int], Action> {
    Reduce<[Int], Action> { state, action in
      switch action {
      case .start(let n):
        return .run { send in
          await withTaskCancellationHandler {
            events?.withValue { $0.append("start \(n)") }
            do {
              try await clock.sleep(for: .seconds(1))
            } catch {
              // Even an effect that swallows the cancellation and sends anyway delivers nothing.
            }
            await send(.finished(n))
          } onCancel: {
            events?.withValue { $0.append("cancel \(n)") }
          }
        }
        .cancellable(id: CancelID.work, cancelInFlight: cancelInFlight)
      case .cancel:
        return .cancel(id: CancelID.work)
      case .finished(let n):
        state.append(n)
        return .none
      }
    }
  }

  @Test func cancelledEffectNeverDeliversAnAction() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) { worker(clock: clock) }
    await store.send(.start(1))
    await store.send(.cancel)
    await clock.advance(by: .seconds(1))
    // Exhaustivity: no `.finished(1)` arrives and no effect is left running.
  }

  @Test func cancelInFlightCancelsThePreviousEffectBeforeTheNewOneStarts() async {
    let clock = TestClock()
    let events = LockIsolated<[String]>([])
    let store = TestStore(initialState: [Int]()) {
      worker(clock: clock, cancelInFlight: true, events: events)
    }
    await store.send(.start(1))
    await store.send(.start(2))
    await clock.advance(by: .seconds(1))
    await store.receive(.finished(2)) { $0 = [2] }
    #expect(events.value == ["start 1", "cancel 1", "start 2"])
  }

  @Test func withoutCancelInFlightEffectsWithTheSameIDCoexistAndOneCancelStopsAll() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) { worker(clock: clock) }
    await store.send(.start(1))
    await store.send(.start(2))
    await store.send(.cancel)
    await clock.advance(by: .seconds(1))
  }

  @Test func cancelReturnedInTheSameBatchStopsAnEffectThatHasNotStartedYet() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) {
      CombineReducers {
        Reduce<[Int], Action> { _, action in
          guard case .start = action else { return .none }
          return .merge(
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(.finished(1))
            }
            .cancellable(id: CancelID.work),
            .send(.cancel)
          )
        }
        worker(clock: clock)
      }
    }
    await store.send(.start(0))
    await store.receive(.cancel)
    await clock.advance(by: .seconds(1))
  }

  @Test func identifiersAreIsolatedPerRootStore() async {
    // A clock each, so the test can wait until the second store's work sleeps.
    let (firstClock, secondClock) = (TestClock(), TestClock())
    let first = Store(initialState: [Int]()) { worker(clock: firstClock) }
    let second = Store(initialState: [Int]()) { worker(clock: secondClock) }
    first.send(.start(1))
    let secondTask = second.send(.start(2))
    await secondClock.waitForSleeper()
    first.send(.cancel)
    await secondClock.advance(by: .seconds(1))
    await secondTask.finish()
    #expect(first.state == [])
    #expect(second.state == [2])
  }

  @Test func identifiersOfDifferentTypesNeverCollide() async {
    enum A: Hashable, Sendable { case id }
    enum B: Hashable, Sendable { case id }
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) {
      Reduce<[Int], Int> { state, action in
        switch action {
        case 0:
          return .merge(
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(1)
            }
            .cancellable(id: A.id),
            .run { send in
              try await clock.sleep(for: .seconds(1))
              await send(2)
            }
            .cancellable(id: B.id)
          )
        case -1:
          return .cancel(id: A.id)
        default:
          state.append(action)
          return .none
        }
      }
    }
    await store.send(0)
    await store.send(-1)
    await clock.advance(by: .seconds(1))
    await store.receive(2) { $0 = [2] }
  }

  @Test func taskCancelFromInsideAnEffect() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) {
      CombineReducers {
        Reduce<[Int], Action> { _, action in
          guard case .start(0) = action else { return .none }
          return .run { _ in Task.cancel(id: CancelID.work) }
        }
        worker(clock: clock)
      }
    }
    await store.send(.start(1))
    await store.send(.start(0))
    await clock.advance(by: .seconds(1))
  }

  @Test func taskCancelInAnEffectSentOutsideAnyTaskStaysInItsStore() async {
    let clock = TestClock()
    let canceller = Reduce<[Int], Action> { _, action in
      guard case .start(0) = action else { return .none }
      return .run { _ in Task.cancel(id: CancelID.work) }
    }
    let first = Store(initialState: [Int]()) {
      CombineReducers {
        canceller
        worker(clock: clock)
      }
    }
    let second = Store(initialState: [Int]()) { worker(clock: clock) }
    let firstWork = first.send(.start(1))
    let secondWork = second.send(.start(2))
    // A main-queue callback runs in no task: the effect's context reaches its task all the same.
    let cancelling = await withCheckedContinuation { continuation in
      DispatchQueue.main.async {
        continuation.resume(returning: MainActor.assumeIsolated { first.send(.start(0)) })
      }
    }
    await cancelling.finish()
    await firstWork.finish()
    #expect(first.state == [])
    #expect(!secondWork.isCancelled)
    await clock.waitForSleeper()
    await clock.advance(by: .seconds(1))
    await secondWork.finish()
    // Resolved outside an effect, the identifier would have been cancelled in every store, and the
    // second store's work would never have reported.
    #expect(second.state == [2])
  }

  @Test func withTaskCancellationInsideAnEffectCancelsInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) {
      Reduce<[Int], Int> { state, action in
        guard action < 0 else {
          state.append(action)
          return .none
        }
        return .run { send in
          try await withTaskCancellation(id: "debounce", cancelInFlight: true) {
            try await clock.sleep(for: .milliseconds(300))
            await send(-action)
          }
        }
      }
    }
    await store.send(-1)
    await clock.advance(by: .milliseconds(100))
    await store.send(-2)
    await clock.advance(by: .milliseconds(300))
    await store.receive(2) { $0 = [2] }
  }

  @Test func storeTaskCancelCancelsTheEffectsOfThatSend() async {
    let store = Store(initialState: [Int]()) { worker(clock: TestClock()) }
    let task = store.send(.start(1))
    #expect(task.isCancelled == false)
    task.cancel()
    await task.finish()
    #expect(task.isCancelled)
    #expect(store.state == [])
  }

  @Test func sendWithoutEffectsReturnsAFinishedTask() async {
    let store = Store(initialState: [Int]()) { worker(clock: TestClock()) }
    let task = store.send(.finished(3))
    #expect(task.isCancelled)
    await task.finish()
    #expect(store.state == [3])
  }

  @Test func releasingTheStoreCancelsItsEffects() async {
    let events = LockIsolated<[String]>([])
    let clock = TestClock()
    var store: StoreOf<CounterWorker>? = Store(initialState: [Int]()) {
      CounterWorker(clock: clock, events: events)
    }
    let task = store?.send(.start(1))
    await clock.waitForSleeper()
    store = nil
    await task?.finish()
    #expect(events.value == ["start 1", "cancel 1"])
  }

  @Test func registryIsEmptyOnceEffectsFinish() async {
    let clock = TestClock()
    let store = TestStore(initialState: [Int]()) { worker(clock: clock) }
    await store.send(.start(1))
    await clock.advance(by: .seconds(1))
    await store.receive(.finished(1)) { $0 = [1] }
    await store.finish()
  }
}

/// The worker as a named reducer, for stores held in optionals.
struct CounterWorker: Reducer {
  let clock: TestClock<Duration>
  let events: LockIsolated<[String]>

  func reduce(into state: inout [Int], action: CancellationTests.Action) -> Effect<
    CancellationTests.Action
  > {
    guard case .start(let n) = action else { return .none }
    let events = self.events
    let clock = self.clock
    return .run { send in
      await withTaskCancellationHandler {
        events.withValue { $0.append("start \(n)") }
        try? await clock.sleep(for: .seconds(10))
      } onCancel: {
        events.withValue { $0.append("cancel \(n)") }
      }
    }
  }
}
