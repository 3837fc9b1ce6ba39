import ComposableArchitecture
import Testing

/// A reducer whose domain is only in its `body`'s type: no nested `State` or `Action`.
@Reducer
struct Doubler {
  var body: some Reducer<Int, Void> {
    Reduce { state, _ in
      state *= 2
      return .none
    }
  }
}

/// A reducer enum that asks `@Reducer` for its `State` and `Action` conformances.
@available(*, deprecated)
@Reducer(state: .equatable, action: .equatable, .sendable)
enum Panel {
  case counter(Counter)
  case stepper(Stepper = Stepper(step: 3))
}

@Reducer
struct Holder {
  @ObservableState
  struct State: Equatable {
    var counter = Counter.State()
    @Presents var child: Counter.State?
    var rows: IdentifiedArrayOf<Counter.State> = []
  }
  // Beside the `@Reducer` enum `Panel` above, this conformance extension made Swift 6.3.1 crash
  // until `@Reducer` stopped attaching `@ObservableState` to the enum states it writes.
  @RecordDecodable
  enum Action: Equatable {
    case counter(Counter.Action)
    case child(PresentationAction<Counter.Action>)
    case rows(IdentifiedActionOf<Counter>)
  }
  var body: some ReducerOf<Self> {
    Scope(\.counter, action: \.counter) { Counter() }
    EmptyReducer()
      .ifLet(\.$child, action: \.child) { Counter() }
      .forEach(\.rows, action: \.rows) { Counter() }
  }
}

