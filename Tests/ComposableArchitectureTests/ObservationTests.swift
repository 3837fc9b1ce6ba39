import ComposableArchitecture
import Testing

@MainActor
struct ObservationTests {
  @Test func statesDeliverTheCurrentStateThenOneStatePerSend() async {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        return action == "a" ? .send("b") : .none
      }
    }
    var iterator = store.states.makeAsyncIterator()
    #expect(await iterator.next() == [])
    store.send("a")
    store.send("c")
    // The synchronous cascade a → b is observed once, with its final state.
    #expect(await iterator.next() == ["a", "b"])
    #expect(await iterator.next() == ["a", "b", "c"])
  }

  @Test func observeRemovesDuplicates() async {
    let store = Store(initialState: Pair()) {
      Reduce<Pair, Bool> { state, flag in
        if flag { state.value += 1 } else { state.changes.append("x") }
        return .none
      }
    }
    var values = store.observe(\.value).makeAsyncIterator()
    #expect(await values.next() == 0)
    store.send(false)
    store.send(true)
    store.send(false)
    store.send(true)
    #expect(await values.next() == 1)
    #expect(await values.next() == 2)
  }

  @Test func scopedStoreReadsAndSendsThroughTheRoot() async {
    let store = Store(initialState: Parent.State()) { Parent() }
    let child = store.scope(state: \.child, action: \.child)
    #expect(store.scope(state: \.child, action: \.child) === child)
    child.send(.incrementButtonTapped)
    #expect(child.count == 1)
    #expect(store.child.count == 1)
    #expect(store.log == ["parent saw child count 1"])

    var counts = child.observe(\.count).makeAsyncIterator()
    #expect(await counts.next() == 1)
    store.send(.child(.incrementButtonTapped))
    #expect(await counts.next() == 2)
  }

  @Test func scopedOptionalStoreIsNilWhileStateIsNil() {
    let store = Store(initialState: Parent.State()) { Parent() }
    #expect(store.scope(state: \.optional, action: \.optional) == nil)
    store.send(.replaceOptional(id: 3))
    let child = store.scope(state: \.optional, action: \.optional)
    child?.send(.incrementButtonTapped)
    #expect(store.optional?.count == 1)
  }

  @Test func deeplyScopedStoreSendsThroughEveryLevel() {
    let store = Store(initialState: Nested.State(depth: 10)) { Nested() }
    var scoped = store
    for _ in 0..<10 {
      scoped = scoped.scope(state: \.unwrappedChild, action: \.child)
    }
    scoped.send(.increment)
    var state = store.state
    for _ in 0..<10 { state = state.child! }
    #expect(state.count == 1)
  }

  @Test func observationEndsWhenTheStoreGoesAway() async {
    var store: Store<Pair, Bool>? = Store(initialState: Pair()) {
      Reduce<Pair, Bool> { _, _ in .none }
    }
    let states = store!.states
    store = nil
    var count = 0
    for await _ in states { count += 1 }
    #expect(count == 1)
  }
}

/// A feature nested in itself, for deep scoping.
@Reducer
struct Nested {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var child: State? {
      get { _child.first }
      set { _child = newValue.map { [$0] } ?? [] }
    }
    var unwrappedChild: State {
      get { child ?? State() }
      set { child = newValue }
    }
    private var _child: [State] = []

    init(depth: Int = 0) {
      if depth > 0 { child = State(depth: depth - 1) }
    }
  }

  indirect enum Action: Equatable {
    case child(Action)
    case increment
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .increment = action { state.count += 1 }
      return .none
    }
    Scope(state: \.unwrappedChild, action: \.child) {
      Nested()
    }
  }
}

@Reducer
private struct Rows {
  @ObservableState
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Counter.State> = []
  }

  enum Action {
    case rows(IdentifiedActionOf<Counter>)
    case removeFirst
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      if case .removeFirst = action { state.rows.removeFirst() }
      return .none
    }
    .forEach(\.rows, action: \.rows) { Counter() }
  }
}

@MainActor
struct StoreCollectionAndTrackingTests {
  @Test func aCollectionScopeGivesAStorePerElement() {
    let store = Store(
      initialState: Rows.State(rows: [Counter.State(id: 1), Counter.State(id: 2)])
    ) { Rows() }
    let rowStores = Array(store.scope(state: \.rows, action: \.rows))
    #expect(rowStores.map(\.state.id) == [1, 2])
    rowStores[1].send(.incrementButtonTapped)
    #expect(store.rows[id: 2]?.count == 1)
    // Element stores are cached, as key-path scopes are.
    #expect(rowStores[1] === Array(store.scope(state: \.rows, action: \.rows))[1])
    store.send(.removeFirst)
    // A store kept from before shows its element's last value.
    #expect(rowStores[0].count == 0)
    #expect(Array(store.scope(state: \.rows, action: \.rows)).map(\.state.id) == [2])
  }

