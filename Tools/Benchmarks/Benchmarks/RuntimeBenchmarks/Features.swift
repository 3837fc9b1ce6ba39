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

/// One level of nesting: the child feature embedded through `Scope`.
struct Nest<Child: Reducer>: Reducer where Child.State: Equatable {
  struct State: Equatable {
    var child: Child.State
  }
  @CasePathable
  enum Action {
    case child(Child.Action)
  }

  let child: Child

  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { child }
  }
}

/// `Counter` nested ten levels deep; a store of it is scoped ten times to reach the counter.
typealias Deep10 = Nest<Nest<Nest<Nest<Nest<Nest<Nest<Nest<Nest<Nest<Counter>>>>>>>>>>

extension Deep10 {
  static func make() -> Self {
    Nest(child: Nest(child: Nest(child: Nest(child: Nest(child: Nest(child: Nest(child: Nest(child:
      Nest(child: Nest(child: Counter()))))))))))
  }

  static func initialState() -> State {
    .init(child: .init(child: .init(child: .init(child: .init(child: .init(child: .init(child:
      .init(child: .init(child: .init(child: Counter.State()))))))))))
  }

  /// The counter's action wrapped in all ten levels, as a root send spells it.
  static func incrementAction() -> Action {
    .child(.child(.child(.child(.child(.child(.child(.child(.child(.child(
      .incrementButtonTapped))))))))))
  }
}

extension Store where State == Deep10.State, Action == Deep10.Action {
  /// The counter's store, reached through ten `scope` calls.
  func scopedTenLevels() -> StoreOf<Counter> {
    scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
      .scope(\.child, action: \.child)
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
