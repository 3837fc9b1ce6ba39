import ComposableArchitecture
import ComposableRecording
import Foundation
import RuntimeBenchmarkSupport

/// What one run of a case measured: its loop only, never its set-up.
struct Sample {
  var iterations: Int
  var nanoseconds: UInt64
  var mallocs: UInt

  var nanosecondsPerOperation: Double { Double(nanoseconds) / Double(iterations) }
  var mallocsPerOperation: Double { Double(mallocs) / Double(iterations) }
}

/// A measured operation: sets itself up, runs its loop `iterations` times and checks that the
/// loop did what it should (a benchmark that silently measures nothing is worse than none).
struct BenchmarkCase: Sendable {
  let name: String
  /// What one operation is, for the table.
  let summary: String
  /// How many operations a round of timing runs: enough for a few milliseconds.
  let iterationsPerRound: Int
  let run: @MainActor @Sendable (_ iterations: Int) async throws -> Sample
}

/// A failed self-check: the loop did not do what the case says it measures.
struct CheckFailure: Error, CustomStringConvertible {
  let description: String
}

func check(_ condition: Bool, _ message: @autoclosure () -> String) throws {
  guard condition else { throw CheckFailure(description: message()) }
}

/// Hands a value to a C function the optimizer cannot see into, so a loop cannot be folded away.
@inline(__always)
func blackHole<T>(_ value: T) {
  withUnsafePointer(to: value) { benchmark_sink($0) }
}

/// Measures a synchronous loop.
@inline(__always)
func measure(_ iterations: Int, _ body: () -> Void) -> Sample {
  let mallocs = malloc_counter_total()
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<iterations { body() }
  let end = DispatchTime.now().uptimeNanoseconds
  return Sample(
    iterations: iterations, nanoseconds: end - start, mallocs: malloc_counter_total() - mallocs)
}

/// Measures an asynchronous loop on the main actor.
@MainActor
func measureAsync(_ iterations: Int, _ body: @MainActor () async -> Void) async -> Sample {
  let mallocs = malloc_counter_total()
  let start = DispatchTime.now().uptimeNanoseconds
  for _ in 0..<iterations { await body() }
  let end = DispatchTime.now().uptimeNanoseconds
  return Sample(
    iterations: iterations, nanoseconds: end - start, mallocs: malloc_counter_total() - mallocs)
}

