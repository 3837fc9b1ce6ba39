import ComposableArchitecture
import ComposableRecording
import Foundation
import SessionTestWriter
import Testing

/// A client that loads a value by name; recorded as one endpoint per name (`loadClient.a`), so
/// that a replay gives each load its own answer whichever effect calls first.
struct LoadClient: Sendable {
  var load: @Sendable (String) async throws -> String
}

extension LoadClient: TestDependencyKey {
  static let testValue = LoadClient { name in name }
}

extension DependencyValues {
  var loadClient: LoadClient {
    get { self[LoadClient.self] }
    set { self[LoadClient.self] = newValue }
  }

  /// Wraps the load client so that a recording keeps each load as `loadClient.<name>`.
  static func recordLoads(_ values: inout DependencyValues, into tape: DependencyTape) {
    let base = values.loadClient
    values.loadClient = LoadClient { name in
      try await tape.record("loadClient.\(name)", arguments: [name]) { try await base.load(name) }
    }
  }
}

/// One action starts two loads at once; each answer is appended when it comes. `delayBeforeA`
/// slows down only the first load's effect after its answer (in real time, not on the store's
/// clock) — the timing of an app, not its logic.
@Reducer
struct TwoLoads {
  @ObservableState
  struct State: Equatable {
    var arrivals: [String] = []
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case loaded(String)
  }

  var delayBeforeA = Duration.zero
  @Dependency(\.loadClient) var client

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .merge(
          .run { [client, delayBeforeA] send in
            let value = try await client.load("a")
            if delayBeforeA > .zero { try await Task.sleep(for: delayBeforeA) }
            await send(.loaded(value))
          },
          .run { [client] send in
            await send(.loaded(try await client.load("b")))
          })
      case .loaded(let name):
        state.arrivals.append(name)
        return .none
      }
    }
  }

  static let recorded = RecordedFeature<State, Action>(
    name: "TwoLoads", initialStateExpression: "TwoLoads.State()", baseline: { State() },
    recordClients: DependencyValues.recordLoads,
    testImports: { _ in [] })
}

@MainActor
@Suite struct ReplayOrderTests {
  /// A session in which `a` arrived before `b`, while both answers were back before either
  /// arrival was reduced — as when two effects answer at the same moment.
  func sessionWhereBothAnswersCameBackTogether() async throws -> SessionRecord {
    // Recorded live, `b` answers only after `a` arrived, so that the order is certain …
    let aArrived = AsyncStream<Void>.makeStream()
    let store = Store(initialState: TwoLoads.State()) {
      TwoLoads()
    } withDependencies: {
      $0.loadClient = LoadClient { name in
        if name == "b" { for await _ in aArrived.stream { break } }
        return name
      }
    }
    let recording = store.startRecording(dependencies: TwoLoads.recorded.recordClients)
    let observation = store.observe(\.arrivals) { arrivals in
      if arrivals == ["a"] { aArrived.continuation.yield() }
    }
    await store.send(.start).finish()
    observation.cancel()
    store.stopRecording()
    var record = TwoLoads.recorded.record(recording)
    #expect(record.steps.count == 3)
    // … then marked as having come back before the first arrival, which a session may show.
    let b = try #require(record.answers.firstIndex { $0.arguments == [.string("b")] })
    #expect(record.answers[b].afterStep == 2)
    record.answers[b].afterStep = 1
    return record
  }

