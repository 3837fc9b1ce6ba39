import ComposableArchitecture
import Foundation
import Testing

/// A reducer with a parameter, built by a case's default expression.
@Reducer
struct Stepper {
  let step: Int

  @ObservableState
  struct State: Equatable { var value = 0 }
  enum Action: Equatable { case stepTapped }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      state.value += step
      return .none
    }
  }
}

@Reducer
enum Destination {
  case counter(Counter)
  case stepByTwo(Stepper = Stepper(step: 2))
  case alert(AlertState<Alert>)
  case dialog(ConfirmationDialogState<Dialog>)
  @ReducerCaseIgnored
  case note(String)
  case empty
  case pair(Int, label: String)

  enum Alert: Equatable { case confirm }
  enum Dialog: Equatable { case reset }
}

extension Destination.State: Equatable {}
extension Destination.Action: Equatable {}

@Reducer
struct Host {
  @ObservableState
  struct State: Equatable {
    @Presents var destination: Destination.State?
    var log: [String] = []
  }

  enum Action: Equatable {
    case destination(PresentationAction<Destination.Action>)
    case show(Destination.State)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .destination(.presented(.alert(.confirm))):
        state.log.append("confirmed")
        return .none
      case .destination(.presented(.dialog(.reset))):
        state.log.append("reset")
        return .none
      case .destination(.dismiss):
        state.log.append("dismissed counter \(state.destination?.counter?.count ?? -1)")
        return .none
      case .destination:
        return .none
      case .show(let destination):
        state.destination = destination
        return .none
      }
    }
    .ifLet(\.$destination, action: \.destination)
  }
}

private let resetDialog = ConfirmationDialogState<Destination.Dialog>(
  titleVisibility: .visible
) {
  TextState("Reset?")
} actions: {
  ButtonState(role: .destructive, action: .reset) { TextState("Reset") }
}

@MainActor
struct EnumReducerTests {
  @Test func aFeatureCaseRunsItsReducerOnItsCase() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.show(.counter(Counter.State()))) {
      $0.destination = .counter(Counter.State())
    }
    await store.send(.destination(.presented(.counter(.incrementButtonTapped)))) {
      $0.destination?.modify(\.counter) { $0.count = 1 }
    }
  }

  @Test func aCaseWithADefaultExpressionRunsThatReducer() async {
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.show(.stepByTwo(Stepper.State()))) {
      $0.destination = .stepByTwo(Stepper.State())
    }
    await store.send(.destination(.presented(.stepByTwo(.stepTapped)))) {
      $0.destination?.modify(\.stepByTwo) { $0.value = 2 }
    }
  }

  @Test func anAlertCaseIsDismissedAfterItsAction() async {
    let alert = AlertState<Destination.Alert> {
      TextState("Sure?")
    } actions: {
      ButtonState(action: .confirm) { TextState("Yes") }
    }
    let store = TestStore(initialState: Host.State()) { Host() }
    await store.send(.show(.alert(alert))) {
      $0.destination = .alert(alert)
    }
    await store.send(.destination(.presented(.alert(.confirm)))) {
      $0.destination = nil
      $0.log = ["confirmed"]
    }
  }

  @Test func aConfirmationDialogCaseIsDismissedAfterItsAction() async {
    let store = TestStore(initialState: Host.State(destination: .dialog(resetDialog))) {
      Host()
    }
    await store.send(.destination(.presented(.dialog(.reset)))) {
      $0.destination = nil
      $0.log = ["reset"]
    }
  }

  @Test func dismissingAFeatureCaseCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Host.State(destination: .counter(Counter.State()))) {
      Host()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.destination(.presented(.counter(.timerButtonTapped)))) {
      $0.destination?.modify(\.counter) { $0.isTimerOn = true }
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.destination.presented.counter.timerTicked) {
      $0.destination?.modify(\.counter) { $0.count = 1 }
    }
    await store.send(.destination(.dismiss)) {
      $0.destination = nil
      $0.log = ["dismissed counter 1"]
    }
    await clock.advance(by: .seconds(5))
  }

  @Test func anActionForAnotherCaseIsReportedAndChangesNothing() async {
    let store = TestStore(initialState: Host.State(destination: .note("hello"))) { Host() }
    await withKnownIssue {
      await store.send(.destination(.presented(.counter(.incrementButtonTapped))))
    } matching: { issue in
      message(of: issue).contains(
        "received a child action when child state was set to a different case")
        && message(of: issue).hasPrefix("A \"Scope\" at \"")
    }
    #expect(store.state.destination == .note("hello"))
  }

  @Test func theCaseOfAStoreIsAStoreForAFeatureAndTheValueOtherwise() {
    let store = Store(initialState: Destination.State.counter(Counter.State())) {
      Destination.body
    }
    guard case .counter(let counterStore) = store.case else {
      Issue.record("expected the counter case, got \(store.case)")
      return
    }
    counterStore.send(.incrementButtonTapped)
    #expect(counterStore.count == 1)
    #expect(store.state == .counter(Counter.State(count: 1)))

    let note = Store(initialState: Destination.State.note("hi")) { Destination.body }
    guard case .note("hi") = note.case else {
      Issue.record("expected the note case, got \(note.case)")
      return
    }
    let pair = Store(initialState: Destination.State.pair(1, label: "x")) { Destination.body }
    guard case .pair(1, label: "x") = pair.case else {
      Issue.record("expected the pair case, got \(pair.case)")
      return
    }
    let empty = Store(initialState: Destination.State.empty) { Destination.body }
    guard case .empty = empty.case else {
      Issue.record("expected the empty case, got \(empty.case)")
      return
    }
    let dialog = Store(initialState: Destination.State.dialog(resetDialog)) { Destination.body }
    guard case .dialog(let value) = dialog.case else {
      Issue.record("expected the dialog case, got \(dialog.case)")
      return
    }
    #expect(value == resetDialog)
  }

  @Test func aPresentedEnumIsScopedFromTheParentStore() {
    let store = Store(initialState: Host.State()) { Host() }
    #expect(store.scope(state: \.destination, action: \.destination.presented) == nil)
    store.send(.show(.stepByTwo(Stepper.State())))
    guard let destination = store.scope(state: \.destination, action: \.destination.presented),
      case .stepByTwo(let stepper) = destination.case
    else {
      Issue.record("expected a presented stepper")
      return
    }
    stepper.send(.stepTapped)
    #expect(store.destination == .stepByTwo(Stepper.State(value: 2)))
  }

  @Test func theGeneratedStateIsObservable() {
    var state = Destination.State.counter(Counter.State())
    let before = state._$id
    state.modify(\.counter) { $0.count += 1 }
    #expect(state._$id == before)
    state = .counter(Counter.State())
    #expect(state._$id != before)
  }
}
