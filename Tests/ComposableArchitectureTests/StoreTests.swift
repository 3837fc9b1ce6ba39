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
