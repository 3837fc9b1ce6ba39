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

  @Reducer
  struct Counted {
    struct State: Equatable { var count = 0 }
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