  @Test func effectsThatAnswerTogetherAreReducedInTheRecordedOrder() async throws {
    let record = try await sessionWhereBothAnswersCameBackTogether()
    // `a`'s effect now takes longer to send: without ordering, `b` would be reduced first.
    let report = await SessionReplay.replay(
      record, of: TwoLoads.recorded, reducer: TwoLoads(delayBeforeA: .milliseconds(50)))
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 3)
  }

  @Test func anEffectActionOutOfTurnThatNeverGetsOneIsNamed() async throws {
    var record = try await sessionWhereBothAnswersCameBackTogether()
    // The record now has `a` twice: the app's `b` is held, and named when `a` does not come.
    record.steps[2].action = record.steps[1].action
    let report = await SessionReplay.replay(
      record, of: TwoLoads.recorded, reducer: TwoLoads(), timeout: .milliseconds(300))
    let divergence = try #require(report.divergence)
    #expect(divergence.step == 3)
    #expect(divergence.message.hasPrefix("the app no longer sends the recorded effect action\n"))
    #expect(divergence.message.contains("it sends this one instead:"))
    #expect(divergence.message.contains(#""b""#))
  }

  /// A call made first that comes back last — a slow save, a search the next keystroke made
  /// stale — must not hold the answers of later calls back in the record: each answer is
  /// written before the step its effect's action was reduced in, and the record replays.
  @Test func anAnswerThatCameBackLateDoesNotHoldUpTheAnswersOfLaterCalls() async throws {
    let bArrived = AsyncStream<Void>.makeStream()
    let store = Store(initialState: TwoLoads.State()) {
      TwoLoads()
    } withDependencies: {
      $0.loadClient = LoadClient { name in
        // `a` is called first and answers only once `b`'s answer was reduced.
        if name == "a" { for await _ in bArrived.stream { break } }
        return name
      }
    }
    let recording = store.startRecording(dependencies: TwoLoads.recorded.recordClients)
    let observation = store.observe(\.arrivals) { arrivals in
      if arrivals == ["b"] { bArrived.continuation.yield() }
    }
    await store.send(.start).finish()
    observation.cancel()
    store.stopRecording()
    let text = RecordFile.write(TwoLoads.recorded.record(recording))
    // In the file: `b`'s answer (call 1) before the step that reduced it, then that step, then
    // `a`'s answer (call 0) before its own step.
    let lines = text.split(separator: "\n").map(String.init)
    func index(_ fragment: String) throws -> Int {
      try #require(lines.firstIndex { $0.contains(fragment) }, "\(fragment) in\n\(text)")
    }
    let answerB = try index(#""answer":"loadClient.b","call":1"#)
    let stepB = try index(#""step":2"#)
    let answerA = try index(#""answer":"loadClient.a","call":0"#)
    let stepA = try index(#""step":3"#)
    #expect(answerB < stepB && stepB < answerA && answerA < stepA, "\(text)")
    #expect(lines[stepB].contains(#""b""#) && lines[stepA].contains(#""a""#), "\(text)")
    // It reads back as it was written, and replays.
    let record = try RecordFile.read(text)
    #expect(RecordFile.write(record) == text)
    let report = await SessionReplay.replay(
      record, of: TwoLoads.recorded, reducer: TwoLoads(), timeout: .seconds(5))
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 3)
  }

  /// The record says which effect made each call and which effect sent each action, and a test
  /// written from it gives each answer just before the step its effect sent with it: `a` before
  /// step 2, `b` before step 3, though both came back before step 2.
  @Test func aWrittenTestGivesEachAnswerBeforeTheStepOfItsEffect() async throws {
    let record = try await sessionWhereBothAnswersCameBackTogether()
    let a = try #require(record.answers.first { $0.name == "loadClient.a" }?.effect)
    let b = try #require(record.answers.first { $0.name == "loadClient.b" }?.effect)
    #expect(a != b)
    #expect(record.steps.map(\.effect) == [nil, a, b])
    // The numbers survive the file.
    #expect(try RecordFile.read(RecordFile.write(record)) == record)

    let source = try SessionTestWriter(
      suiteName: "S", testName: "t", testableImports: [], source: ""
    ).write(record)
    #expect(source.contains("$0.loadClient.a = { _ in try await loadClientAReplies.reply() }"))
    let step2 = try #require(source.range(of: "// Step 2: received"))
    let step3 = try #require(source.range(of: "// Step 3: received"))
    let releaseA = try #require(source.range(of: "loadClientAReplies.release(1)"))
    let releaseB = try #require(source.range(of: "loadClientBReplies.release(1)"))
    #expect(step2.upperBound < releaseA.lowerBound && releaseA.upperBound < step3.lowerBound)
    #expect(step3.upperBound < releaseB.lowerBound)
  }

  /// What such a test does, by hand: `a`'s effect is slowed down after its answer, so `b` would
  /// be received first if both answers were given at once; released one at a time, the store
  /// receives them in the recorded order on every run.
  @Test(arguments: 1...5)
  func releasedAnswersAreReceivedInTheOrderTheyAreReleased(run: Int) async {
    let aReplies = RecordedReplies<String>("loadClient.a", [.success("a")])
    let bReplies = RecordedReplies<String>("loadClient.b", [.success("b")])
    let store = TestStore(initialState: TwoLoads.State()) {
      TwoLoads(delayBeforeA: .milliseconds(20))
    } withDependencies: {
      $0.loadClient = LoadClient { name in
        try await (name == "a" ? aReplies : bReplies).reply()
      }
    }
    await store.send(.start)
    aReplies.release(1)
    await store.receive(\.loaded, "a") { $0.arrivals = ["a"] }
    bReplies.release(1)
    await store.receive(\.loaded, "b") { $0.arrivals = ["a", "b"] }
  }

  /// An effect cancelled while it waits for its answer ends with `CancellationError`, as the
  /// call of a cancelled effect does; a release after that changes nothing.
  @Test func aCallWaitingForItsAnswerEndsWhenItsTaskIsCancelled() async {
    let replies = RecordedReplies<String>("loadClient.a", [.success("a")])
    let call = Task { try await replies.reply() }
    call.cancel()
    await #expect(throws: CancellationError.self) { try await call.value }
    replies.release(1)
    #expect(replies.remaining == 0)
  }
}
