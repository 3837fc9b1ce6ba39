import ComposableArchitecture
import Foundation
import Testing

@testable import ComposableRecording

#if canImport(Glibc)
  import Glibc
#endif

/// A load that a later user action cancels, and a wait on the store's clock that starts only
/// after some real work: two timings of a session that a replay must reproduce whatever the
/// machine's load.
@Reducer
struct StaleLoad {
  @ObservableState
  struct State: Equatable {
    var value: String?
    var isWaiting = false
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case stop
    case loaded(String)
    case ticked
    case wait
    case waited
  }

  enum CancelID { case load }

  /// Real time the waiting effect spends before it starts its wait (a busy machine's delay).
  var delayBeforeWaiting = Duration.zero
  @Dependency(\.loadClient) var client
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .merge(
          .run { [client] send in
            await send(.loaded(try await client.load("x")))
          }
          .cancellable(id: CancelID.load),
          .run { send in
            // Some real work, then a word back: the replay waits for it.
            usleep(50_000)
            await send(.ticked)
          })
      case .ticked:
        return .none
      case .stop:
        return .cancel(id: CancelID.load)
      case .loaded(let value):
        state.value = value
        return .none
      case .wait:
        state.isWaiting = true
        return .run { [clock, delayBeforeWaiting] send in
          if delayBeforeWaiting > .zero {
            // Blocks its thread, as work does: the replay's clock moves on meanwhile.
            let (seconds, attoseconds) = delayBeforeWaiting.components
            usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
          }
          try await clock.sleep(for: .seconds(1))
          await send(.waited)
        }
      case .waited:
        state.isWaiting = false
        return .none
      }
    }
  }

  static let recorded = RecordedFeature<State, Action>(
    name: "StaleLoad", initialStateExpression: "StaleLoad.State()", baseline: { State() },
    recordClients: DependencyValues.recordLoads,
    testImports: { _ in [] })
}

@MainActor
@Suite struct ReplayTimingTests {
  /// In the session the load answered just before the user stopped it, and the stop cancelled
  /// the effect before it could send: its answer is in the record, its action is not. A replay
  /// gives the answer as soon as the record reaches it, so the effect sends while the replay
  /// waits for the other effect's step, before the stop is replayed — that action must be
  /// dropped when the stop cancels its effect, not reduced at the end.
  @Test func anEffectCancelledBeforeItSentInTheSessionSendsNothingInTheReplay() async throws {
    // Recorded live with a load that never answers, then the answer written in as having come
    // back after the first step — what a session under load shows.
    let store = Store(initialState: StaleLoad.State()) {
      StaleLoad()
    } withDependencies: {
      $0.loadClient = LoadClient { _ in
        try await Task.sleep(for: .seconds(3_600))
        return "never"
      }
    }
    let recording = store.startRecording(dependencies: StaleLoad.recorded.recordClients)
    store.send(.start)
    // The other effect's word comes back first, then the user stops the load.
    while recording.steps.count < 2 { try await Task.sleep(for: .milliseconds(5)) }
    await store.send(.stop).finish()
    store.stopRecording()
    var record = StaleLoad.recorded.record(recording)
    #expect(record.steps.map(\.origin) == [.user, .effect, .user])
    // Whatever the cancelled load left in the record (its cancellation, if it came before the
    // recording stopped), in this session it answered.
    record.answers = [
      SessionRecord.Answer(
        call: 0, name: "loadClient.x", type: "String", arguments: [.string("x")],
        result: .returned(.string("x")), afterStep: 1)
    ]
    let record2 = try RecordFile.read(RecordFile.write(record))
    for _ in 1...5 {
      let report = await SessionReplay.replay(
        record2, of: StaleLoad.recorded, reducer: StaleLoad(), timeout: .seconds(2))
      #expect(report.divergence == nil, "\(report)")
      #expect(report.reproduced == 3)
    }
  }

