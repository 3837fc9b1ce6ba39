import ComposableArchitecture
import Foundation
import Testing

/// A screen that can close itself.
@Reducer
struct Closable {
  @ObservableState
  struct State: Equatable {
    var isPresented = false
  }

  enum Action: Equatable {
    case checkPresentation
    case closeButtonTapped
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.isPresented) var isPresented

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .checkPresentation:
        state.isPresented = isPresented
        return .none
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      }
    }
  }
}

@Reducer
struct Navigator {
  @Reducer
  enum Path {
    case counter(Counter)
    case closable(Closable)
  }

  @ObservableState
  struct State: Equatable {
    var path = StackState<Path.State>()
    var lastPoppedCount: Int?
  }

  enum Action: Equatable {
    case path(StackActionOf<Path>)
    case pushCounterButtonTapped
    case popToRootButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .path(.popFrom(let id)):
        state.lastPoppedCount = state.path[id: id]?.counter?.count
        return .none
      case .path:
        return .none
      case .pushCounterButtonTapped:
        state.path.append(.counter(Counter.State()))
        return .none
      case .popToRootButtonTapped:
        state.path.removeAll()
        return .none
      }
    }
    .forEach(\.path, action: \.path)
  }
}

extension Navigator.Path.State: Equatable {}
extension Navigator.Path.Action: Equatable {}

@MainActor
struct StackTests {
  @Test func appendingGivesTheNextIDAndElementActionsRunOnThatElement() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.pushCounterButtonTapped) {
      $0.path[id: 0] = .counter(Counter.State())
    }
    await store.send(.pushCounterButtonTapped) {
      $0.path[id: 1] = .counter(Counter.State())
    }
    await store.send(.path(.element(id: 1, action: .counter(.incrementButtonTapped)))) {
      $0.path[id: 1]?.modify(\.counter) { $0.count = 1 }
    }
    #expect(store.state.path.ids == [0, 1])
  }

  @Test func aPushActionAppendsTheElementWithItsID() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.path(.push(id: 0, state: .closable(Closable.State())))) {
      $0.path[id: 0] = .closable(Closable.State())
    }
    await store.send(.path(.element(id: 0, action: .closable(.checkPresentation)))) {
      $0.path[id: 0]?.modify(\.closable) { $0.isPresented = true }
    }
  }

  @Test func popFromLetsTheParentSeeTheElementThenRemovesItAndEverythingAbove() async {
    var path = StackState<Navigator.Path.State>()
    path.append(.counter(Counter.State(count: 3)))
    path.append(.counter(Counter.State(count: 4)))
    path.append(.closable(Closable.State()))
    let store = TestStore(initialState: Navigator.State(path: path)) { Navigator() }
    await store.send(.path(.popFrom(id: 1))) {
      $0.path.removeLast(2)
      $0.lastPoppedCount = 4
    }
    #expect(store.state.path.ids == [0])
  }

  @Test func poppingAnElementCancelsItsEffects() async {
    let clock = TestClock()
    let store = TestStore(initialState: Navigator.State()) {
      Navigator()
    } withDependencies: {
      $0.continuousClock = clock
    }
    await store.send(.pushCounterButtonTapped) {
      $0.path[id: 0] = .counter(Counter.State())
    }
    await store.send(.path(.element(id: 0, action: .counter(.timerButtonTapped)))) {
      $0.path[id: 0]?.modify(\.counter) { $0.isTimerOn = true }
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.path[id: 0].counter.timerTicked) {
      $0.path[id: 0]?.modify(\.counter) { $0.count = 1 }
    }
    await store.send(.popToRootButtonTapped) {
      $0.path = StackState()
    }
    // The timer is gone: nothing more arrives, and the exhaustive store finishes clean.
    await clock.advance(by: .seconds(3))
  }

  @Test func anElementThatDismissesItselfIsPopped() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await store.send(.path(.push(id: 0, state: .closable(Closable.State())))) {
      $0.path[id: 0] = .closable(Closable.State())
    }
    await store.send(.path(.element(id: 0, action: .closable(.closeButtonTapped))))
    await store.receive(\.path.popFrom) {
      $0.path = StackState()
    }
  }

  @Test func anActionForAMissingElementIsReportedAndChangesNothing() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await withKnownIssue {
      await store.send(.path(.element(id: 7, action: .counter(.incrementButtonTapped))))
    } matching: { issue in
      message(of: issue).hasPrefix("A \"forEach\" at \"")
    }
    await withKnownIssue {
      await store.send(.path(.popFrom(id: 7)))
    } matching: { issue in
      message(of: issue).contains("received a \"popFrom\" action for a missing element")
    }
    #expect(store.state.path.isEmpty)
  }

  @Test func aPushWithAnIDFromTheFutureIsReported() async {
    let store = TestStore(initialState: Navigator.State()) { Navigator() }
    await withKnownIssue {
      await store.send(.path(.push(id: 5, state: .counter(Counter.State())))) {
        $0.path[id: 5] = .counter(Counter.State())
      }
    } matching: { issue in
      message(of: issue).contains("received a \"push\" action with an unexpected generational ID")
    }
  }

  @Test func theElementsOfAStackAreStoresOfTheirCase() {
    let store = Store(initialState: Navigator.State()) { Navigator() }
    store.send(.pushCounterButtonTapped)
    let pathStore = store.scope(state: \.path, action: \.path)
    guard let id = pathStore.state.ids.first,
      let element = pathStore.scope(state: \.[id: id], action: \.[id: id]),
      case .counter(let counterStore) = element.case
    else {
      Issue.record("expected a counter on the stack")
      return
    }
    counterStore.send(.incrementButtonTapped)
    #expect(store.path[id: id]?.counter?.count == 1)
  }
}

