import ComposableArchitecture
import Foundation
import Testing

@Reducer
struct Deleter {
  @ObservableState
  struct State: Equatable {
    @Presents var alert: AlertState<Action.Alert>?
    @Presents var timer: Counter.State?
    var items = ["a", "b"]
  }

  enum Action: Equatable {
    case alert(PresentationAction<Alert>)
    case deleteButtonTapped
    case timer(PresentationAction<Counter.Action>)
    case showTimerButtonTapped

    enum Alert: Equatable {
      case confirmDeletion
    }
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .alert(.presented(.confirmDeletion)):
        state.items.removeAll()
        return .none
      case .alert:
        return .none
      case .deleteButtonTapped:
        state.alert = AlertState {
          TextState("Delete everything?")
        } actions: {
          ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
          ButtonState(role: .cancel) { TextState("Cancel") }
        }
        return .none
      case .showTimerButtonTapped:
        state.timer = Counter.State()
        return .none
      case .timer:
        return .none
      }
    }
    .ifLet(\.$alert, action: \.alert)
    .ifLet(\.$timer, action: \.timer) {
      Counter()
    }
  }
}

@MainActor
struct PresentationTests {
  @Test func alertButtonActionIsHandledAndDismissesTheAlert() async {
    let store = TestStore(initialState: Deleter.State()) { Deleter() }
    await store.send(.deleteButtonTapped) {
      $0.alert = AlertState {
        TextState("Delete everything?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        ButtonState(role: .cancel) { TextState("Cancel") }
      }
    }
    await store.send(.alert(.presented(.confirmDeletion))) {
      $0.alert = nil
      $0.items = []
    }
  }

  @Test func dismissSetsThePresentedStateToNil() async {
    let store = TestStore(initialState: Deleter.State()) { Deleter() }
    await store.send(.deleteButtonTapped) {
      $0.alert = AlertState {
        TextState("Delete everything?")
      } actions: {
        ButtonState(role: .destructive, action: .confirmDeletion) { TextState("Delete") }
        ButtonState(role: .cancel) { TextState("Cancel") }
      }
    }
    await store.send(.alert(.dismiss)) { $0.alert = nil }
  }

  @Test func dismissingAPresentedChildCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Deleter.State()) {
      Deleter()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.showTimerButtonTapped) { $0.timer = Counter.State() }
    await store.send(.timer(.presented(.timerButtonTapped))) { $0.timer?.isTimerOn = true }
    await clock.advance(by: .seconds(1))
    await store.receive(.timer(.presented(.timerTicked))) { $0.timer?.count = 1 }
    await store.send(.timer(.dismiss)) { $0.timer = nil }
    await clock.advance(by: .seconds(3))
  }

  @Test func presentationActionWithoutDestinationIsReported() {
    let store = Store(initialState: Deleter.State()) { Deleter() }
    withKnownIssue {
      store.send(.timer(.presented(.incrementButtonTapped)))
    } matching: { issue in
      message(of: issue).contains(
        "received a presentation action when destination state was absent")
    }
  }

  @Test func alertEqualityIgnoresIdentity() {
    let first = AlertState<Never> { TextState("Oops") }
    let second = AlertState<Never> { TextState("Oops") }
    #expect(first.id != second.id)
    #expect(first == second)
    #expect(first != AlertState<Never> { TextState("Other") })
  }

  @Test func presentationStateComparesAndEncodesItsValue() throws {
    let state = PresentationState(wrappedValue: 3)
    #expect(state == PresentationState(wrappedValue: 3))
    let data = try JSONEncoder().encode(state)
    #expect(String(decoding: data, as: UTF8.self) == "3")
    #expect(try JSONDecoder().decode(PresentationState<Int>.self, from: data) == state)
  }
}