  @Test func observationTrackingThroughTheStoreSeesTheFieldsRead() {
    let store = Store(initialState: Counter.State()) { Counter() }
    let fired = LockIsolated(0)
    withObservationTracking {
      _ = store.state.count
    } onChange: {
      fired.withValue { $0 += 1 }
    }
    store.send(.factResponse("a fact"))  // changes fact, not count
    #expect(fired.value == 0)
    store.send(.incrementButtonTapped)
    #expect(fired.value == 1)
  }
}

/// A generic observable state, and one nested in a generic type: their accessors report with
/// key paths the runtime makes once per type (see `_$observableKeyPath`).
@ObservableState
struct Tagged<Tag: Sendable>: Equatable, Sendable {
  var count = 0
  var other = 0
  /// A one-letter name, which a string literal may hold as a scalar rather than an address.
  var x = 0
}

enum Wrapper<Tag> {
  @ObservableState
  struct State: Equatable {
    var count = 0
  }
}

struct GenericStateObservationTests {
  @Test func aGenericStateTellsTheObserversOfAFieldOnlyOfThatField() {
    var state = Tagged<Int>()
    let changed = LockIsolated([String]())
    withObservationTracking {
      _ = state.count
    } onChange: {
      changed.withValue { $0.append("count") }
    }
    state.other += 1
    state.other = 5
    state.x = 7
    #expect(changed.value.isEmpty)
    state.count = 2
    #expect(changed.value == ["count"])
    #expect(state == Tagged(count: 2, other: 5, x: 7))
    let fired = LockIsolated(false)
    withObservationTracking {
      _ = state.x
    } onChange: {
      fired.setValue(true)
    }
    state.count += 1
    #expect(fired.value == false)
    state.x += 1
    #expect(fired.value == true)
  }

  @Test func aStateNestedInAGenericTypeIsObservedInPlaceAndByAssignment() {
    var state = Wrapper<String>.State()
    let changed = LockIsolated(0)
    withObservationTracking {
      _ = state.count
    } onChange: {
      changed.withValue { $0 += 1 }
    }
    state.count += 1
    #expect(changed.value == 1)
    #expect(state.count == 1)
  }

  /// The key path is made on the first use for a type and field, and the same one is given after.
  @Test func aFieldsKeyPathIsMadeOncePerType() {
    var made = 0
    func countKeyPath<Tag>(_: Tag.Type) -> KeyPath<Tagged<Tag>, Int> {
      _$observableKeyPath("count") {
        made += 1
        return \Tagged<Tag>.count
      }
    }
    let first = countKeyPath(UInt8.self)
    #expect(countKeyPath(UInt8.self) === first)
    #expect(made == 1)
    #expect(first == \Tagged<UInt8>.count)
    let other = countKeyPath(UInt16.self)
    #expect(made == 2)
    #expect(other == \Tagged<UInt16>.count)
    #expect(Tagged<UInt16>(count: 3)[keyPath: other] == 3)
  }

  /// Threads that ask for the key paths of many types at once all get the right ones.
  @Test func keyPathsAskedForFromManyThreadsAreRight() async {
    func countKeyPath<Tag>(_: Tag.Type) -> KeyPath<Tagged<Tag>, Int> {
      _$observableKeyPath("count") { \Tagged<Tag>.count }
    }
    func otherKeyPath<Tag>(_: Tag.Type) -> KeyPath<Tagged<Tag>, Int> {
      _$observableKeyPath("other") { \Tagged<Tag>.other }
    }
    let wrong = await withTaskGroup(of: Int.self) { group in
      for _ in 0..<8 {
        group.addTask {
          var wrong = 0
          for _ in 0..<200 {
            let state = Tagged<Int8>(count: 1, other: 2)
            if state[keyPath: countKeyPath(Int8.self)] != 1 { wrong += 1 }
            if state[keyPath: otherKeyPath(Int8.self)] != 2 { wrong += 1 }
            let text = Tagged<Substring>(count: 3, other: 4)
            if text[keyPath: countKeyPath(Substring.self)] != 3 { wrong += 1 }
            if text[keyPath: otherKeyPath(Substring.self)] != 4 { wrong += 1 }
          }
          return wrong
        }
      }
      return await group.reduce(0, +)
    }
    #expect(wrong == 0)
  }
}