/// Every case, baselines included. `Tools/runtime-benchmark` pairs them into targets.
@MainActor
let allCases: [BenchmarkCase] = [
  // MARK: Store.send vs calling the reducer

  BenchmarkCase(
    name: "send.direct-reduce", summary: "Counter().reduce(into:action:) called directly",
    iterationsPerRound: 200_000
  ) { iterations in
    let reducer = Counter()
    var state = Counter.State()
    let sample = measure(iterations) {
      blackHole(reducer.reduce(into: &state, action: .incrementButtonTapped))
      blackHole(state)
    }
    try check(state.count == iterations, "the reducer ran \(state.count) times")
    return sample
  },
  BenchmarkCase(
    name: "send.store", summary: "Store.send of a mutation returning .none",
    iterationsPerRound: 50_000
  ) { iterations in
    let store = Store(initialState: Counter.State()) { Counter() }
    let sample = measure(iterations) { store.send(.incrementButtonTapped) }
    try check(store.count == iterations, "the store counted \(store.count)")
    return sample
  },

  // MARK: Recording a session

  BenchmarkCase(
    name: "send.store-dependencies",
    summary: "Store.send of a mutation returning .none, a store with a dependency overridden",
    iterationsPerRound: 50_000
  ) { iterations in
    let store = Store(initialState: Counter.State()) {
      Counter()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let sample = measure(iterations) { store.send(.incrementButtonTapped) }
    try check(store.count == iterations, "the store counted \(store.count)")
    return sample
  },

  BenchmarkCase(
    name: "record.on", summary: "Store.send of a mutation returning .none, while recording",
    iterationsPerRound: 50_000
  ) { iterations in
    let store = Store(initialState: Counter.State()) { Counter() }
    let recording = store.startRecording(limit: iterations)
    let sample = measure(iterations) { store.send(.incrementButtonTapped) }
    try check(store.count == iterations, "the store counted \(store.count)")
    try check(
      recording.steps.count == iterations && recording.steps.last?.state.count == iterations,
      "the recording kept \(recording.steps.count) steps")
    return sample
  },
  BenchmarkCase(
    name: "record.stopped",
    summary: "Store.send of a mutation returning .none, after recording stopped",
    iterationsPerRound: 50_000
  ) { iterations in
    let store = Store(initialState: Counter.State()) { Counter() }
    let recording = store.startRecording()
    store.send(.incrementButtonTapped)
    store.stopRecording()
    let sample = measure(iterations) { store.send(.incrementButtonTapped) }
    try check(store.count == iterations + 1, "the store counted \(store.count)")
    try check(recording.steps.count == 1, "the stopped recording kept \(recording.steps.count)")
    return sample
  },

  // MARK: Scope chains

  BenchmarkCase(
    name: "scope.nested-mutation", summary: "hand-written mutation 10 levels down",
    iterationsPerRound: 200_000
  ) { iterations in
    var state = Level10.State()
    let sample = measure(iterations) {
      state.child.child.child.child.child.child.child.child.child.child.count += 1
      blackHole(state.child.child.child.child.child.child.child.child.child.child.count)
    }
    try check(
      state.child.child.child.child.child.child.child.child.child.child.count == iterations,
      "the nested mutation ran a wrong number of times")
    return sample
  },
  BenchmarkCase(
    name: "scope.root-1", summary: "root send through 1 Scope", iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: Level1.State()) { Level1() }
    let sample = measure(iterations) { store.send(.child(.incrementButtonTapped)) }
    try check(store.child.count == iterations, "the counter counted \(store.child.count)")
    return sample
  },
  BenchmarkCase(
    name: "scope.root-5", summary: "root send through 5 Scopes", iterationsPerRound: 10_000
  ) { iterations in
    let store = Store(initialState: Level5.State()) { Level5() }
    let action = Level5.Action.child(.child(.child(.child(.child(.incrementButtonTapped)))))
    let sample = measure(iterations) { store.send(action) }
    try check(
      store.child.child.child.child.child.count == iterations, "the counter counted wrong")
    return sample
  },
  BenchmarkCase(
    name: "scope.root-10", summary: "root send through 10 Scopes", iterationsPerRound: 5_000
  ) { iterations in
    let store = Store(initialState: Level10.State()) { Level10() }
    let action = deep10IncrementAction()
    let sample = measure(iterations) { store.send(action) }
    try check(deep10Count(store.state) == iterations, "the counter counted wrong")
    return sample
  },
  BenchmarkCase(
    name: "scope.new-store-10", summary: "a new store of 10 Scopes, no send",
    iterationsPerRound: 2_000
  ) { iterations in
    var stores: [StoreOf<Level10>] = []
    stores.reserveCapacity(iterations)
    let sample = measure(iterations) {
      stores.append(Store(initialState: Level10.State()) { Level10() })
    }
    try check(stores.count == iterations, "made \(stores.count) stores")
    return sample
  },
  BenchmarkCase(
    name: "scope.first-send-10",
    summary: "a new store of 10 Scopes and its first root send through all of them",
    iterationsPerRound: 2_000
  ) { iterations in
    var stores: [StoreOf<Level10>] = []
    stores.reserveCapacity(iterations)
    let action = deep10IncrementAction()
    let sample = measure(iterations) {
      let store = Store(initialState: Level10.State()) { Level10() }
      store.send(action)
      stores.append(store)
    }
    try check(
      stores.allSatisfy { deep10Count($0.state) == 1 }, "a first send did not reach the counter")
    return sample
  },
  BenchmarkCase(
    name: "scope.scoped-store-10", summary: "send to a store scoped 10 levels down",
    iterationsPerRound: 5_000
  ) { iterations in
    let root = Store(initialState: Level10.State()) { Level10() }
    let store = root.scopedTenLevels()
    let sample = measure(iterations) { store.send(.incrementButtonTapped) }
    try check(store.count == iterations, "the scoped store counted \(store.count)")
    return sample
  },

  // MARK: One level of each operator over a counter

  BenchmarkCase(
    name: "level.scope", summary: "send through one Scope over Counter", iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: ScopedCounter.State()) { ScopedCounter() }
    let sample = measure(iterations) { store.send(.child(.incrementButtonTapped)) }
    try check(store.child.count == iterations, "the counter counted \(store.child.count)")
    return sample
  },
  BenchmarkCase(
    name: "level.ifLet", summary: "send through one ifLet over Counter", iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: OptionalCounter.State()) { OptionalCounter() }
    let sample = measure(iterations) { store.send(.child(.incrementButtonTapped)) }
    try check(store.child?.count == iterations, "the counter counted wrong")
    return sample
  },
  BenchmarkCase(
    name: "level.ifCaseLet", summary: "send through one ifCaseLet over Counter",
    iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: CaseCounter.State.counter(Counter.State())) { CaseCounter() }
    let sample = measure(iterations) { store.send(.counter(.incrementButtonTapped)) }
    guard case .counter(let counter) = store.state else { throw CheckFailure(description: "case") }
    try check(counter.count == iterations, "the counter counted \(counter.count)")
    return sample
  },
  BenchmarkCase(
    name: "level.forEach", summary: "send through one forEach (10 elements) over Counter",
    iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: CounterList.State(count: 10)) { CounterList() }
    let action = CounterList.Action.counters(.element(id: 5, action: .incrementButtonTapped))
    let sample = measure(iterations) { store.send(action) }
    try check(store.counters[id: 5]?.count == iterations, "the element counted wrong")
    return sample
  },

  // MARK: forEach over 10 and 10,000 elements

  BenchmarkCase(
    name: "forEach.id-mutation-10", summary: "state.counters[id:]?.count += 1, 10 elements",
    iterationsPerRound: 200_000
  ) { iterations in
    try idMutation(elements: 10, iterations: iterations)
  },
  BenchmarkCase(
    name: "forEach.id-mutation-10000", summary: "state.counters[id:]?.count += 1, 10,000 elements",
    iterationsPerRound: 200_000
  ) { iterations in
    try idMutation(elements: 10_000, iterations: iterations)
  },
  BenchmarkCase(
    name: "forEach.element-10", summary: "forEach element action, 10 elements",
    iterationsPerRound: 20_000
  ) { iterations in
    try elementAction(elements: 10, iterations: iterations)
  },
  BenchmarkCase(
    name: "forEach.element-10000", summary: "forEach element action, 10,000 elements",
    iterationsPerRound: 20_000
  ) { iterations in
    try elementAction(elements: 10_000, iterations: iterations)
  },

  // MARK: Effects

  BenchmarkCase(
    name: "effect.task-hop", summary: "a task hops off the main actor and back, awaited",
    iterationsPerRound: 2_000
  ) { iterations in
    let tally = Tally()
    let sample = await measureAsync(iterations) {
      await Task.detached {
        await MainActor.run { tally.count += 1 }
      }.value
    }
    try check(tally.count == iterations, "the task ran \(tally.count) times")
    return sample
  },
  BenchmarkCase(
    name: "effect.run", summary: ".run { await send(.x) } round trip, finish() awaited",
    iterationsPerRound: 2_000
  ) { iterations in
    let store = Store(initialState: PlainRoundTrip.State()) { PlainRoundTrip() }
    let sample = await measureAsync(iterations) {
      await store.send(.startButtonTapped).finish()
    }
    try check(store.count == iterations, "the effect sent back \(store.count) times")
    return sample
  },
  BenchmarkCase(
    name: "effect.run-dependencies",
    summary: ".run { await send(.x) } round trip, a store with a dependency overridden",
    iterationsPerRound: 2_000
  ) { iterations in
    let store = Store(initialState: PlainRoundTrip.State()) {
      PlainRoundTrip()
    } withDependencies: {
      $0.uuid = .incrementing
    }
    let sample = await measureAsync(iterations) {
      await store.send(.startButtonTapped).finish()
    }
    try check(store.count == iterations, "the effect sent back \(store.count) times")
    return sample
  },
  BenchmarkCase(
    name: "effect.run-cancellable",
    summary: ".run + .cancellable(id:cancelInFlight:) round trip, finish() awaited",
    iterationsPerRound: 2_000
  ) { iterations in
    let store = Store(initialState: RoundTrip.State()) { RoundTrip() }
    let sample = await measureAsync(iterations) {
      await store.send(.startButtonTapped).finish()
    }
    try check(store.count == iterations, "the effect sent back \(store.count) times")
    return sample
  },

  // MARK: TestStore

  BenchmarkCase(
    name: "testStore.step", summary: "TestStore send + receive of the cancellable round trip",
    iterationsPerRound: 500
  ) { iterations in
    let store = TestStore(initialState: RoundTrip.State()) { RoundTrip() }
    let sample = await measureAsync(iterations) {
      await store.send(.startButtonTapped)
      await store.receive(.effectFinished) { $0.count += 1 }
    }
    try check(store.state.count == iterations, "the test store counted \(store.state.count)")
    return sample
  },

  // MARK: Observation

  BenchmarkCase(
    name: "observe.none", summary: "send to one of two counters, nobody observing",
    iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: Pair.State()) { Pair() }
    let sample = measure(iterations) { store.send(.left(.incrementButtonTapped)) }
    try check(store.left.count == iterations, "the counter counted \(store.left.count)")
    return sample
  },
  BenchmarkCase(
    name: "observe.changed", summary: "the same send, one observer of the changed count",
    iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: Pair.State()) { Pair() }
    var seen = 0
    let observation = store.observe(\.left.count) { seen = $0 }
    let sample = measure(iterations) { store.send(.left(.incrementButtonTapped)) }
    withExtendedLifetime(observation) {}
    try check(seen == iterations, "the observer saw \(seen), expected \(iterations)")
    return sample
  },
  BenchmarkCase(
    name: "observe.unrelated", summary: "the same send, one observer of the other count",
    iterationsPerRound: 20_000
  ) { iterations in
    let store = Store(initialState: Pair.State()) { Pair() }
    var calls = 0
    let observation = store.observe(\.right.count) { _ in calls += 1 }
    let sample = measure(iterations) { store.send(.left(.incrementButtonTapped)) }
    withExtendedLifetime(observation) {}
    try check(calls == 0, "the observer of an unchanged value was called \(calls) times")
    return sample
  },
]

/// A count kept on the main actor, for work that hops back to it.
@MainActor
private final class Tally {
  var count = 0
}

@MainActor
private func idMutation(elements: Int, iterations: Int) throws -> Sample {
  var state = CounterList.State(count: elements)
  let id = elements / 2
  let sample = measure(iterations) {
    state.counters[id: id]?.count += 1
    blackHole(state.counters[id: id]?.count)
  }
  try check(state.counters[id: id]?.count == iterations, "the mutation ran a wrong number of times")
  return sample
}

@MainActor
private func elementAction(elements: Int, iterations: Int) throws -> Sample {
  let store = Store(initialState: CounterList.State(count: elements)) { CounterList() }
  let id = elements / 2
  let action = CounterList.Action.counters(.element(id: id, action: .incrementButtonTapped))
  let sample = measure(iterations) { store.send(action) }
  try check(store.counters[id: id]?.count == iterations, "the element counted wrong")
  return sample
}

private func deep10Count(_ state: Level10.State) -> Int {
  state.child.child.child.child.child.child.child.child.child.child.count
}
