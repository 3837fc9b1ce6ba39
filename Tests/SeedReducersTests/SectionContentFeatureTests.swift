import ComposableArchitecture
import Testing

/// Drives the counter/fact/timer seed. Its fact request calls `URLSession` directly and its timer
/// sleeps on the real clock (no dependency to override), so the tests cover what can be driven
/// without the network or wall-clock time: counting, the fact response, and starting and
/// cancelling the timer.
@MainActor
struct SectionContentFeatureTests {
  @Test func incrementAndDecrementButtonsChangeTheCount() async {
    let store = TestStore(initialState: SectionContentFeature.State()) {
      SectionContentFeature()
    }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.incrementButtonTapped) { $0.count = 2 }
    await store.send(.decrementButtonTapped) { $0.count = 1 }
    await store.send(.decrementButtonTapped) { $0.count = 0 }
    await store.send(.decrementButtonTapped) { $0.count = -1 }
  }

  @Test func factResponseIsStored() async {
    let store = TestStore(initialState: SectionContentFeature.State(count: 7)) {
      SectionContentFeature()
    }
    await store.send(.factResponse("7 is the number of days in a week.")) {
      $0.fact = "7 is the number of days in a week."
    }
    await store.send(.factResponse("A newer fact.")) {
      $0.fact = "A newer fact."
    }
  }

  @Test func timerButtonStartsTheTimerAndTappingAgainCancelsIt() async {
    let store = TestStore(initialState: SectionContentFeature.State()) {
      SectionContentFeature()
    }
    // The timer sleeps a second of real time between ticks: on a busy machine a tick may land
    // between the taps, so the store does not insist on seeing none (a tick changes only the
    // count). What the test insists on: the second tap ends the timer's effect, which `finish()`
    // waits for and fails on if it is still running after the store's timeout.
    store.exhaustivity = .off
    let timer = await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
    await timer.finish()
  }

  @Test func timerCanBeRestartedAfterBeingStopped() async {
    let store = TestStore(initialState: SectionContentFeature.State()) {
      SectionContentFeature()
    }
    // As above: a tick may land between the taps on a busy machine; each tap must end the timer
    // it stops.
    store.exhaustivity = .off
    let first = await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
    await first.finish()
    let second = await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
    await second.finish()
  }

  @Test func eachTimerTickIncrementsTheCount() async {
    let store = TestStore(initialState: SectionContentFeature.State(count: 41, isTimerOn: true)) {
      SectionContentFeature()
    }
    await store.send(.timerCounts) { $0.count = 42 }
    await store.send(.timerCounts) { $0.count = 43 }
  }
}
