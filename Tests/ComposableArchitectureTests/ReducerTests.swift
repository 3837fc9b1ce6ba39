import ComposableArchitecture
import Foundation
import Testing

@MainActor
struct ReducerTests {
  @Test func builderRunsReducersInOrderOnTheSameState() {
    let store = Store(initialState: 1) {
      Reduce<Int, Void> { state, _ in
        state *= 10
        return .none
      }
      Reduce<Int, Void> { state, _ in
        state += 1
        return .none
      }
    }
    store.send(())
    #expect(store.state == 11)
  }

  @Test func builderMergesEffectsSoTheyRunConcurrently() async {
    let clock = TestClock()
    let store = TestStore(initialState: [String]()) {
      CombineReducers {
        Reduce<[String], String> { state, action in
          if action != "start" { state.append(action) }
          guard action == "start" else { return .none }
          return .run { send in
            try await clock.sleep(for: .seconds(2))
            await send("slow")
          }
        }
        Reduce<[String], String> { _, action in
          guard action == "start" else { return .none }
          return .run { send in
            try await clock.sleep(for: .seconds(1))
            await send("fast")
          }
        }
      }
    }
    await store.send("start")
    await clock.advance(by: .seconds(1))
    await store.receive("fast") { $0 = ["fast"] }
    await clock.advance(by: .seconds(1))
    await store.receive("slow") { $0 = ["fast", "slow"] }
  }

  @Test func conditionalsAndLoopsInTheBuilder() {
    struct Feature: Reducer {
      let includeDoubling: Bool
      let increments: Int
      var body: some Reducer<Int, Void> {
        if includeDoubling {
          Reduce { state, _ in
            state *= 2
            return .none
          }
        } else {
          EmptyReducer()
        }
        for _ in 0..<increments {
          Reduce { state, _ in
            state += 1
            return .none
          }
        }
      }
    }
    let doubling = Store(initialState: 5) { Feature(includeDoubling: true, increments: 3) }
    doubling.send(())
    #expect(doubling.state == 13)
    let plain = Store(initialState: 5) { Feature(includeDoubling: false, increments: 0) }
    plain.send(())
    #expect(plain.state == 5)
  }

  @Test func combineReducersAppliesAModifierToTheGroup() {
    let store = Store(initialState: Pair()) {
      CombineReducers {
        Reduce<Pair, Bool> { state, flag in
          if flag { state.value += 1 }
          return .none
        }
      }
      .onChange(of: \.value) { oldValue, state in
        state.changes.append("\(oldValue)→\(state.value)")
        return .none
      }
    }
    store.send(false)
    store.send(true)
    store.send(true)
    #expect(store.changes == ["0→1", "1→2"])
  }

  @Test func onChangeWithReducerReceivesOldAndNewValues() {
    let store = Store(initialState: Pair()) {
      Reduce<Pair, Bool> { state, flag in
        if flag { state.value += 10 }
        return .none
      }
      .onChange(of: \.value) { oldValue, newValue in
        Reduce { state, _ in
          state.changes.append("\(oldValue)→\(newValue)")
          return .none
        }
      }
    }
    store.send(true)
    store.send(false)
    #expect(store.changes == ["0→10"])
  }

  @Test func dependencyOverridesReachTheReducerAndItsEffects() async {
    struct Reader: Reducer {
      @Dependency(\.date.now) var now
      var body: some Reducer<[Double], String> {
        Reduce { state, action in
          switch action {
          case "read":
            state.append(now.timeIntervalSince1970)
            return .run { send in
              @Dependency(\.date.now) var now
              await send("effect \(now.timeIntervalSince1970)")
            }
          default:
            state.append(Double(action.split(separator: " ")[1])!)
            return .none
          }
        }
      }
    }
    let store = TestStore(initialState: [Double]()) {
      Reader()
        .dependency(\.date, .constant(Date(timeIntervalSince1970: 42)))
        .dependency(\.date, .constant(Date(timeIntervalSince1970: 7)))
    }
    await store.send("read") { $0 = [42] }
    await store.receive("effect 42.0") { $0 = [42, 42] }
  }

  @Test func chainedTransformsFuseAndTheOneClosestToTheReducerWins() async {
    struct Reader: Reducer {
      @Dependency(\.date.now) var now
      var body: some Reducer<[Double], Void> {
        Reduce { state, _ in
          state.append(now.timeIntervalSince1970)
          return .none
        }
      }
    }
    // One wrapper, not one per call: the type says so.
    let fused: _DependencyKeyWritingReducer<Reader> = Reader()
      .transformDependency(\.date) { $0 = .constant(Date(timeIntervalSince1970: 42)) }
      .transformDependency(\.date) { $0 = .constant(Date(timeIntervalSince1970: 7)) }
      .dependency(\.date, .constant(Date(timeIntervalSince1970: 1)))
    let store = TestStore(initialState: [Double]()) { fused }
    await store.send(()) { $0 = [42] }
  }

  /// An effect's answer is reduced with the store's own dependencies — also when the effect came
  /// from a reducer that ran under others (`.dependency`), whose task has those current.
  @Test func anEffectsAnswerIsReducedWithTheStoresDependencies() async {
    struct Feature: Reducer {
      var body: some Reducer<[String], String> {
        Reduce { state, action in
          @Dependency(\.date.now) var now
          if action.hasPrefix("answer") {
            state.append("\(action), reduced at \(Int(now.timeIntervalSince1970))")
          }
          guard action == "plain" else { return .none }
          return .run { send in
            @Dependency(\.date.now) var now
            await send("answer from \(Int(now.timeIntervalSince1970))")
          }
        }
        Reduce { _, action in
          guard action == "overridden" else { return .none }
          return .run { send in
            @Dependency(\.date.now) var now
            await send("answer from \(Int(now.timeIntervalSince1970))")
          }
        }
        .dependency(\.date, .constant(Date(timeIntervalSince1970: 5)))
      }
    }
    let store = Store(initialState: [String]()) {
      Feature()
    } withDependencies: {
      $0.date = .constant(Date(timeIntervalSince1970: 100))
    }
    await store.send("plain").finish()
    await store.send("overridden").finish()
    #expect(store.state == ["answer from 100, reduced at 100", "answer from 5, reduced at 100"])
  }

  @Test func printChangesReportsEachActionAndDiff() {
    let printed = LockIsolated<[String]>([])
    let printer = _ReducerPrinter<Pair, Bool> { action, old, new in
      printed.withValue { $0.append("\(action): \(old.value)→\(new.value)") }
    }
    let store = Store(initialState: Pair()) {
      Reduce<Pair, Bool> { state, flag in
        if flag { state.value += 1 }
        return .none
      }
      ._printChanges(printer)
    }
    store.send(true)
    store.send(false)
    #expect(printed.value == ["true: 0→1", "false: 1→1"])
  }
}

struct Pair: Equatable, Sendable {
  var value = 0
  var changes: [String] = []
}
