import ComposableArchitecture
import ComposableRecording
import Foundation
import Testing

/// Each tap fetches a value, a newer fetch cancelling the one in flight (as the counter's random
/// number does). When `firstWaitsForSecond` is set, the effect of a first tap calls the client
/// only after the second tap's effect has called it — the timing of an app, not its logic.
@Reducer
struct Refetcher {
  @ObservableState
  struct State: Equatable {
    var value = ""
  }

  @CasePathable
  enum Action: Equatable {
    case tapped(first: Bool)
    case fetched(String)
  }

  var firstWaitsForSecond = false
  /// Set once the second tap's effect has called the client.
  let secondCalled = LockIsolated(false)
  @Dependency(\.loadClient) var client
  private enum CancelID { case fetch }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .tapped(let first):
        return .run { [client, firstWaitsForSecond, secondCalled] send in
          if first, firstWaitsForSecond {
            // Not cancellable: the cancelled effect still calls, as a client that ignores
            // cancellation does.
            while !secondCalled.value { await Task.yield() }
          }
          let value = (try? await client.load(first ? "first" : "second")) ?? "failed"
          if !first { secondCalled.setValue(true) }
          await send(.fetched(value))
        }
        .cancellable(id: CancelID.fetch, cancelInFlight: true)
      case .fetched(let value):
        state.value = value
        return .none
      }
    }
  }

  /// Every fetch is one endpoint, `loadClient.fetch`, whatever it asks for.
  static let recorded = RecordedFeature<State, Action>(
    name: "Refetcher", initialStateExpression: "Refetcher.State()", baseline: { State() },
    recordClients: { values, tape in
      let base = values.loadClient
      values.loadClient = LoadClient { name in
        try await tape.record("loadClient.fetch") { try await base.load(name) }
      }
    },
    testImports: { _ in [] })
}

@MainActor
@Suite struct ReplayEffectAnswerTests {
  /// Two taps in one turn: the first tap's effect is cancelled before it runs, yet calls the
  /// client — in the session after the second tap's effect did — and its answer is dropped.
  func sessionWhereTheSecondEffectCalledFirst() async throws -> SessionRecord {
    let calls = LockIsolated(0)
    let store = Store(initialState: Refetcher.State()) {
      Refetcher(firstWaitsForSecond: true)
    } withDependencies: {
      $0.loadClient = LoadClient { _ in
        calls.withValue { $0 += 1 }
        return "answer \(calls.value)"
      }
    }
    let recording = store.startRecording(dependencies: Refetcher.recorded.recordClients)
    store.send(.tapped(first: true))
    await store.send(.tapped(first: false)).finish()
    while calls.value < 2 { await Task.yield() }
    store.stopRecording()
    return try RecordFile.read(RecordFile.write(Refetcher.recorded.record(recording)))
  }

  @Test func effectsAreNumberedAsTheyStartAndTheRecordSaysSo() async throws {
    let record = try await sessionWhereTheSecondEffectCalledFirst()
    #expect(record.effectsNumberedAtStart)
    #expect(record.steps.count == 3)
    // The second tap's effect (started second: 2) made the first call and sent the value.
    #expect(record.answers.map(\.effect) == [2, 1])
    #expect(record.steps.last?.effect == 2)
    #expect(
      record.steps.last?.action == RecordedValue(reflecting: Refetcher.Action.fetched("answer 1")))
  }

  /// Replayed with effects that call in the order they start — the first tap's effect first,
  /// as tasks usually run — each effect still gets the answer it got in the session. Given out
  /// in call order, the second effect would get the cancelled one's answer ("answer 2") and send
  /// it: a divergence at the last step.
  @Test(arguments: 0..<20)
  func eachEffectGetsTheAnswersItGotWhateverOrderTheyCallIn(_ round: Int) async throws {
    let record = try await sessionWhereTheSecondEffectCalledFirst()
    let report = await SessionReplay.replay(
      record, of: Refetcher.recorded, reducer: Refetcher(firstWaitsForSecond: false))
    #expect(report.divergence == nil, "round \(round): \(report)")
    #expect(report.reproduced == 3)
  }

  /// A record from before effects were numbered at start has no `effects` in its header; its
  /// answers are given in call order, as then.
  @Test func aRecordWithoutTheHeaderIsReplayedInCallOrder() throws {
    let text = RecordFile.write(
      SessionRecord(
        feature: "Refetcher", initialStateExpression: nil, baseline: nil,
        initialState: RecordedValue(reflecting: Refetcher.State()), steps: [], answers: [],
        isFull: false, effectsInFlight: 0))
    #expect(!text.contains("\"effects\""))
    #expect(try RecordFile.read(text).effectsNumberedAtStart == false)
    let damaged = text.replacingOccurrences(
      of: "\"feature\":\"Refetcher\"", with: "\"feature\":\"Refetcher\",\"effects\":\"later\"")
    #expect(throws: RecordFileError.self) { try RecordFile.read(damaged) }
  }
}