  /// An effect that starts its wait only after the replay moved the clock to the time the wait
  /// ends (its task ran late) still ends its wait then, as in the session.
  @Test func aWaitThatStartsAfterTheClockMovedEndsAtItsRecordedTime() async throws {
    let clock = TestClock()
    let store = Store(initialState: StaleLoad.State()) {
      StaleLoad()
    } withDependencies: {
      $0.continuousClock = clock
    }
    let recording = store.startRecording(dependencies: StaleLoad.recorded.recordClients)
    let task = store.send(.wait)
    try await Task.sleep(for: .milliseconds(50))
    await clock.advance(by: .seconds(1))
    await task.finish()
    store.stopRecording()
    let record = StaleLoad.recorded.record(recording)
    #expect(record.steps.map(\.time) == [0, 1])
    let report = await SessionReplay.replay(
      record, of: StaleLoad.recorded, reducer: StaleLoad(delayBeforeWaiting: .milliseconds(100)),
      timeout: .seconds(2))
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 2)
  }
}

/// A timer's ticks are equal actions: a replay must reduce each at its own step, not every tick
/// that is ready when the first one's turn comes.
@Reducer
struct TwoTicks {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
    var marks: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case mark
    case tick
  }

  /// Live, the second tick waits for this; replayed, both ticks come at once.
  var betweenTicks: @Sendable () async -> Void = {}
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [betweenTicks, clock] send in
          try await clock.sleep(for: .seconds(1))
          await send(.tick)
          await betweenTicks()
          await send(.tick)
        }
      case .mark:
        state.marks.append(state.ticks)
        return .none
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  static let recorded = RecordedFeature<State, Action>(
    name: "TwoTicks", initialStateExpression: "TwoTicks.State()", baseline: { State() },
    recordClients: { _, _ in }, testImports: { _ in [] })
}

@MainActor
@Suite struct EqualEffectActionsTests {
  @Test(arguments: 1...5)
  func equalActionsOfAnEffectAreEachReducedAtTheirOwnStep(run: Int) async throws {
    // Recorded: a second passes, a tick, the user's mark (which sees 1), the second tick.
    let marked = AsyncStream<Void>.makeStream()
    let store = Store(initialState: TwoTicks.State()) {
      TwoTicks(betweenTicks: { for await _ in marked.stream { break } })
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    let recording = store.startRecording(dependencies: TwoTicks.recorded.recordClients)
    let started = store.send(.start)
    while store.ticks < 1 { await Task.yield() }
    store.send(.mark)
    marked.continuation.yield()
    await started.finish()
    store.stopRecording()
    let record = TwoTicks.recorded.record(recording)
    #expect(record.steps.map(\.origin) == [.user, .effect, .user, .effect])
    #expect(record.steps.map(\.time) == [0, 1, 1, 1])

    // Replayed, both ticks come the moment the clock reaches 1 s: the second waits for its step.
    let report = await SessionReplay.replay(record, of: TwoTicks.recorded, reducer: TwoTicks())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 4)
  }
}

/// A timer started by the user's action.
@Reducer
struct Ticker {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case tick
  }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  static let recorded = RecordedFeature<State, Action>(
    name: "Ticker", initialStateExpression: "Ticker.State()", baseline: { State() },
    recordClients: { _, _ in }, testImports: { _ in [] })
}

@MainActor
@Suite struct ReplayedSessionTimeTests {
  /// Recorded, a step's time is the session's time when it was reduced, and a timer it starts
  /// counts from there. Replayed, the sleeps that brought the session there may not have ended
  /// yet when the step is reduced; the session's time is brought to the step's own, or the timer
  /// would count from earlier, tick early, and tick once more after the record's end.
  @Test func aTimerStartedAtAStepCountsFromTheStepsTime() async throws {
    let store = Store(initialState: Ticker.State()) {
      Ticker()
    } withDependencies: {
      $0.continuousClock = ImmediateClock()
    }
    let recording = store.startRecording(dependencies: Ticker.recorded.recordClients)
    store.send(.start)
    while store.ticks < 2 { await Task.yield() }
    store.stopRecording()
    var record = Ticker.recorded.record(recording)
    record.steps = Array(record.steps.prefix(3))
    #expect(record.steps.map(\.time) == [0, 1, 2])
    // The session was 5 s old when the timer started (what earlier sleeps did is left out).
    for index in record.steps.indices { record.steps[index].time += 5 }
    record.effectsInFlight = 1

    let report = await SessionReplay.replay(record, of: Ticker.recorded, reducer: Ticker())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 3)
  }
}

