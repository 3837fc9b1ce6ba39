import ComposableArchitecture
import Foundation
import Testing

/// The behaviours of `TestStore` that tests written for TCA rely on, each pinned with TCA's
/// documented message.
@MainActor
struct TestStoreParityTests {
  @Reducer
  struct Feature {
    struct State: Equatable {
      var count = 0
      var optional: Int?
    }
    enum Action: Equatable {
      case increment
      case reply(Int)
      case start
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        switch action {
        case .increment:
          state.count += 1
          return .none
        case .reply(let value):
          state.count = value
          return .none
        case .start:
          return .send(.reply(7))
        }
      }
    }
  }

  @Test func stateTypeIsInferredFromTheReducer() async {
    let store = TestStore(initialState: .init()) { Feature() }
    await store.send(.increment) { $0.count = 1 }
  }

  @Test func storeStateInsideTheAssertionIsTheStateBeforeTheAction() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    var seen: Int?
    await store.send(.increment) {
      seen = store.state.count
      $0.count = 1
    }
    #expect(seen == 0)
    #expect(store.state.count == 1)
  }

  @Test func aDifferentActionIsReportedAloneWithoutAStateMismatch() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await withKnownIssue {
      // The closure is wrong for `.reply(7)` as well; only the action mismatch is reported.
      await store.receive(.reply(8)) { $0.count = 100 }
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("Received unexpected action:\n\n")
        && text.contains("(Expected: −, Received: +)")
    }
    #expect(store.state.count == 7)
  }

  @Test func receivingACaseWithAnotherValueDiffsTheWholeAction() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    await store.send(.start)
    await withKnownIssue {
      await store.receive(\.reply, 8)
    } matching: { issue in
      let text = message(of: issue)
      return text.hasPrefix("Received unexpected action:\n\n")
        && text.contains("−") && text.contains("TestStoreParityTests.Feature.Action.reply(8)")
        && text.contains("+") && text.contains("TestStoreParityTests.Feature.Action.reply(7)")
        && text.hasSuffix("(Expected: −, Actual: +)")
    }
  }

  @Test func skippedAssertionsAreExpectedIssuesNotFailures() async {
    let store = TestStore(initialState: Feature.State()) { Feature() }
    store.exhaustivity = .off(showSkippedAssertions: true)
    // `.start` sends `.reply(7)`: the test asserts nothing of it. Shown as skipped, not failed.
    await store.send(.start)
    await store.send(.increment) { $0.count = 8 }
    // A partial assertion: the full expectation (count 9 from 8) is shown as skipped.
    await store.send(.increment)
  }

  @Test func xctModifyOfAnUnchangedValueFailsOnlyAnExhaustiveStore() async {
    let store = TestStore(initialState: Feature.State(optional: 1)) { Feature() }
    await withKnownIssue {
      await store.send(.increment) {
        $0.count = 1
        modifyWithoutChange(&$0.optional)
      }
    } matching: { issue in
      message(of: issue).contains("Expected \"Int\" value to be modified but it was unchanged")
    }
    store.exhaustivity = .off
    await store.send(.increment) {
      $0.count = 2
      modifyWithoutChange(&$0.optional)
    }
  }

  @Test func typeNamesInMessagesCarryNoUnknownContext() async {
    // A private type's reflected name contains "(unknown context at $…)"; messages leave it out.
    #expect(String(reflecting: PrivateList.Action.self).contains("unknown context"))
    let store = Store(initialState: PrivateList.State()) { PrivateList() }
    withKnownIssue {
      store.send(.rows(.element(id: 1, action: .tapped)))
    } matching: { issue in
      let text = message(of: issue)
      return text.contains("received an action for a missing element")
        && text.contains("PrivateList.Action.rows(.element(id:, action: .tapped))")
        && !text.contains("unknown context")
    }
  }
}

@Reducer
private struct PrivateList {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State> = []
  }
  enum Action {
    case rows(IdentifiedActionOf<Row>)
  }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: \.rows) { Row() }
  }

  @Reducer
  struct Row {
    struct State: Equatable, Identifiable {
      let id: Int
    }
    enum Action {
      case tapped
    }
    var body: some ReducerOf<Self> { EmptyReducer() }
  }
}

@available(*, deprecated)
private func modifyWithoutChange(_ value: inout Int?) {
  XCTModify(&value) { _ in }
}
