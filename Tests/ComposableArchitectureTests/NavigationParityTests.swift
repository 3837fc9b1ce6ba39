import ComposableArchitecture
import Foundation
import Testing

/// A feature whose presented timer can be ended by a reducer that runs before the `ifLet`.
@Reducer
struct TimerHost {
  @ObservableState
  struct State: Equatable {
    @Presents var timer: Counter.State?
  }

  enum Action: Equatable {
    case closeAllTapped
    case showTimerTapped
    case timer(PresentationAction<Counter.Action>)
  }

  var body: some ReducerOf<Self> {
    // Runs first, so the `ifLet` below only finds the timer already gone.
    Reduce { state, action in
      if action == .closeAllTapped { state.timer = nil }
      return .none
    }
    Reduce { state, action in
      if action == .showTimerTapped { state.timer = Counter.State() }
      return .none
    }
    .ifLet(\.$timer, action: \.timer) { Counter() }
  }
}

@MainActor
struct NavigationParityTests {
  // MARK: Stacks in TestStore

  @Test func anAppendInTheAssertionGetsTheIDTheReducerGot() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    #expect(store.state.path.ids == [0, 1])
    await store.send(.path(.element(id: 1, action: .counter(.incrementButtonTapped)))) {
      $0.path[id: 1, case: \.counter]?.count = 1
    }
  }

  @Test func anAssertionThatAppendsDoesNotUseUpTheReducersNextID() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.pushCounterButtonTapped) {
      $0.path.append(.counter(Counter.State()))
    }
    // The state is asserted without a send; the append there is only the expectation.
    withKnownIssue {
      store.assert { $0.path.append(.counter(Counter.State())) }
    }
    await store.send(.pushCounterButtonTapped) {
      $0.path[id: 1] = .counter(Counter.State())
    }
  }

  // MARK: Case subscripts

  @Test func settingAStackElementsCaseToNilRemovesTheElement() {
    var path = StackState<Navigator.Path.State>()
    path.append(.counter(Counter.State()))
    path.append(.closable(Closable.State()))
    let first = path.ids[0]
    path[id: first, case: \.counter] = nil
    #expect(path.count == 1)
    #expect(path[id: first] == nil)
  }

  @Test func modifyingAStackElementThroughAnotherCaseIsReportedAndChangesNothing() {
    var path = StackState<Navigator.Path.State>()
    path.append(.closable(Closable.State()))
    let id = path.ids[0]
    withKnownIssue {
      path[id: id, case: \.counter]?.count = 3
    } matching: { issue in
      message(of: issue) == "Can't modify unrelated case \"closable\""
    }
    #expect(path[id: id] == .closable(Closable.State()))
  }

  @Test func settingThePresentedCaseToNilDismisses() {
    var state = Host.State(destination: .counter(Counter.State()))
    state.$destination[case: \.counter] = nil
    #expect(state.destination == nil)
  }

  @Test func modifyingAnotherCaseThanThePresentedOneIsReportedAndChangesNothing() {
    var state = Host.State(destination: .note("hi"))
    withKnownIssue {
      state.$destination[case: \.counter]?.count = 3
    } matching: { issue in
      message(of: issue) == "Can't modify unrelated case \"note\""
    }
    #expect(state.destination == .note("hi"))
  }

  @Test func modifyingACaseWhileNothingIsPresentedIsReported() {
    var state = Host.State()
    withKnownIssue {
      state.$destination[case: \.counter]?.count = 3
    } matching: { issue in
      message(of: issue) == "Can't modify unrelated case"
    }
    #expect(state.destination == nil)
  }

  // MARK: Presentation

  @Test func aDestinationEndedByAnEarlierReducerHasItsEffectsCancelled() async {
    let clock = TestClock()
    let store = TestStore(initialState: TimerHost.State()) {
      TimerHost()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showTimerTapped) { $0.timer = Counter.State() }
    await store.send(.timer(.presented(.timerButtonTapped))) { $0.timer?.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.presented(.timerTicked))) { $0.timer?.count = 1 }
    await store.send(.closeAllTapped) { $0.timer = nil }
    // Had the timer kept running, it would tick here, and the store would end with an effect
    // in flight: both fail the test.
    await clock.advance(by: .seconds(3))
  }

  @Test func anAlertStaysUpAfterAnActionThatIsNotOneOfItsButtons() async {
    let alert = AlertState<Destination.Alert> {
      TextState("Sure?")
    } actions: {
      ButtonState(action: .confirm) { TextState("Yes") }
    }
    let store = TestStore(initialState: Host.State(destination: .alert(alert))) { Host() }
    await withKnownIssue {
      await store.send(.destination(.presented(.counter(.incrementButtonTapped))))
    } matching: { issue in
      message(of: issue).contains("received a child action when child state was set to a")
    }
    #expect(store.state.destination == .alert(alert))
    await store.send(.destination(.presented(.alert(.confirm)))) {
      $0.destination = nil
      $0.log = ["confirmed"]
    }
  }

  @Test func dismissWhileNothingIsPresentedIsReported() async {
    let store = TestStore(initialState: Deleter.State()) { Deleter() }
    await withKnownIssue {
      await store.send(.timer(.dismiss))
    } matching: { issue in
      message(of: issue).contains(
        "received a presentation action when destination state was absent")
    }
  }

  // MARK: Messages

  @Test func aMissingElementIsReportedInTCAsWordsWithUnlabeledPayloadsAsUnderscores() {
    let store = Store(initialState: Labellers.State()) { Labellers() }
    withKnownIssue {
      store.send(.rows(.element(id: 7, action: .pair(1, label: "x"))))
    } matching: { issue in
      let text = message(of: issue)
      return text.contains(
        """
          Action:
            Labellers.Action.rows(.element(id:, action: .pair(_:, label:)))
        """)
        && text.contains("can happen for a few reasons:\n\nA parent reducer removed an element")
        && text.hasSuffix("In SwiftUI applications, use \"ForEachStore\".")
        && !text.contains("•")
    }
  }
}

/// Rows whose action has an unlabeled payload, for the way messages print actions.
@Reducer
struct Labeller {
  struct State: Equatable, Identifiable {
    let id: Int
  }
  enum Action: Equatable {
    case pair(Int, label: String)
  }
  var body: some ReducerOf<Self> {
    EmptyReducer()
  }
}

@Reducer
struct Labellers {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Labeller.State> = []
  }
  enum Action: Equatable {
    case rows(IdentifiedActionOf<Labeller>)
  }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: \.rows) { Labeller() }
  }
}
