import ComposableArchitecture
import Foundation
import Testing

@Reducer
struct Parent {
  @ObservableState
  struct State: Equatable {
    var child = Counter.State()
    var counters: IdentifiedArrayOf<Counter.State> = []
    var optional: Counter.State?
    var log: [String] = []
  }

  enum Action: Equatable {
    case child(Counter.Action)
    case counters(IdentifiedActionOf<Counter>)
    case optional(Counter.Action)
    case removeCounter(id: Int)
    case clearOptional
    case replaceOptional(id: Int)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) {
      Counter()
    }
    Reduce { state, action in
      switch action {
      case .child(.incrementButtonTapped):
        state.log.append("parent saw child count \(state.child.count)")
        return .none
      case .counters(.element(let id, .incrementButtonTapped)):
        state.log.append("parent saw counter \(id) at \(state.counters[id: id]?.count ?? -1)")
        return .none
      case .removeCounter(let id):
        state.counters.remove(id: id)
        return .none
      case .clearOptional:
        state.optional = nil
        return .none
      case .replaceOptional(let id):
        state.optional = Counter.State(id: id)
        return .none
      case .child, .counters, .optional:
        return .none
      }
    }
    .forEach(\.counters, action: \.counters) {
      Counter()
    }
    .ifLet(\.optional, action: \.optional) {
      Counter()
    }
  }
}

@MainActor
struct CompositionTests {
  @Test func scopeRunsTheChildBeforeTheParentSeesTheAction() async {
    let store = TestStore(initialState: Parent.State()) { Parent() }
    await store.send(.child(.incrementButtonTapped)) {
      $0.child.count = 1
      $0.log = ["parent saw child count 1"]
    }
  }

  @Test func scopeEmbedsChildEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State()) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.child(.factButtonTapped))
    await clock.advance(by: .seconds(1))
    await store.receive(.child(.factResponse("0 is a number"))) {
      $0.child.fact = "0 is a number"
    }
  }

  @Test func forEachRunsTheElementInPlaceThenTheParent() async {
    let store = TestStore(
      initialState: Parent.State(counters: [Counter.State(id: 1), Counter.State(id: 2)])
    ) { Parent() }
    await store.send(\.counters[id: 2].incrementButtonTapped) {
      $0.counters[id: 2]?.count = 1
      $0.log = ["parent saw counter 2 at 1"]
    }
  }

  @Test func forEachActionForAMissingElementIsReportedAndChangesNothing() async {
    let store = Store(initialState: Parent.State(counters: [Counter.State(id: 1)])) { Parent() }
    withKnownIssue {
      store.send(.counters(.element(id: 99, action: .decrementButtonTapped)))
    } matching: { issue in
      message(of: issue).contains("received an action for a missing element")
        && message(of: issue).contains(".counters(.element(id:, action: .decrementButtonTapped))")
    }
    #expect(store.counters == [Counter.State(id: 1)])
    #expect(store.log == [])
  }

  @Test func removingAnElementCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Parent.State(counters: [Counter.State(id: 1), Counter.State(id: 2)])
    ) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(\.counters[id: 1].timerButtonTapped) { $0.counters[id: 1]?.isTimerOn = true }
    await store.send(\.counters[id: 2].timerButtonTapped) { $0.counters[id: 2]?.isTimerOn = true }
    await store.send(.removeCounter(id: 1)) { $0.counters.remove(id: 1) }
    await clock.advance(by: .seconds(1))
    await store.receive(\.counters[id: 2].timerTicked) { $0.counters[id: 2]?.count = 1 }
    await store.send(\.counters[id: 2].timerButtonTapped) { $0.counters[id: 2]?.isTimerOn = false }
  }

  @Test func elementsWithTheSameCancelIDDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Parent.State(counters: [Counter.State(id: 1), Counter.State(id: 2)])
    ) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    // Both timers use `CancelID.timer` with `cancelInFlight: true`; per-element paths keep them apart.
    await store.send(\.counters[id: 1].timerButtonTapped) { $0.counters[id: 1]?.isTimerOn = true }
    await store.send(\.counters[id: 2].timerButtonTapped) { $0.counters[id: 2]?.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(\.counters[id: 1].timerTicked) { $0.counters[id: 1]?.count = 1 }
    await store.receive(\.counters[id: 2].timerTicked) { $0.counters[id: 2]?.count = 1 }
    await store.send(\.counters[id: 1].timerButtonTapped) { $0.counters[id: 1]?.isTimerOn = false }
    await store.send(\.counters[id: 2].timerButtonTapped) { $0.counters[id: 2]?.isTimerOn = false }
  }

  @Test func niLingAnIfLetChildCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State(optional: Counter.State(id: 5))) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.optional(.timerButtonTapped)) { $0.optional?.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.optional(.timerTicked)) { $0.optional?.count = 1 }
    await store.send(.clearOptional) { $0.optional = nil }
    await clock.advance(by: .seconds(5))
  }

  @Test func replacingAnIfLetChildWithAnotherIdentityCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Parent.State(optional: Counter.State(id: 5))) {
      Parent()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.optional(.timerButtonTapped)) { $0.optional?.isTimerOn = true }
    await store.send(.replaceOptional(id: 6)) { $0.optional = Counter.State(id: 6) }
    await clock.advance(by: .seconds(5))
  }

  @Test func ifLetActionWhileNilIsReported() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    withKnownIssue {
      store.send(.optional(.incrementButtonTapped))
    } matching: { issue in
      message(of: issue).contains("received a child action when child state was \"nil\"")
    }
    #expect(store.optional == nil)
  }
}

// MARK: - ifCaseLet

@Reducer
struct Switcher {
  @CasePathable
  enum State: Equatable {
    case counter(Counter.State)
    case text(String)
  }

  enum Action: Equatable {
    case counter(Counter.Action)
    case showText
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .showText:
        state = .text("hello")
        return .none
      case .counter:
        return .none
      }
    }
    .ifCaseLet(\.counter, action: \.counter) {
      Counter()
    }
  }
}

@MainActor
struct IfCaseLetTests {
  @Test func childRunsOnTheCaseAndSwitchingCasesCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Switcher.State.counter(Counter.State())) {
      Switcher()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.counter(.timerButtonTapped)) {
      $0 = .counter(Counter.State(isTimerOn: true))
    }
    await clock.advance(by: .seconds(1))
    await store.receive(.counter(.timerTicked)) {
      $0 = .counter(Counter.State(count: 1, isTimerOn: true))
    }
    await store.send(.showText) { $0 = .text("hello") }
    await clock.advance(by: .seconds(3))
  }

  @Test func childActionInAnotherCaseIsReported() {
    let store = Store(initialState: Switcher.State.text("x")) { Switcher() }
    withKnownIssue {
      store.send(.counter(.incrementButtonTapped))
    } matching: { issue in
      message(of: issue).contains(
        "received a child action when child state was set to a different case")
    }
    #expect(store.state == .text("x"))
  }
}
