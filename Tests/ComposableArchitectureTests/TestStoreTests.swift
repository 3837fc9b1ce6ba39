import ComposableArchitecture
import Foundation
import Testing

/// A client with an endpoint the tests leave unimplemented.
@DependencyClient
struct NumberClient: Sendable {
  var fetch: @Sendable () async throws -> Int
}

extension NumberClient: TestDependencyKey {
  static let testValue = NumberClient()
}

extension DependencyValues {
  var numberClient: NumberClient {
    get { self[NumberClient.self] }
    set { self[NumberClient.self] = newValue }
  }
}

@Reducer
struct Fetcher {
  struct State: Equatable {
    var number: Int?
  }
  enum Action: Equatable {
    case fetch
    case response(Int)
    case failed
  }
  @Dependency(\.numberClient) var numberClient
  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .fetch:
        return .run { send in
          do {
            await send(.response(try await numberClient.fetch()))
          } catch {
            await send(.failed)
          }
        }
      case .response(let number):
        state.number = number
        return .none
      case .failed:
        return .none
      }
    }
  }
}

@MainActor
struct TestStoreTests {
  private func fetcherStore(
    fetch: @escaping @Sendable () async throws -> Int = { 42 }
  ) -> TestStoreOf<Fetcher> {
    TestStore(initialState: Fetcher.State()) {
      Fetcher()
    } withDependencies: {
      $0.numberClient.fetch = fetch
    }
  }

  // MARK: Passing steps

  @Test func receiveByEquatableActionCaseKeyPathValueAndPredicate() async {
    let store = fetcherStore()
    await store.send(.fetch)
    await store.receive(.response(42)) { $0.number = 42 }
    await store.send(.fetch)
    await store.receive(\.response)
    await store.send(.fetch)
    await store.receive(\.response, 42)
    await store.send(.fetch)
    await store.receive({ $0 == .response(42) })
  }

  @Test func dependenciesCanChangeBetweenSteps() async {
    let store = fetcherStore()
    await store.send(.fetch)
    await store.receive(.response(42)) { $0.number = 42 }
    store.dependencies.numberClient.fetch = { 7 }
    await store.send(.fetch)
    await store.receive(.response(7)) { $0.number = 7 }
  }

  @Test func assertChecksTheCurrentState() async {
    let store = fetcherStore()
    await store.send(.response(3)) { $0.number = 3 }
    store.assert { $0.number = 3 }
  }

  @Test func nonExhaustiveStoreChecksOnlyWhatIsAsserted() async {
    let store = fetcherStore()
    store.exhaustivity = .off
    await store.send(.fetch)
    await store.send(.response(1)) { $0.number = 1 }
    await store.skipReceivedActions(strict: false)
    // The received `.response(42)` was skipped when `.response(1)` was sent.
    #expect(store.state.number == 1)
  }