/// A feature presented with `@Presents`, to check dismissal and `isPresented` there.
@Reducer
struct Presenter {
  @ObservableState
  struct State: Equatable {
    @Presents var child: Closable.State?
    var root = Closable.State()
  }

  enum Action: Equatable {
    case child(PresentationAction<Closable.Action>)
    case root(Closable.Action)
    case presentButtonTapped
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.root, action: \.root) { Closable() }
    Reduce { state, action in
      switch action {
      case .presentButtonTapped:
        state.child = Closable.State()
        return .none
      case .child, .root:
        return .none
      }
    }
    .ifLet(\.$child, action: \.child) { Closable() }
  }
}

@MainActor
struct DismissTests {
  @Test func aPresentedChildIsPresentedAndItsDismissSendsDismiss() async {
    let store = TestStore(initialState: Presenter.State()) { Presenter() }
    await store.send(.presentButtonTapped) {
      $0.child = Closable.State()
    }
    await store.send(.child(.presented(.checkPresentation))) {
      $0.child?.isPresented = true
    }
    await store.send(.child(.presented(.closeButtonTapped)))
    await store.receive(\.child.dismiss) {
      $0.child = nil
    }
  }

  @Test func aFeatureAtTheRootOfAStoreIsNotPresentedAndCannotDismiss() async {
    let store = Store(initialState: Presenter.State()) { Presenter() }
    store.send(.root(.checkPresentation))
    #expect(store.root.isPresented == false)
    await withKnownIssue {
      await store.send(.root(.closeButtonTapped)).finish()
    } matching: { issue in
      message(of: issue).hasPrefix("A reducer requested dismissal at \"")
    }
  }

  @Test func dismissingTheRootOfATestStoreMarksItDismissed() async {
    let store = TestStore(initialState: Closable.State()) { Closable() }
    await store.send(.checkPresentation) {
      $0.isPresented = true
    }
    await store.send(.closeButtonTapped)
    await store.finish()
    #expect(store.isDismissed)
    await withKnownIssue {
      await store.send(.checkPresentation)
    } matching: { issue in
      message(of: issue) == "Can't send action to dismissed test store."
    }
  }
}