/// The spellings TCA's current code and tests use, beside the ones the rest of our tests use.
@MainActor
struct TCASpellingTests {
  @Test func perceptionTrackingIsObservationTracking() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changed = LockIsolated(0)
    withPerceptionTracking {
      _ = store.count
    } onChange: {
      changed.withValue { $0 += 1 }
    }
    store.send(.incrementButtonTapped)
    store.send(.incrementButtonTapped)
    #expect(changed.value == 1)
  }

  @Test func scopingWithoutTheStateLabelGivesTheSameStores() {
    let store = Store(
      initialState: Holder.State(child: Counter.State(), rows: [Counter.State(id: 7)])
    ) { Holder() }
    #expect(
      store.scope(\.counter, action: \.counter) === store.scope(state: \.counter, action: \.counter)
    )
    let child = store.scope(\.child, action: \.child.presented)
    #expect(child != nil)
    child?.send(.incrementButtonTapped)
    #expect(store.child?.count == 1)
    let rows = Array(store.scope(\.rows, action: \.rows))
    #expect(rows.map { $0.state.id } == [7])
    rows[0].send(.incrementButtonTapped)
    #expect(store.rows[id: 7]?.count == 1)
  }

  @Test func writingThroughAStoreSendsABindingAction() async {
    let store = TestStore(initialState: Form.State()) { Form() }
    let live = Store(initialState: Form.State()) { Form() }
    live.text = "Blob"
    live.stepCount = 1
    #expect(live.state.text == "Blob")
    // The binding action ran the rest of the body, which clamps the slider to the step count.
    #expect(live.state.sliderValue == 1)
    await store.send(\.binding.text, "Blob") { $0.text = "Blob" }
  }

  @Test func aWriteThatNoBindingReducerAppliesIsReported() async {
    let store = Store(initialState: Form.State()) {
      Reduce<Form.State, Form.Action> { _, _ in .none }
    }
    await withKnownIssue {
      store.text = "Blob"
      // The report comes from a main-actor task started when the unapplied action goes away.
      for _ in 0..<10 { await Task.yield() }
    } matching: { issue in
      message(of: issue) == """
        A binding action sent from a store was not handled.

          Action:
            Form.Action.binding(.set(_, "Blob"))

        To fix this, invoke "BindingReducer()" from your feature reducer's "body".
        """
    }
    #expect(store.text == "")
  }

  @Test func writingAnEqualValueTellsNoObserver() {
    var state = Counter.State()
    let changed = LockIsolated(false)
    withPerceptionTracking {
      _ = state.count
    } onChange: {
      changed.setValue(true)
    }
    // An assignment compares; an in-place modification (`+=`) always tells, as in TCA, so that a
    // value perturbed in place (`_$willModify()`) is seen even when it compares equal.
    state.count = state.count
    #expect(changed.value == false)
    state.count += 1
    #expect(changed.value == true)
  }

  @available(*, deprecated)
  @Test func scopingOptionalStateFromAClosureScopedStoreIsReported() {
    let store = Store(
      initialState: Holder.State(
        child: Counter.State(), rows: [Counter.State(id: 1), Counter.State(id: 2)])
    ) { Holder() }
    withKnownIssue {
      _ = store.scope(state: { $0 }, action: { $0 }).scope(\.child, action: \.child.presented)
    } matching: { issue in
      message(of: issue).hasPrefix(
        "Scoping from uncached 'StoreOf<Holder>' is not compatible with observation.")
    }
    // A collection scoped from it is reported once, for the collection, not for each element.
    withKnownIssue {
      let rows = Array(store.scope(state: { $0 }, action: { $0 }).scope(\.rows, action: \.rows))
      #expect(rows.map { $0.state.id } == [1, 2])
    } matching: { issue in
      message(of: issue).hasPrefix("Scoping from uncached 'StoreOf<Holder>'")
    }
    // Key-path scopes are cached all the way down, and say nothing.
    let child = store.scope(\.self, action: \.self).scope(\.child, action: \.child.presented)
    #expect(child?.count == 0)
  }

  @Test func aChildPerturbedInPlaceIsSeenEvenWhenItComparesEqual() {
    var state = Holder.State(rows: [Counter.State(id: 1)])
    var copy = state.rows[0]
    copy.count += 1
    let changed = LockIsolated(false)
    withPerceptionTracking {
      _ = state.rows[0].count
    } onChange: {
      changed.setValue(true)
    }
    state.rows[0] = copy
    state.rows[0]._$willModify()
    #expect(changed.value == true)
    #expect(state.rows[0].count == 1)
  }

  @Test func trackingAStoreFiresWhenItsStateIsReplaced() {
    let store = Store<Counter.State, Void>(initialState: Counter.State()) {
      Reduce { state, _ in
        state = Counter.State(count: 42)
        return .none
      }
    }
    let changed = LockIsolated(0)
    withPerceptionTracking {
      _ = store.count
    } onChange: {
      changed.withValue { $0 += 1 }
    }
    store.send(())
    #expect(changed.value == 1)
    #expect(store.count == 42)
  }

  @available(*, deprecated)
  @Test func trackingAStoreOfAnEnumFiresWhenTheCaseChanges() {
    let store = Store<Panel.State, Void>(initialState: .counter(Counter.State())) {
      Reduce { state, _ in
        state = .stepper(Stepper.State())
        return .none
      }
    }
    let changed = LockIsolated(false)
    withPerceptionTracking {
      _ = store.state
    } onChange: {
      changed.setValue(true)
    }
    store.send(())
    #expect(changed.value == true)
  }

  @Test func trackingAStoreDoesNotFireForAnotherFieldsChange() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let changed = LockIsolated(false)
    withPerceptionTracking {
      _ = store.fact
    } onChange: {
      changed.setValue(true)
    }
    store.send(.incrementButtonTapped)
    #expect(changed.value == false)
  }

  @Test func aReducerWithItsDomainOnlyInItsBodyRuns() {
    let store = Store(initialState: 3) { Doubler() }
    store.send(())
    #expect(store.state == 6)
  }

  @available(*, deprecated)
  @Test func synthesizedConformancesAreThere() {
    let state = Panel.State.stepper(Stepper.State(value: 4))
    #expect(state == .stepper(Stepper.State(value: 4)))
    #expect(state != .counter(Counter.State()))
    #expect(Panel.Action.stepper(.stepTapped) == .stepper(.stepTapped))
    let store = Store(initialState: state) { Panel.body }
    store.send(.stepper(.stepTapped))
    #expect(store.state == .stepper(Stepper.State(value: 7)))
  }

  @Test func animationsTCAsCaseStudiesUseAreAccepted() async {
    let store = Store(initialState: Counter.State()) { Counter() }
    store.send(
      .incrementButtonTapped, animation: .interpolatingSpring(stiffness: 3000, damping: 40))
    store.send(
      .incrementButtonTapped, animation: .interactiveSpring(response: 0.25, dampingFraction: 0.1))
    #expect(store.count == 2)
  }
}
