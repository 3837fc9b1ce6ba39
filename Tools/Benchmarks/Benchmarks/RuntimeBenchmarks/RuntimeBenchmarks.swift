import Benchmark
import ComposableArchitecture

// Each measured operation comes with a baseline measured in the same run; the ratio between the
// two is the figure that matters (`Tools/runtime-benchmark` prints it). Every benchmark builds its
// store first and measures only the loop, on the main actor, where `Store` lives.
//
// Names are `<Group>.<Case>`; the baseline of a group ends in `Baseline`.

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal],
    timeUnits: .nanoseconds,
    warmupIterations: 3,
    scalingFactor: .kilo,
    maxDuration: .seconds(2),
    maxIterations: 1_000
  )

  // MARK: Store.send vs calling the reducer

  mainActorBenchmark("Send.StoreSend") { benchmark in
    let store = Store(initialState: Counter.State()) { Counter() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.incrementButtonTapped)
    }
    benchmark.stopMeasurement()
    blackHole(store.count)
  }

  mainActorBenchmark("Send.ReducerBaseline") { benchmark in
    let reducer = Counter()
    var state = Counter.State()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      blackHole(reducer.reduce(into: &state, action: .incrementButtonTapped))
    }
    benchmark.stopMeasurement()
    blackHole(state.count)
  }

  // MARK: A store scoped ten levels deep vs the root store, same reducer tree

  mainActorBenchmark("Scope.Scoped10Send") { benchmark in
    let root = Store(initialState: Deep10.State()) { Deep10() }
    let store = root.scopedTenLevels()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(.incrementButtonTapped)
    }
    benchmark.stopMeasurement()
    blackHole(store.count)
  }

  mainActorBenchmark("Scope.RootSendBaseline") { benchmark in
    let store = Store(initialState: Deep10.State()) { Deep10() }
    let action = deep10IncrementAction()
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      store.send(action)
    }
    benchmark.stopMeasurement()
    blackHole(store.state)
  }

  // MARK: forEach element action, 10,000 elements vs 10

  for count in [10_000, 10] {
    let name = count == 10 ? "ForEach.Elements10Baseline" : "ForEach.Elements\(count)"
    mainActorBenchmark(name) { benchmark in
      let store = Store(initialState: CounterList.State(count: count)) { CounterList() }
      let action = CounterList.Action.counters(
        .element(id: count / 2, action: .incrementButtonTapped))
      benchmark.startMeasurement()
      for _ in benchmark.scaledIterations {
        store.send(action)
      }
      benchmark.stopMeasurement()
      blackHole(store.counters[id: count / 2]?.count)
    }
  }

  // MARK: .run + .cancellable round trip vs a bare Task

  mainActorBenchmark("Effect.RunCancellableRoundTrip") { benchmark in
    let store = Store(initialState: RoundTrip.State()) { RoundTrip() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      await store.send(.startButtonTapped).finish()
    }
    benchmark.stopMeasurement()
    precondition(store.count == benchmark.scaledIterations.count, "an effect did not send back")
  }

  mainActorBenchmark("Effect.BareTaskBaseline") { benchmark in
    benchmark.startMeasurement()
    for index in benchmark.scaledIterations {
      await Task.detached { blackHole(index) }.value
    }
    benchmark.stopMeasurement()
  }

  // MARK: TestStore send + receive

  mainActorBenchmark("TestStore.SendReceive") { benchmark in
    let store = TestStore(initialState: RoundTrip.State()) { RoundTrip() }
    benchmark.startMeasurement()
    for _ in benchmark.scaledIterations {
      await store.send(.startButtonTapped)
      await store.receive(.effectFinished) { $0.count += 1 }
    }
    benchmark.stopMeasurement()
  }
}

/// Registers a benchmark whose body runs on the main actor.
///
/// The harness calls async benchmarks on its own task; the body hops to the main actor once per
/// sample, outside the measured region (it starts and stops the measurement itself).
func mainActorBenchmark(
  _ name: String,
  body: @escaping @Sendable @MainActor (_ benchmark: Benchmark) async -> Void
) {
  let body = MainActorBody(body: body)
  Benchmark(name) { benchmark in
    await body.run(MainActorBenchmark(benchmark: benchmark))
  }
}

/// A `Benchmark` handed to the main actor.
///
/// `Benchmark` is a class the harness does not mark `Sendable`. Handing it over is safe: the
/// harness runs one benchmark closure at a time and waits for it to return, so while the
/// main-actor body runs nothing else touches the object.
struct MainActorBenchmark: @unchecked Sendable {
  let benchmark: Benchmark
}

/// A main-actor benchmark body, callable from the harness's task.
struct MainActorBody: Sendable {
  let body: @Sendable @MainActor (_ benchmark: Benchmark) async -> Void

  @MainActor
  func run(_ handle: MainActorBenchmark) async {
    await body(handle.benchmark)
  }
}
