import ComposableArchitecture
import Foundation
import Testing

@testable import CounterFeature

/// The list: adding, removing after a confirmation (which cancels the removed counter's effects),
/// and putting back kept counters.
@MainActor
struct CounterListTests {
  private func makeStore(
    _ configure: (inout DependencyValues) -> Void = { _ in }
  ) -> TestStoreOf<CounterList> {
    TestStore(initialState: CounterList.State()) {
      CounterList()
    } withDependencies: {
      $0.uuid = .incrementing
      configure(&$0)
    }
  }

  @Test func startsWithOneCounterFromTheUUIDDependency() {
    let state = withDependencies {
      $0.uuid = .incrementing
    } operation: {
      CounterList.State()
    }
    #expect(state.counters.ids == [UUID(0)])
    #expect(CounterList.State(counters: []).counters.isEmpty)
  }

  @Test func addAndRemoveCounters() async {
    let store = makeStore()
    await store.send(.addCounterButtonTapped) {
      $0.counters.append(Counter.State(id: UUID(1)))
    }
    await store.send(.removeCounterButtonTapped(id: UUID(1))) {
      $0.destination = .confirmRemoval(.removeCounter(id: UUID(1), number: 2))
    }
    // Cancel keeps the counter.
    await store.send(\.destination.dismiss) { $0.destination = nil }
    await store.send(.removeCounterButtonTapped(id: UUID(0))) {
      $0.destination = .confirmRemoval(.removeCounter(id: UUID(0), number: 1))
    }
    await store.send(\.destination.confirmRemoval.remove, UUID(0)) {
      $0.destination = nil
      $0.counters.remove(id: UUID(0))
    }
    // An unknown id asks nothing.
    await store.send(.removeCounterButtonTapped(id: UUID(42)))
  }

  @Test func theRemovalConfirmationNamesTheCounter() {
    let alert = AlertState<CounterList.Removal>.removeCounter(id: UUID(7), number: 3)
    #expect(alert.title == TextState("Remove Counter 3?"))
    #expect(alert.buttons.map(\.role) == [.destructive, .cancel])
    #expect(alert.buttons.first?.action.action == .remove(id: UUID(7)))
  }

  @Test func removingACounterWhoseTimerRunsCancelsTheTimer() async {
    let clock = TestClock()
    let store = makeStore { $0.continuousClock = clock }
    await store.send(.addCounterButtonTapped) {
      $0.counters.append(Counter.State(id: UUID(1)))
    }
    await store.send(\.counters[id: UUID(0)].timerButtonTapped) {
      $0.counters[id: UUID(0)]?.isTimerOn = true
    }
    await store.send(\.counters[id: UUID(1)].timerButtonTapped) {
      $0.counters[id: UUID(1)]?.isTimerOn = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.counters[id: UUID(0)].timerTicked) { $0.counters[id: UUID(0)]?.count = 1 }
    await store.receive(\.counters[id: UUID(1)].timerTicked) { $0.counters[id: UUID(1)]?.count = 1 }
    await store.send(.removeCounterButtonTapped(id: UUID(0))) {
      $0.destination = .confirmRemoval(.removeCounter(id: UUID(0), number: 1))
    }
    await store.send(\.destination.confirmRemoval.remove, UUID(0)) {
      $0.destination = nil
      $0.counters.remove(id: UUID(0))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.counters[id: UUID(1)].timerTicked) { $0.counters[id: UUID(1)]?.count = 2 }
    await store.send(.removeCounterButtonTapped(id: UUID(1))) {
      $0.destination = .confirmRemoval(.removeCounter(id: UUID(1), number: 1))
    }
    await store.send(\.destination.confirmRemoval.remove, UUID(1)) {
      $0.destination = nil
      $0.counters.remove(id: UUID(1))
    }
    await clock.advance(by: .seconds(5))
    // Exhaustivity: no tick from a removed counter, no effect left running.
  }

  @Test func restoreForgetsRequestsDropsDuplicatesAndReportsRunningTimers() {
    var state = CounterList.State(counters: [])
    state.destination = .confirmRemoval(.removeCounter(id: UUID(1), number: 1))
    let timers = state.restore([
      Counter.State(id: UUID(7), count: 41, isFactRequestInFlight: true, isTimerOn: true),
      Counter.State(id: UUID(8), count: -2, isRandomNumberRequestInFlight: true),
      Counter.State(id: UUID(7), count: 999),
    ])
    #expect(timers == [UUID(7)])
    #expect(
      state.counters == [
        Counter.State(id: UUID(7), count: 41), Counter.State(id: UUID(8), count: -2),
      ])
    #expect(state.destination == nil)
  }
}
