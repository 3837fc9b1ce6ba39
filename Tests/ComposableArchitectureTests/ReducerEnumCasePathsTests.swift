import ComposableArchitecture
import Testing

// Six `@Reducer` enums in one file: Swift 6.3.1 crashed (signal 11, TypeCheckPrimaryFileRequest)
// on five or more while `@Reducer` attached `@CasePathable` to the `State` and `Action` it
// generates. It now writes their case paths itself; this file compiling is half the test.
private enum Many {
  @Reducer struct Counter {
    @ObservableState struct State: Equatable { var count = 0 }
    enum Action { case increment }
    var body: some ReducerOf<Self> {
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }
  @Reducer enum One { case counter(Counter) }
  @Reducer enum Two {
    case first(Counter)
    case second(Counter)
  }
  @Reducer enum Three {
    case first(Counter)
    case second(Counter)
    case third(Counter)
  }
  @Reducer public enum Dialog { case alert(AlertState<Never>) }
  @Reducer public enum Empty {}
  @Reducer enum Mixed {
    case counter(Counter)
    case alert(AlertState<Never>)
    @ReducerCaseIgnored case note(String)
    case pair(first: Int, String)
    case blank
    #if DEBUG
      case debug(Counter)
    #endif
  }
  struct Element: Equatable { var name: String }
  // A payload naming `Element` needs `@CasePathable`'s own rewriting (its `AllCasePaths` is a
  // `Sequence`, whose `Element` would shadow it): this enum keeps the attached macro.
  @Reducer enum WithElement {
    case counter(Counter)
    @ReducerCaseIgnored case element(Element)
  }
}

@MainActor
struct ReducerEnumCasePathsTests {
  @Test func everyCaseOfAGeneratedStateHasACasePath() {
    var state = Many.Mixed.State.counter(.init(count: 2))
    #expect(state.counter?.count == 2)
    #expect(state[case: \.note] == nil)
    #expect(state.is(\.counter))
    state = .pair(first: 1, "one")
    #expect(state.pair?.first == 1)
    #expect(state.pair?.1 == "one")
    state = .blank
    #expect(state.is(\.blank))
    state[case: \.note] = "ignored: another case is current"
    #expect(state.is(\.blank))
    state = .note("kept")
    state[case: \.note] = "changed"
    let note: String? = state.note
    #expect(note == "changed")
  }

  @Test func allCasePathsListsTheCasesInOrder() {
    let stateCases = Array(Many.Mixed.State.allCasePaths)
    let actionCases = Array(Many.Mixed.Action.allCasePaths)
    #if DEBUG
      #expect(stateCases.count == 6)
      #expect(actionCases.count == 6)
    #else
      #expect(stateCases.count == 5)
      #expect(actionCases.count == 5)
    #endif
    #expect(stateCases.first == \Many.Mixed.State.Cases.counter)
    #expect(Many.Mixed.State.allCasePaths[.note("x")] == \.note)
    #expect(Many.Mixed.Action.allCasePaths[.counter(.increment)] == \.counter)
    #expect(Array(Many.Empty.State.allCasePaths).isEmpty)
    #expect(Array(Many.Three.Action.allCasePaths).count == 3)
  }

  @Test func aPayloadNamingElementStillGetsItsCasePath() {
    let state = Many.WithElement.State.element(Many.Element(name: "Seoul"))
    #expect(state.element?.name == "Seoul")
    #expect(state.counter == nil)
    #expect(Array(Many.WithElement.State.allCasePaths).count == 2)
  }

  @Test func actionCasePathsEmbedAndExtract() {
    let action = Many.Two.Action.second(.increment)
    #expect(action[case: \.second] != nil)
    #expect(action[case: \.first] == nil)
    let embedded = (\Many.Two.Action.Cases.first)(.increment)
    #expect(embedded.is(\.first))
  }

  @Test func theEnumsReducerRunsTheCurrentCase() {
    let store = Store(initialState: Many.Three.State.third(.init())) { Many.Three.body }
    store.send(.third(.increment))
    #expect(store.state.third?.count == 1)
    #expect(store.state.first == nil)
  }

  @Test func anEnumOfOneFeatureScopesToIt() {
    let store = Store(initialState: Many.One.State.counter(.init())) { Many.One.body }
    guard case .counter(let counter) = store.case else {
      Issue.record("expected the counter's case")
      return
    }
    counter.send(.increment)
    #expect(store.state.counter?.count == 1)
  }
}
