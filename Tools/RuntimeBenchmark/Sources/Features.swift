// The features the runtime benchmark sends actions to. They live in the benchmark's own module, as
// an app's features live in theirs, so the runtime is measured across a module boundary.
import ComposableArchitecture

/// The smallest feature worth sending to: one action that mutates state and returns `.none`.
@Reducer
struct Counter {
  struct State: Equatable, Identifiable {
    var id = 0
    var count = 0
  }
  enum Action: Equatable {
    case incrementButtonTapped
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .incrementButtonTapped:
        state.count += 1
        return .none
      }
    }
  }
}

// `Counter` nested ten levels deep, each level its own concrete feature that embeds the one below
// through `Scope`, as real features do (generic levels would measure the cost of instantiating
// key paths of generic types instead). A store of it is scoped ten times to reach the counter.

@Reducer
struct Level1 {
  struct State: Equatable { var child = Counter.State() }
  enum Action { case child(Counter.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Counter() } }
}

@Reducer
struct Level2 {
  struct State: Equatable { var child = Level1.State() }
  enum Action { case child(Level1.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level1() } }
}

@Reducer
struct Level3 {
  struct State: Equatable { var child = Level2.State() }
  enum Action { case child(Level2.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level2() } }
}

@Reducer
struct Level4 {
  struct State: Equatable { var child = Level3.State() }
  enum Action { case child(Level3.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level3() } }
}

@Reducer
struct Level5 {
  struct State: Equatable { var child = Level4.State() }
  enum Action { case child(Level4.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level4() } }
}

@Reducer
struct Level6 {
  struct State: Equatable { var child = Level5.State() }
  enum Action { case child(Level5.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level5() } }
}

@Reducer
struct Level7 {
  struct State: Equatable { var child = Level6.State() }
  enum Action { case child(Level6.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level6() } }
}

@Reducer
struct Level8 {
  struct State: Equatable { var child = Level7.State() }
  enum Action { case child(Level7.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level7() } }
}

@Reducer
struct Level9 {
  struct State: Equatable { var child = Level8.State() }
  enum Action { case child(Level8.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level8() } }
}

@Reducer
struct Level10 {
  struct State: Equatable { var child = Level9.State() }
  enum Action { case child(Level9.Action) }
  var body: some ReducerOf<Self> { Scope(state: \.child, action: \.child) { Level9() } }
}

typealias Deep10 = Level10

/// The counter's action wrapped in all ten levels, as a root send spells it.
func deep10IncrementAction() -> Deep10.Action {
  let level1 = Level1.Action.child(.incrementButtonTapped)
  let level2 = Level2.Action.child(level1)
  let level3 = Level3.Action.child(level2)
  let level4 = Level4.Action.child(level3)
  let level5 = Level5.Action.child(level4)
  let level6 = Level6.Action.child(level5)
  let level7 = Level7.Action.child(level6)
  let level8 = Level8.Action.child(level7)
  let level9 = Level9.Action.child(level8)
  return Level10.Action.child(level9)
}

extension Store where State == Deep10.State, Action == Deep10.Action {
  /// The counter's store, reached through ten `scope` calls.
  func scopedTenLevels() -> StoreOf<Counter> {
    scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
      .scope(state: \.child, action: \.child)
  }
}

/// A list of counters composed with `forEach`.
@Reducer
struct CounterList {
  struct State: Equatable {
    var counters: IdentifiedArrayOf<Counter.State>

    init(count: Int) {
      counters = IdentifiedArray(uniqueElements: (0..<count).map { Counter.State(id: $0) })
    }
  }
  enum Action {
    case counters(IdentifiedActionOf<Counter>)
  }

  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.counters, action: \.counters) {
        Counter()
      }
  }
}

/// `Counter` one level down, optional, through `ifLet`.
@Reducer
struct OptionalCounter {
  struct State: Equatable { var child: Counter.State? = Counter.State() }
  enum Action { case child(Counter.Action) }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .ifLet(\.child, action: \.child) { Counter() }
  }
}

/// `Counter` one level down, in a case of an enum, through `ifCaseLet`.
@Reducer
struct CaseCounter {
  @CasePathable
  enum State: Equatable {
    case counter(Counter.State)
    case idle
  }
  enum Action { case counter(Counter.Action) }
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .ifCaseLet(\.counter, action: \.counter) { Counter() }
  }
}

/// `Counter` one level down through `Scope`.
typealias ScopedCounter = Level1

/// A feature whose button starts an effect that sends an action back.
@Reducer
struct RoundTrip {
  struct State: Equatable {
    var count = 0
  }
  enum Action: Equatable {
    case startButtonTapped
    case effectFinished
  }
  private enum CancelID { case work }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        return .run { send in
          await send(.effectFinished)
        }
        .cancellable(id: CancelID.work, cancelInFlight: true)
      case .effectFinished:
        state.count += 1
        return .none
      }
    }
  }
}

/// The same round trip without `.cancellable`, to see what cancellation adds.
@Reducer
struct PlainRoundTrip {
  struct State: Equatable {
    var count = 0
  }
  enum Action: Equatable {
    case startButtonTapped
    case effectFinished
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .startButtonTapped:
        return .run { send in
          await send(.effectFinished)
        }
      case .effectFinished:
        state.count += 1
        return .none
      }
    }
  }
}

/// Two counters side by side, for observers of one of them.
@Reducer
struct Pair {
  struct State: Equatable {
    var left = Counter.State()
    var right = Counter.State()
  }
  enum Action {
    case left(Counter.Action)
    case right(Counter.Action)
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.left, action: \.left) { Counter() }
    Scope(state: \.right, action: \.right) { Counter() }
  }
}
