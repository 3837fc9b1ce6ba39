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
    // Starting returns a long-living effect; an exhaustive store fails at the end of the test if
    // the second tap does not cancel it.
    await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
  }

  @Test func timerCanBeRestartedAfterBeingStopped() async {
    let store = TestStore(initialState: SectionContentFeature.State()) {
      SectionContentFeature()
    }
    await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
    await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
  }

  @Test func eachTimerTickIncrementsTheCount() async {
    let store = TestStore(initialState: SectionContentFeature.State(count: 41, isTimerOn: true)) {
      SectionContentFeature()
    }
    await store.send(.timerCounts) { $0.count = 42 }
    await store.send(.timerCounts) { $0.count = 43 }
  }
}
