import ComposableArchitecture
import Foundation
import Testing

/// A feature that is only a name for now: `@Reducer` writes an empty state, an action without
/// cases and a body that does nothing, as TCA's macro does.
@Reducer
struct Placeholder {}

/// A feature with a state and a body but no actions of its own yet.
@Reducer
struct Label {
  @ObservableState
  struct State: Equatable {
    var text = "Hi"
  }
  var body: some ReducerOf<Self> { EmptyReducer() }
}

/// A feature inside another that runs the enclosing feature's domain: its `body` says so, and
/// nothing is written.
@Reducer
struct Outer {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
  enum Action { case tapped }
  @Reducer
  struct Inner {
    let body = EmptyReducer<State, Action>()
  }
  var body: some ReducerOf<Self> { Inner() }
}

@Reducer
enum Screen {
  case placeholder(Placeholder)
  case label(Label)
}

@MainActor
struct FilledInReducerTests {
  @Test func aReducerWithoutItsDomainGetsAnEmptyOne() throws {
    let state = Placeholder.State()
    #expect(state == Placeholder.State())
    #expect(Set([state, Placeholder.State()]).count == 1)
    let encoded = try JSONEncoder().encode(state)
    #expect(String(decoding: encoded, as: UTF8.self) == "{}")
    #expect(try JSONDecoder().decode(Placeholder.State.self, from: encoded) == state)
    #expect((state as Any) is any ObservableState)
  }

  @Test func aReducerWithoutActionsGetsAnActionWithoutCases() {
    let store = Store(initialState: Label.State()) { Label() }
    #expect(store.text == "Hi")
    // An action without cases, equatable, hashable and sendable as TCA's.
    let action: Any.Type = Label.Action.self
    let isHashableAndSendable = action is any (Hashable & Sendable).Type
    #expect(isHashableAndSendable)
  }

  @Test func aBodyWithoutAWrittenTypeKeepsTheEnclosingDomain() {
    let store = Store(initialState: Outer.State()) { Outer() }
    store.send(.tapped)
    #expect(store.count == 0)
  }

  @Test func anEmptyFeatureIsACaseOfAReducerEnum() {
    let store = Store(initialState: Screen.State.placeholder(Placeholder.State())) { Screen.body }
    switch store.case {
    case .placeholder(let placeholder): #expect(placeholder.state == Placeholder.State())
    case .label: Issue.record("expected the placeholder")
    }
  }
}