  @Test func nonExhaustiveReceiveSkipsActionsThatDoNotMatch() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Int> { state, action in
        guard action == 0 else {
          state = action
          return .none
        }
        return .merge(.send(1), .send(2), .send(3))
      }
    }
    store.exhaustivity = .off(showSkippedAssertions: false)
    await store.send(0)
    await store.receive(3) { $0 = 3 }
  }

  @Test func skipInFlightEffectsLetsTheTestEndWhileAnEffectRuns() async {
    let store = fetcherStore(fetch: { try await Task.never() })
    await store.send(.fetch)
    await store.skipInFlightEffects()
  }

  @Test func testStoreTaskCancelStopsTheEffectsOfOneSend() async {
    let store = fetcherStore(fetch: { try await Task.never() })
    let task = await store.send(.fetch)
    await task.cancel()
    #expect(task.isCancelled)
  }

  // MARK: Failures, each provoked and its message asserted

  @Test func stateChangedButNotAsserted() async {
    let store = fetcherStore()
    await withKnownIssue {
      await store.send(.response(1))
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("State was not expected to change, but a change occurred.\n\n")
        && text.contains("− Fetcher.State(number: nil)")
        && text.contains("+   number: 1")
        && text.contains("(Expected: −, Actual: +)")
    }
  }

  @Test func stateAssertedButNotChanged() async {
    let store = fetcherStore()
    await store.send(.response(1)) { $0.number = 1 }
    await withKnownIssue {
      await store.send(.response(1)) { $0.number = 1 }
    } matching: { issue in
      message(of: issue).hasPrefix("Expected state to change, but no change occurred.")
    }
  }

  @Test func stateAssertedWrongly() async {
    let store = fetcherStore()
    await withKnownIssue {
      await store.send(.response(1)) { $0.number = 2 }
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("A state change does not match expectation.\n\n")
        && text.contains("−   number: 2")
        && text.contains("+   number: 1")
    }
  }

  @Test func failuresAreReportedAtTheCallersLine() async {
    let store = fetcherStore()
    let expectedLine = #line + 2
    await withKnownIssue {
      await store.send(.response(9))
    } matching: { issue in
      issue.sourceLocation?.line == expectedLine
        && issue.sourceLocation?.fileName == "TestStoreTests.swift"
    }
  }

  @Test func receivedActionNotAssertedBeforeTheNextSend() async {
    let store = fetcherStore()
    await store.send(.fetch)
    await withKnownIssue {
      await store.send(.response(5)) { $0.number = 5 }
    } matching: { issue in
      message(of: issue).hasPrefix("Must handle 1 received action before sending an action.")
    }
    store.exhaustivity = .off
  }

  @Test func receivedActionNotAssertedByTheEndOfTheTest() async {
    let store = fetcherStore()
    await store.send(.fetch)
    let finishLine = #line + 2
    await withKnownIssue {
      await store.finish()
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("The store received 1 unexpected action.")
        && text.contains(".response")
        && issue.sourceLocation?.line == finishLine
    }
    store.exhaustivity = .off
  }

  @Test func effectStillInFlightAtTheEndOfTheTest() async {
    let sendLine = #line + 3
    await withKnownIssue {
      let store = fetcherStore(fetch: { try await Task.never() })
      await store.send(.fetch)
    } matching: { issue in
      message(of: issue).hasPrefix("An effect returned for this action is still running.")
        && issue.sourceLocation?.line == sendLine
    }
  }

  @Test func receiveTimesOutWhileAnEffectIsStillRunning() async {
    let store = fetcherStore(fetch: { try await Task.never() })
    await store.send(.fetch)
    await withKnownIssue {
      await store.receive(.response(1), timeout: .milliseconds(50))
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("Expected to receive an action, but received none after 0.05 seconds.")
        && text.contains("There are effects in-flight.")
        && text.contains("try increasing the duration of this assertion's \"timeout\"")
    }
    await store.skipInFlightEffects()
  }

  @Test func receiveWithNothingInFlightFailsAtOnce() async {
    let store = fetcherStore()
    await withKnownIssue {
      await store.receive(\.response)
    } matching: { issue in
      // At once: nothing in flight can deliver it, so the store does not wait for the timeout.
      message(of: issue) == "Expected to receive an action matching case path, but didn't get one."
    }
  }

  @Test func receivedActionDiffersFromTheExpectedOne() async {
    let store = fetcherStore()
    await store.send(.fetch)
    await withKnownIssue {
      await store.receive(.response(1)) { $0.number = 42 }
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("Received unexpected action:")
        && text.contains("(Expected: −, Received: +)")
        && text.contains("−")
    }
  }

  @Test func receivedCaseDiffersFromTheExpectedCase() async {
    let store = fetcherStore(fetch: { throw CancellationError() })
    await store.send(.fetch)
    await withKnownIssue {
      await store.receive(\.response)
    } matching: { issue in
      message(of: issue).hasPrefix("Received unexpected action:")
        && message(of: issue).contains("Fetcher.Action.failed")
    }
  }

  @Test func finishTimesOut() async {
    let store = fetcherStore(fetch: { try await Task.never() })
    await store.send(.fetch)
    await withKnownIssue {
      await store.finish(timeout: .milliseconds(50))
    } matching: { issue in
      message(of: issue).hasPrefix(
        "Expected effects to finish, but there are still effects in-flight after 0.05 seconds.")
    }
    await store.skipInFlightEffects()
  }

  @Test func testStoreTaskFinishTimesOut() async {
    let store = fetcherStore(fetch: { try await Task.never() })
    let task = await store.send(.fetch)
    await withKnownIssue {
      await task.finish(timeout: .milliseconds(50))
    } matching: { issue in
      message(of: issue).hasPrefix(
        "Expected task to finish, but it is still in-flight after 0.05 seconds.")
    }
    await task.cancel()
  }

  @Test func skippingWithNothingToSkip() async {
    let store = fetcherStore()
    await withKnownIssue {
      await store.skipReceivedActions()
    } matching: { issue in
      message(of: issue) == "There were no received actions to skip."
    }
    await withKnownIssue {
      await store.skipInFlightEffects()
    } matching: { issue in
      message(of: issue) == "There were no in-flight effects to skip."
    }
  }

  @Test func nonExhaustiveStoreStillFailsAWrongAssertion() async {
    let store = fetcherStore()
    store.exhaustivity = .off
    await withKnownIssue {
      await store.send(.response(1)) { $0.number = 2 }
    } matching: { issue in
      message(of: issue).hasPrefix("A state change does not match expectation")
    }
  }

  @Test func unimplementedDependencyFailsTheTest() async {
    let store = TestStore(initialState: Fetcher.State()) { Fetcher() }
    await withKnownIssue {
      await store.send(.fetch)
      await store.receive(.failed)
    } matching: { issue in
      message(of: issue).contains("Unimplemented: 'NumberClient.fetch'")
    }
  }

  @Test func throwingAssertionClosureIsReported() async {
    struct Oops: Error {}
    let store = fetcherStore()
    await withKnownIssue {
      await store.send(.response(1)) { _ in throw Oops() }
    } matching: { issue in
      message(of: issue).hasPrefix("Threw error: Oops()")
    }
  }
}
