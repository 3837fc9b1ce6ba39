import ComposableArchitecture
import Testing

@MainActor
struct RandomCounterFeatureTests {
  @Test func incrementAndDecrementChangeTheCount() async {
    let store = TestStore(initialState: RandomCounterFeature.State()) {
      RandomCounterFeature()
    }
    await store.send(.increment) { $0.count = 1 }
    await store.send(.decrement) { $0.count = 0 }
    await store.send(.decrement) { $0.count = -1 }
  }

  @Test func fetchedRandomNumberReplacesTheCount() async {
    let store = TestStore(initialState: RandomCounterFeature.State(count: 5)) {
      RandomCounterFeature()
    } withDependencies: {
      $0.randomCounterClient = RandomCounterClient(fetchRandomNumber: { 742 })
    }
    await store.send(.fetchRandomNumber)
    await store.receive(.randomNumberResponse(742)) { $0.count = 742 }
  }

  @Test func eachFetchAsksTheClientAgain() async {
    let numbers = LockIsolated([3, 14])
    let store = TestStore(initialState: RandomCounterFeature.State()) {
      RandomCounterFeature()
    } withDependencies: {
      $0.randomCounterClient = RandomCounterClient(fetchRandomNumber: {
        numbers.withValue { $0.removeFirst() }
      })
    }
    await store.send(.fetchRandomNumber)
    await store.receive(.randomNumberResponse(3)) { $0.count = 3 }
    await store.send(.increment) { $0.count = 4 }
    await store.send(.fetchRandomNumber)
    await store.receive(.randomNumberResponse(14)) { $0.count = 14 }
    #expect(numbers.value.isEmpty)
  }

  @Test func failedFetchLeavesTheCountAndSendsNothing() async {
    struct Unavailable: Error {}
    let calls = LockIsolated(0)
    let store = TestStore(initialState: RandomCounterFeature.State(count: 9)) {
      RandomCounterFeature()
    } withDependencies: {
      $0.randomCounterClient = RandomCounterClient(fetchRandomNumber: {
        calls.withValue { $0 += 1 }
        throw Unavailable()
      })
    }
    // The seed's `catch` only prints: no action comes back, and the exhaustive store fails if one
    // does.
    await store.send(.fetchRandomNumber)
    await store.finish()
    #expect(calls.value == 1)
  }
}
