import ComposableArchitecture
import CounterFeature
import FactClient
import Foundation
import RandomNumberClient
import Testing

@MainActor
struct CounterTests {
  private let id = UUID(0)
  struct FactUnavailable: LocalizedError {
    var errorDescription: String? { "Number trivia: HTTP 503" }
  }

  @Test func incrementAndDecrement() async {
    let store = TestStore(initialState: Counter.State(id: id)) { Counter() }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.incrementButtonTapped) { $0.count = 2 }
    await store.send(.decrementButtonTapped) { $0.count = 1 }
  }

  @Test func factRequestSucceeds() async {
    let store = TestStore(initialState: Counter.State(id: id, count: 7)) {
      Counter()
    } withDependencies: {
      $0.factClient.fetch = { "\($0) is lucky." }
    }
    await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    await store.receive(\.factResponse.success) {
      $0.isFactRequestInFlight = false
      $0.fact = "7 is lucky."
    }
  }

  @Test func factRequestFailureIsShown() async {
    let store = TestStore(initialState: Counter.State(id: id, fact: "old")) {
      Counter()
    } withDependencies: {
      $0.factClient.fetch = { _ in throw FactUnavailable() }
    }
    await store.send(.factButtonTapped) {
      $0.isFactRequestInFlight = true
      $0.fact = nil
    }
    await store.receive(\.factResponse.failure) {
      $0.isFactRequestInFlight = false
      $0.factError = "Number trivia: HTTP 503"
    }
  }

  @Test func aNewFactRequestReplacesTheOneInFlight() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(id: id)) {
      Counter()
    } withDependencies: {
      $0.factClient.fetch = { number in
        try await clock.sleep(for: .seconds(1))
        return "fact \(number)"
      }
    }
    await store.send(.factButtonTapped) { $0.isFactRequestInFlight = true }
    await store.send(.incrementButtonTapped) { $0.count = 1 }
    await store.send(.factButtonTapped)
    await clock.advance(by: .seconds(1))
    await store.receive(\.factResponse.success) {
      $0.isFactRequestInFlight = false
      $0.fact = "fact 1"
    }
  }

  @Test func randomNumberSetsTheCount() async {
    let store = TestStore(initialState: Counter.State(id: id, count: 3)) {
      Counter()
    } withDependencies: {
      $0.randomNumberClient.fetch = { min, max in
        #expect(min == Counter.State.randomRange.lowerBound)
        #expect(max == Counter.State.randomRange.upperBound)
        return 42
      }
    }
    await store.send(.randomNumberButtonTapped) { $0.isRandomNumberRequestInFlight = true }
    await store.receive(\.randomNumberResponse.success) {
      $0.isRandomNumberRequestInFlight = false
      $0.count = 42
    }
  }

  @Test func randomNumberFailureIsShownAndKeepsTheCount() async {
    let store = TestStore(initialState: Counter.State(id: id, count: 3)) {
      Counter()
    } withDependencies: {
      $0.randomNumberClient.fetch = { min, max in throw RandomNumberRangeError(min: max, max: min) }
    }
    await store.send(.randomNumberButtonTapped) { $0.isRandomNumberRequestInFlight = true }
    await store.receive(\.randomNumberResponse.failure) {
      $0.isRandomNumberRequestInFlight = false
      $0.randomNumberError =
        "Random number: invalid range, min (100) is greater than max (1)"
    }
  }

  @Test func timerTicksEverySecondWhileOn() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(id: id)) {
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
    // Toggled off: no tick arrives, and exhaustivity proves no effect is left running.
    await clock.advance(by: .seconds(3))
  }

  @Test func timerTurnedOffBeforeTheFirstTickNeverTicks() async {
    let clock = TestClock()
    let store = TestStore(initialState: Counter.State(id: id)) {
      Counter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.timerButtonTapped) { $0.isTimerOn = true }
    await clock.advance(by: .milliseconds(500))
    await store.send(.timerButtonTapped) { $0.isTimerOn = false }
    await clock.advance(by: .seconds(2))
  }
}
