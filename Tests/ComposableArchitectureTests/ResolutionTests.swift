import ComposableArchitecture
import Foundation
import Testing

/// A store builds each `body` once; these pin that TCA's semantics survive it: a `body` that
/// reads a dependency sees the dependencies of the store, of `.dependency(_:_:)` and of every
/// `TestStore` step, and a reducer that contains itself still runs.
@MainActor
struct ResolutionTests {
  /// Reads the number client while building its body, as `Episode` reads the favorite client.
  @Reducer
  struct CapturesInBody {
    struct State: Equatable { var number = 0 }
    enum Action: Equatable {
      case fetch
      case fetched(Int)
    }
    @Dependency(\.numberClient) var numberClient

    var body: some ReducerOf<Self> {
      let fetch = numberClient.fetch
      Reduce { state, action in
        switch action {
        case .fetch:
          return .run { send in await send(.fetched((try? await fetch()) ?? -1)) }
        case .fetched(let number):
          state.number = number
          return .none
        }
      }
    }
  }

  @Test func dependenciesChangedBetweenStepsReachABodyThatCapturedThem() async {
    let store = TestStore(initialState: CapturesInBody.State()) {
      CapturesInBody()
    } withDependencies: {
      $0.numberClient.fetch = { 1 }
    }
    await store.send(.fetch)
    await store.receive(.fetched(1)) { $0.number = 1 }
    store.dependencies.numberClient.fetch = { 2 }
    await store.send(.fetch)
    await store.receive(.fetched(2)) { $0.number = 2 }
  }

  @Test func dependencyOperatorReachesABodyThatCapturesIt() async {
    let store = TestStore(initialState: CapturesInBody.State()) {
      CapturesInBody()
        .dependency(\.numberClient.fetch, { 3 })
    } withDependencies: {
      $0.numberClient.fetch = { 1 }
    }
    await store.send(.fetch)
    await store.receive(.fetched(3)) { $0.number = 3 }
  }

  @Test func bodyIsBuiltOncePerStoreNotPerAction() async {
    let builds = LockIsolated(0)
    let store = Store(initialState: Counted.State()) {
      Counted(builds: builds)
    }
    for _ in 1...5 { store.send(.tapped) }
    #expect(store.count == 5)
    #expect(builds.value == 1)
  }

  @Test func aRecursiveReducerRunsAtEveryDepth() async {
    let store = TestStore(
      initialState: Nested.State(
        id: 0, rows: [Nested.State(id: 1, rows: [Nested.State(id: 2)])])
    ) {
      Nested()
    }
    await store.send(.rows(.element(id: 1, action: .rows(.element(id: 2, action: .tapped))))) {
      $0.rows[id: 1]?.rows[id: 2]?.taps = 1
    }
    await store.send(.rows(.element(id: 1, action: .tapped))) {
      $0.rows[id: 1]?.taps = 1
    }
    await store.send(.tapped) { $0.taps = 1 }
  }

  /// A store builds its root's body at once and each child feature's at the child's first
  /// action: a store whose user never reaches a feature never spends memory on its reducers.
  @Test func aChildFeatureIsBuiltAtItsFirstActionOnly() {
    let first = LockIsolated(0)
    let second = LockIsolated(0)
    let store = Store(initialState: Pair.State()) {
      Pair(firstBuilds: first, secondBuilds: second)
    }
    #expect(first.value == 0)
    #expect(second.value == 0)
    store.send(.first(.tapped))
    store.send(.first(.tapped))
    #expect(store.first.count == 2)
    #expect(first.value == 1)
    #expect(second.value == 0)
    store.send(.second(.tapped))
    #expect(store.second.count == 1)
    #expect(second.value == 1)
  }

  /// A child built at its first action is built under the store's dependencies, as it would
  /// have been when the store was made — also when that action comes from an effect.
  @Test func aChildBuiltLaterSeesTheStoresDependencies() async {
    let store = TestStore(initialState: ParentOfCapturing.State()) {
      ParentOfCapturing()
    } withDependencies: {
      $0.numberClient.fetch = { 7 }
    }
    await store.send(.start)
    await store.receive(\.child.fetch)
    await store.receive(\.child.fetched) { $0.child.number = 7 }
  }

  /// A forEach builds its element feature with itself: list rows are a list's everyday actions.
  @Test func aForEachBuildsItsElementFeatureWithItself() {
    let builds = LockIsolated(0)
    let store = Store(initialState: List.State(rows: [Counted.State(id: 1)])) {
      List(builds: builds)
    }
    #expect(builds.value == 1)
    store.send(.rows(.element(id: 1, action: .tapped)))
    #expect(store.rows[id: 1]?.count == 1)
    #expect(builds.value == 1)
  }

  @Reducer
  struct Pair {
    struct State: Equatable {
      var first = Counted.State()
      var second = Counted.State()
    }
    enum Action {
      case first(Counted.Action)
      case second(Counted.Action)
    }
    let firstBuilds: LockIsolated<Int>
    let secondBuilds: LockIsolated<Int>

    var body: some ReducerOf<Self> {
      Scope(state: \.first, action: \.first) { Counted(builds: firstBuilds) }
      Scope(state: \.second, action: \.second) { Counted(builds: secondBuilds) }
    }
  }

  @Reducer
  struct ParentOfCapturing {
    struct State: Equatable { var child = CapturesInBody.State() }
    enum Action {
      case child(CapturesInBody.Action)
      case start
    }
    var body: some ReducerOf<Self> {
      Scope(state: \.child, action: \.child) { CapturesInBody() }
      Reduce { _, action in
        guard case .start = action else { return .none }
        return .run { send in await send(.child(.fetch)) }
      }
    }
  }

  @Reducer
  struct List {
    struct State: Equatable { var rows: IdentifiedArrayOf<Counted.State> = [] }
    enum Action { case rows(IdentifiedActionOf<Counted>) }
    let builds: LockIsolated<Int>

    var body: some ReducerOf<Self> {
      EmptyReducer()
        .forEach(\.rows, action: \.rows) { Counted(builds: builds) }
    }
  }

  @Reducer
  struct Counted {
    struct State: Equatable, Identifiable {
      var id = 0
      var count = 0
    }
    enum Action { case tapped }
    let builds: LockIsolated<Int>

    var body: some ReducerOf<Self> {
      let _ = builds.withValue { $0 += 1 }
      Reduce { state, _ in
        state.count += 1
        return .none
      }
    }
  }

  @Reducer
  struct Nested {
    struct State: Equatable, Identifiable {
      let id: Int
      var rows: IdentifiedArrayOf<State> = []
      var taps = 0
    }
    indirect enum Action {
      case rows(IdentifiedActionOf<Nested>)
      case tapped
    }
    var body: some ReducerOf<Self> {
      Reduce { state, action in
        guard case .tapped = action else { return .none }
        state.taps += 1
        return .none
      }
      .forEach(\.rows, action: \.rows) {
        Nested()
      }
    }
  }
}