/// A timer and a debounce: two sleeps of one session whose deadlines, on the session's clock,
/// need not come in the order their real waits end.
@Reducer
struct TickAndDebounce {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
    var query = ""
    var searched: [String] = []
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case tick
    case queryChanged(String)
    case debounced
  }

  enum CancelID { case debounce }

  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [clock] send in
          for await _ in clock.timer(interval: .seconds(1)) { await send(.tick) }
        }
      case .tick:
        state.ticks += 1
        return .none
      case .queryChanged(let query):
        state.query = query
        return .run { [clock] send in
          try await clock.sleep(for: .milliseconds(300))
          await send(.debounced)
        }
        .cancellable(id: CancelID.debounce, cancelInFlight: true)
      case .debounced:
        state.searched.append(state.query)
        return .none
      }
    }
  }

  static let recorded = RecordedFeature<State, Action>(
    name: "TickAndDebounce", initialStateExpression: "TickAndDebounce.State()",
    baseline: { State() }, recordClients: { _, _ in }, testImports: { _ in [] })
}

@MainActor
@Suite struct SleepOrderTests {
  /// A store of `TickAndDebounce` on a test clock, recording.
  func recordedTickAndDebounce() -> (
    TestClock<Duration>, StoreOf<TickAndDebounce>,
    SessionRecording<TickAndDebounce.State, TickAndDebounce.Action>
  ) {
    let clock = TestClock()
    let store = Store(initialState: TickAndDebounce.State()) {
      TickAndDebounce()
    } withDependencies: {
      $0.continuousClock = clock
    }
    return (
      clock, store, store.startRecording(dependencies: TickAndDebounce.recorded.recordClients)
    )
  }

  /// Waits until `recording` has `count` steps (at most 10 s).
  func arrived(
    _ count: Int, in recording: SessionRecording<TickAndDebounce.State, TickAndDebounce.Action>
  ) async throws {
    let deadline = ContinuousClock.now + .seconds(10)
    while recording.steps.count < count, ContinuousClock.now < deadline {
      try await Task.sleep(for: .milliseconds(2))
    }
  }

  /// The names of the first `count` recorded actions' cases.
  func cases(_ record: SessionRecord, first count: Int) -> [String] {
    record.steps.prefix(count).map { step in
      guard case .enumeration(let name, _) = step.action else { return "\(step.action)" }
      return name
    }
  }

  /// The session's clock moves only when a sleep ends, while sleeps wait in real time: a query
  /// typed late in a timer's second starts a 0.3 s wait whose deadline (1.3 s) comes before the
  /// next tick's (2 s), though in real time it ends after it. A test written from the record
  /// advances a test clock, which ends sleeps in the order of their deadlines; so must the
  /// session, or the record shows the tick first and its test receives them the other way round.
  @Test func sleepsEndInTheOrderOfTheirDeadlinesOnTheSessionsClock() async throws {
    let (clock, store, recording) = recordedTickAndDebounce()
    func steps(_ count: Int) async throws { try await arrived(count, in: recording) }
    let timer = store.send(.start)
    try await Task.sleep(for: .milliseconds(50))
    await clock.advance(by: .seconds(1))
    try await steps(2)
    // 0.8 s of real time pass before the user types: the session's clock stays at 1 s.
    await clock.advance(by: .milliseconds(800))
    store.send(.queryChanged("lon"))
    try await Task.sleep(for: .milliseconds(50))
    // The tick's real wait ends first (1 s after the first tick), the debounce's 0.1 s later.
    await clock.advance(by: .milliseconds(200))
    try await Task.sleep(for: .milliseconds(100))
    await clock.advance(by: .milliseconds(100))
    try await steps(5)
    timer.cancel()
    store.stopRecording()

    let record = TickAndDebounce.recorded.record(recording)
    #expect(
      cases(record, first: record.steps.count)
        == ["start", "tick", "queryChanged", "debounced", "tick"])
    #expect(record.steps.map(\.time) == [0, 1, 1, 1.3, 2])
  }

  /// Two timers started half a second apart in real time, at the same time on the session's
  /// clock, are due at the same time: when the first ends, the second ends too before anything
  /// else is reduced — a test clock advanced to that time fires both — not half a second later,
  /// after the user's next action.
  @Test func sleepsDueAtTheSameTimeEndTogether() async throws {
    let (clock, store, recording) = recordedTickAndDebounce()
    func steps(_ count: Int) async throws { try await arrived(count, in: recording) }
    let first = store.send(.start)
    try await Task.sleep(for: .milliseconds(50))
    await clock.advance(by: .milliseconds(500))
    let second = store.send(.start)
    try await Task.sleep(for: .milliseconds(50))
    await clock.advance(by: .milliseconds(500))
    try await steps(4)
    store.send(.queryChanged("x"))
    try await steps(5)
    first.cancel()
    second.cancel()
    store.stopRecording()

    let record = TickAndDebounce.recorded.record(recording)
    #expect(cases(record, first: 5) == ["start", "start", "tick", "tick", "queryChanged"])
    #expect(record.steps.prefix(5).map(\.time) == [0, 0, 1, 1, 1])
  }
}

