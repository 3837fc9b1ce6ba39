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

  /// A store builds its root's body and the features its state always holds (a `Scope` into a
  /// field) when it is made, and a feature whose state may not exist (an `ifLet` child, a
  /// presented destination) at that feature's first action: a store whose user never opens a
  /// feature never spends memory on its reducers, and a field's feature costs its first action
  /// nothing more than the next.
  @Test func aFieldsFeatureIsBuiltWithTheStoreAndAnOptionalOneAtItsFirstAction() {
    let field = LockIsolated(0)
    let optional = LockIsolated(0)
    let presented = LockIsolated(0)
    let store = Store(initialState: Pair.State()) {
      Pair(fieldBuilds: field, optionalBuilds: optional, presentedBuilds: presented)
    }
    #expect(field.value == 1)
    #expect(optional.value == 0)
    #expect(presented.value == 0)
    store.send(.field(.tapped))
    store.send(.field(.tapped))
    #expect(store.field.count == 2)
    #expect(field.value == 1)
    #expect(optional.value == 0)
    store.send(.optional(.tapped))
    store.send(.optional(.tapped))
    #expect(store.optional?.count == 2)
    #expect(optional.value == 1)
    #expect(presented.value == 0)
    store.send(.sheet(.presented(.tapped)))
    #expect(store.sheet?.count == 1)
    #expect(presented.value == 1)
    #expect(field.value == 1)
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
    await store.receive(\.child.fetched) { $0.child?.number = 7 }
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
    @ObservableState
    struct State: Equatable {
      var field = Counted.State()
      var optional: Counted.State? = Counted.State()
      @Presents var sheet: Counted.State? = Counted.State()
    }
    enum Action {
      case field(Counted.Action)
      case optional(Counted.Action)
      case sheet(PresentationAction<Counted.Action>)
    }
    let fieldBuilds: LockIsolated<Int>
    let optionalBuilds: LockIsolated<Int>
    let presentedBuilds: LockIsolated<Int>

    var body: some ReducerOf<Self> {
      Scope(state: \.field, action: \.field) { Counted(builds: fieldBuilds) }
      EmptyReducer()
        .ifLet(\.optional, action: \.optional) { Counted(builds: optionalBuilds) }
        .ifLet(\.$sheet, action: \.sheet) { Counted(builds: presentedBuilds) }
    }
  }

  @Reducer
  struct ParentOfCapturing {
    struct State: Equatable { var child: CapturesInBody.State? = CapturesInBody.State() }
    enum Action {
      case child(CapturesInBody.Action)
      case start
    }
    var body: some ReducerOf<Self> {
      Reduce { _, action in
        guard case .start = action else { return .none }
        return .run { send in await send(.child(.fetch)) }
      }
      .ifLet(\.child, action: \.child) { CapturesInBody() }
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