/// A timer whose effect, woken, does something the recording does not see before it sends.
@Reducer
struct WokenTick {
  @ObservableState
  struct State: Equatable {
    var ticks = 0
    /// The ticks each tap saw.
    var taps: [Int] = []
  }

  @CasePathable
  enum Action: Equatable {
    case start
    case tap
    case tick
  }

  /// Runs between the sleep's end and the tick.
  var afterSleep: @Sendable () async -> Void = {}
  @Dependency(\.continuousClock) var clock

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .start:
        return .run { [afterSleep, clock] send in
          try await clock.sleep(for: .seconds(1))
          await afterSleep()
          await send(.tick)
        }
      case .tap:
        state.taps.append(state.ticks)
        return .none
      case .tick:
        state.ticks += 1
        return .none
      }
    }
  }

  static let recorded = RecordedFeature<State, Action>(
    name: "WokenTick", initialStateExpression: "WokenTick.State()", baseline: { State() },
    recordClients: { _, _ in }, testImports: { _ in [] })
}

@MainActor
@Suite struct UserStepTests {
  /// A key pressed in the instant between a sleep's end (the session's clock moved to 1 s) and
  /// the tick of the effect it woke: a test written from the record advances a test clock by
  /// 1 s, which runs the woken effect — the tick — before the test's next line sends the key. So
  /// the key must be recorded after the tick: it waits for the woken effect.
  @Test func aKeyPressedWhileAWokenEffectRunsIsRecordedAfterWhatTheEffectSends() async throws {
    let woke = AsyncStream<Void>.makeStream()
    let gate = AsyncStream<Void>.makeStream()
    let clock = TestClock()
    let store = Store(initialState: WokenTick.State()) {
      WokenTick(afterSleep: {
        woke.continuation.yield()
        for await _ in gate.stream { break }
      })
    } withDependencies: {
      $0.continuousClock = clock
    }
    let recording = store.startRecording(dependencies: WokenTick.recorded.recordClients)
    // The effect is held on purpose: however loaded the machine, the hold must not time out.
    recording.tape.sleeps.settleLimit = .seconds(3_600)
    let timer = store.send(.start)
    // The timer's real wait has begun when the clock has a suspension.
    while (try? await clock.checkSuspension()) != nil {
      try await Task.sleep(for: .milliseconds(1))
    }
    await clock.advance(by: .seconds(1))
    var wakes = woke.stream.makeAsyncIterator()
    _ = await wakes.next()
    #expect(recording.tape.now == .seconds(1))

    let tap = Task { await recording.userStep { store.send(.tap) } }
    // The woken effect has sent nothing: the key waits.
    try await Task.sleep(for: .milliseconds(50))
    #expect(recording.steps.count == 1)
    gate.continuation.yield()
    await tap.value
    timer.cancel()
    store.stopRecording()

    let record = WokenTick.recorded.record(recording)
    #expect(
      record.steps.map { step -> String in
        guard case .enumeration(let name, _) = step.action else { return "\(step.action)" }
        return name
      } == ["start", "tick", "tap"])
    #expect(record.steps.map(\.time) == [0, 1, 1])
    #expect(store.state.taps == [1])
  }
}
