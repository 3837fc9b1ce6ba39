import ComposableArchitecture
import Foundation
import Synchronization

/// What the dependencies of a recorded store answered: each call's result or thrown error, in
/// the order the calls were made, and the session's clock.
///
/// A recording store wraps `uuid`, `date` and `continuousClock` itself; a client joins by
/// wrapping its endpoints with ``record(_:arguments:_:)-(_,_,()->Value)`` (see
/// `Store.startRecording(limit:dependencies:)`):
///
/// ```swift
/// extension FactClient {
///   public func recording(into tape: DependencyTape) -> Self {
///     Self(fetch: { number in try await tape.record("factClient.fetch", arguments: [number]) {
///       try await self.fetch(number)
///     } })
///   }
/// }
/// ```
///
/// **The clock is virtual while recording.** The store's clock reads the session's time, which
/// moves only when a sleep ends, to that sleep's deadline — as a test clock moves when a test
/// advances it. A sleep still waits in real time. So a test made from the record advances its
/// clock to the time each step was recorded at, and the same sleeps end.
public final class DependencyTape: Sendable {
  /// One call of a dependency.
  public struct Answer: Sendable {
    /// The order the call was made in, from 0.
    public var call: Int
    /// The endpoint, as a test sets it: `factClient.fetch`, `uuid`.
    public var name: String
    /// The type the endpoint returns, as Swift source writes it (`String`, `Set<UUID>`).
    public var type: String
    public var arguments: [RecordedValue]
    /// The value returned, or ``RecordedValue/error(type:description:)`` for an error thrown.
    public var result: Result<RecordedValue, RecordedFailure>
    /// How many steps the session had when the answer came back.
    public var afterStep: Int
    /// The number of the effect that made the call (``DependencyTape/number(of:)``), `nil` for
    /// a call made outside an effect.
    public var effect: Int?
  }

  /// A thrown error as recorded.
  public struct RecordedFailure: Error, Sendable, Equatable {
    public var value: RecordedValue
  }

  private struct Log {
    var answers: [Answer] = []
    var nextCall = 0
  }

  /// The last number given to an effect.
  private let lastEffectNumber = Atomic<Int>(0)

  /// The number of an effect in this session, from 1: the effect that made a call and the
  /// effect that sent an action have the same number when they are the same effect, which tells
  /// a test written from the record which answer to give before which action it receives, and
  /// a replay which recorded answer is whose. The recording numbers the effects of the recorded
  /// feature as the store starts them (the step hook tells it), so the numbers follow the
  /// steps, not the order in which the effects' tasks happen to run; an effect it was not told
  /// of (a concatenation's next one) is numbered when first seen.
  @usableFromInline
  func number(of effect: EffectHandle) -> Int {
    let current = effect.recordingNumber.load(ordering: .acquiring)
    if current != 0 { return current }
    let next = lastEffectNumber.add(1, ordering: .relaxed).newValue
    let (exchanged, original) = effect.recordingNumber.compareExchange(
      expected: 0, desired: next, ordering: .acquiringAndReleasing)
    return exchanged ? next : original
  }

  private let log = Mutex(Log())
  /// The most answers kept; a call past it is answered and not recorded, and the recording is
  /// marked full.
  let limit: Int
  /// The session's time, in nanoseconds.
  @usableFromInline let virtualNanoseconds = Atomic<Int64>(0)
  /// The steps recorded so far (kept here for answers to say where they came).
  @usableFromInline let stepCount = Atomic<Int>(0)
  /// Replaying: the recorded time of the step the replay is at, in nanoseconds. The session's
  /// time is brought to it as that step is reduced (``SessionRecording``), before the effects it
  /// starts read the clock: recorded, a step's time *is* the session's time when it was reduced,
  /// while here the sleeps that moved it there may not have finished yet — and a timer started
  /// by the step would count from an earlier time and tick early.
  @usableFromInline let replayStepTime = Atomic<Int64>(0)
  let isFull = Atomic<Bool>(false)
  /// The session's sleeps while recording, ended in the order of their deadlines.
  @usableFromInline let sleeps = _SessionSleeps()

  /// Set when the tape replays a record instead of calling the dependencies
  /// (`SessionReplay`): the recorded answers, given again.
  let replay: _TapeReplay?
  /// Whether the tape replays a record (``replay`` is set).
  @usableFromInline let isReplaying: Bool

  /// - Parameter byEffect: Whether a replayed call takes the recorded answer of the same effect
  ///   (its number, ``number(of:)``) before the endpoint's next one: for a record whose effects
  ///   were numbered as they started (``SessionRecord/effectsNumberedAtStart``).
  @usableFromInline
  init(limit: Int, replaying answers: [SessionRecord.Answer]? = nil, byEffect: Bool = false) {
    self.limit = limit
    self.replay = answers.map { _TapeReplay($0, byEffect: byEffect) }
    self.isReplaying = answers != nil
  }

  /// The answers so far, in the order they came back (``Answer/call`` says the order the calls
  /// were made in). Their ``Answer/afterStep`` never decreases along it: each is read under the
  /// lock the answer is appended under, and the step count only grows.
  public var answers: [Answer] {
    log.withLock { $0.answers }
  }

  /// The session's time.
  @inlinable
  public var now: Duration {
    .nanoseconds(virtualNanoseconds.load(ordering: .relaxed))
  }

  /// Moves the session's time to `deadline`, unless it is already later.
  @usableFromInline
  func advance(to deadline: Duration) {
    let target = deadline.nanoseconds
    var current = virtualNanoseconds.load(ordering: .relaxed)
    while current < target {
      let (exchanged, original) = virtualNanoseconds.compareExchange(
        expected: current, desired: target, ordering: .relaxed)
      if exchanged { return }
      current = original
    }
  }

  private func begin() -> Int {
    if let effect = EffectContext.current { sleeps.noteActivity(of: effect) }
    return log.withLock { log in
      defer { log.nextCall += 1 }
      return log.nextCall
    }
  }

  private func end(
    call: Int, name: String, type: Any.Type, arguments: [Any],
    result: Result<RecordedValue, RecordedFailure>
  ) {
    var answer = Answer(
      call: call, name: name, type: RecordedValue.typeName(of: type),
      arguments: arguments.map { RecordedValue(reflecting: $0) },
      result: result, afterStep: 0, effect: EffectContext.current.map(number(of:)))
    // The step count is read where the answer joins the log: an answer that joins later never
    // says it came after fewer steps. It is read before the effect that made the call can send
    // anything back, so the step that reduces what the answer caused counts after it.
    let kept = log.withLock { log in
      guard log.answers.count < limit else { return false }
      answer.afterStep = stepCount.load(ordering: .acquiring)
      log.answers.append(answer)
      return true
    }
    if !kept { isFull.store(true, ordering: .relaxed) }
  }

  /// Calls an asynchronous endpoint and records what it returned or threw.
  public func record<Value>(
    _ name: String, arguments: [Any] = [], _ operation: () async throws -> Value
  ) async throws -> Value {
    let call = begin()
    do {
      let value =
        if let replay {
          try await replay.answer(
            name, arguments: arguments, effect: EffectContext.current.map(number(of:)),
            as: Value.self, tape: self)
        } else {
          try await operation()
        }
      end(
        call: call, name: name, type: Value.self, arguments: arguments,
        result: .success(RecordedValue(reflecting: value)))
      return value
    } catch {
      end(
        call: call, name: name, type: Value.self, arguments: arguments,
        result: .failure(RecordedFailure(value: RecordedValue(recordingError: error))))
      throw error
    }
  }

  /// Calls a synchronous endpoint (`uuid`, `date`) and records what it returned.
  public func record<Value>(_ name: String, arguments: [Any] = [], _ operation: () -> Value)
    -> Value
  {
    let call = begin()
    let value =
      replay?.immediateAnswer(
        name, arguments: arguments, effect: EffectContext.current.map(number(of:)),
        as: Value.self) ?? operation()
    end(
      call: call, name: name, type: Value.self, arguments: arguments,
      result: .success(RecordedValue(reflecting: value)))
    return value
  }
}

extension Duration {
  var nanoseconds: Int64 {
    let (seconds, attoseconds) = components
    return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
  }
}

/// The clock of a recording store: it reads the session's virtual time and waits in real time
/// (see ``DependencyTape``).
@usableFromInline
struct _RecordingClock: Clock {
  @usableFromInline
  struct Instant: InstantProtocol {
    var offset: Duration
    @usableFromInline func advanced(by duration: Duration) -> Self {
      Self(offset: offset + duration)
    }
    @usableFromInline func duration(to other: Self) -> Duration { other.offset - offset }
    @usableFromInline static func < (lhs: Self, rhs: Self) -> Bool { lhs.offset < rhs.offset }
  }

  let base: @Sendable () -> any Clock<Duration>
  let tape: DependencyTape

  @usableFromInline
  init(base: @escaping @Sendable () -> any Clock<Duration>, tape: DependencyTape) {
    self.base = base
    self.tape = tape
  }

  @usableFromInline var now: Instant { Instant(offset: tape.now) }
  @usableFromInline var minimumResolution: Duration { .zero }

  @usableFromInline
  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    if let sleep = tape.replay?.sleep {
      // Replaying: until the deadline itself on the replay's clock, which the replay moves to
      // each step's recorded time — a sleep that starts after the clock moved past its deadline
      // ends at once, as it did in the session, instead of waiting for a move that never comes.
      try await sleep(deadline.offset)
      tape.advance(to: deadline.offset)
      return
    }
    let sleeps = tape.sleeps
    let effect = EffectContext.current
    let sleep = sleeps.began(deadline: deadline.offset, in: effect)
    do {
      let wait = tape.now.duration(to: deadline.offset)
      if wait > .zero {
        // The real wait, cut short when another sleep moves the session's time to this one's
        // deadline: sleeps due at the same time end together, as on a test clock.
        let base = self.base
        try await withThrowingTaskGroup(of: Void.self) { group in
          group.addTask { try await base().sleep(for: wait) }
          group.addTask { await sleeps.released(sleep) }
          _ = try await group.next()
          group.cancelAll()
        }
      }
      try Task.checkCancellation()
      // Ends when every sleep with an earlier deadline has, and what the last one woke has
      // been reduced: the order a test clock ends them in.
      while !sleeps.end(sleep, tape: tape) {
        try await Task.sleep(for: _SessionSleeps.poll)
      }
    } catch {
      sleeps.cancelled(sleep)
      throw error
    }
  }
}

/// The sleeps of a recording session on its virtual clock (``DependencyTape``), ended in the
/// order a test clock ends them.
///
/// A sleep waits in real time from the session's time when it starts, and the session's time
/// moves only when a sleep ends: so a 0.3 s wait begun late in a timer's second ends, in real
/// time, after the timer's next tick although its deadline on the session's clock comes first.
/// A test written from the record advances a test clock, which ends sleeps by deadline and lets
/// each woken effect run before waking the next. A recording does the same: a sleep whose real
/// wait is over ends only when no running sleep has an earlier deadline (or the same deadline
/// and an earlier start), and when the effect the last ended sleep woke has done what it does
/// next — sent an action that was reduced, called a recorded dependency, begun another sleep,
/// or ended. An effect that does none of these within ``defaultSettleLimit`` (it waits on something
/// the recording does not see) lets the next sleep end anyway. The cost is a sleep that ends
/// a little late: the timer's tick waits for the query's debounce.
///
/// A user's action is a step of its own between those (``SessionRecording/userStep(isolation:_:)``):
/// it waits while an effect a sleep woke has not done what it does next — on a test clock the
/// woken effect runs before the test's next line, so a key pressed in the instant between a
/// timer's sleep ending and its tick being reduced is recorded after the tick, not between the
/// clock moving and the tick — and no sleep ends while it is reduced, so the session's time
/// cannot move under it. Users' actions take their turns in the order they asked.
@usableFromInline
final class _SessionSleeps: Sendable {
  struct Sleep: Sendable {
    let number: Int
    let deadline: Int64
    let effect: EffectHandle?
  }

  private struct State {
    var nextNumber = 0
    /// The sleeps begun and not ended, in the order they began.
    var running: [Sleep] = []
    /// The effect the last ended sleep woke, until it has done what it does next.
    var settling: (effect: EffectHandle, number: Int, since: ContinuousClock.Instant)?
    /// Sleeps whose real wait is cut short: the session's time reached their deadline.
    var released: Set<Int> = []
    var wakers: [Int: CheckedContinuation<Void, Never>] = [:]
    /// The next turn given to a user's action, and the turn whose action may go next.
    var nextUserTurn = 0
    var servedUserTurn = 0
    /// Whether a user's action is being reduced: no sleep ends meanwhile.
    var userStepInProgress = false
    var settleLimit = _SessionSleeps.defaultSettleLimit
  }

  /// How often a sleep whose real wait is over looks whether its turn has come.
  static let poll = Duration.milliseconds(1)
  /// The longest an effect woken by a sleep holds the next sleep back.
  static let defaultSettleLimit = Duration.seconds(1)

  /// The longest an effect woken by a sleep holds the next sleep and the user's next action
  /// back (``defaultSettleLimit``; a test that holds a woken effect on purpose sets it longer,
  /// so that a loaded machine cannot end the hold early).
  var settleLimit: Duration {
    get { state.withLock { $0.settleLimit } }
    set { state.withLock { $0.settleLimit = newValue } }
  }

  private let state = Mutex(State())

  func began(deadline: Duration, in effect: EffectHandle?) -> Sleep {
    state.withLock { state in
      if let effect { Self.settled(effect, in: &state) }
      defer { state.nextNumber += 1 }
      let sleep = Sleep(number: state.nextNumber, deadline: deadline.nanoseconds, effect: effect)
      state.running.append(sleep)
      return sleep
    }
  }

  /// Ends `sleep` and moves the session's time to its deadline if its turn has come; returns
  /// whether it did.
  func end(_ sleep: Sleep, tape: DependencyTape) -> Bool {
    state.withLock { state in
      guard !state.userStepInProgress, !Self.isSettling(&state) else { return false }
      let isFirst = !state.running.contains {
        $0.deadline < sleep.deadline || ($0.deadline == sleep.deadline && $0.number < sleep.number)
      }
      guard isFirst else { return false }
      state.running.removeAll { $0.number == sleep.number }
      state.released.remove(sleep.number)
      tape.advance(to: .nanoseconds(sleep.deadline))
      if let effect = sleep.effect {
        state.settling = (effect, sleep.number, ContinuousClock.now)
      }
      // Every other sleep due by now stops waiting in real time: it ends next, in its turn.
      let now = tape.now.nanoseconds
      for due in state.running where due.deadline <= now {
        state.released.insert(due.number)
        state.wakers.removeValue(forKey: due.number)?.resume()
      }
      return true
    }
  }

  /// Whether the effect the last ended sleep woke has yet to do what it does next (and may
  /// still: it runs, and has had less than ``settleLimit``); forgets it once it may not.
  private static func isSettling(_ state: inout State) -> Bool {
    guard let settling = state.settling else { return false }
    // An effect that ended leaves its registry (its slot is -1).
    if settling.effect.slot.load(ordering: .relaxed) >= 0,
      ContinuousClock.now - settling.since < state.settleLimit
    {
      return true
    }
    state.settling = nil
    return false
  }

  /// A turn for a user's action, in the order asked for.
  func takeUserTurn() -> Int {
    state.withLock { state in
      defer { state.nextUserTurn += 1 }
      return state.nextUserTurn
    }
  }

  /// Begins the user's step of `turn` if it is that turn's go and no woken effect is settling;
  /// returns whether it did. Until ``endUserStep()`` no sleep ends.
  func beginUserStep(_ turn: Int) -> Bool {
    state.withLock { state in
      guard state.servedUserTurn == turn, !Self.isSettling(&state) else { return false }
      state.userStepInProgress = true
      return true
    }
  }

  func endUserStep() {
    state.withLock { state in
      state.userStepInProgress = false
      state.servedUserTurn += 1
    }
  }

  /// Returns once the session's time has reached `sleep`'s deadline (another sleep moved it
  /// there), or the waiting task is cancelled.
  func released(_ sleep: Sleep) async {
    await withTaskCancellationHandler {
      await withCheckedContinuation { continuation in
        let now = state.withLock { state -> Bool in
          guard !state.released.contains(sleep.number) else { return true }
          state.wakers[sleep.number] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      let waker = state.withLock { state in
        state.released.insert(sleep.number)
        return state.wakers.removeValue(forKey: sleep.number)
      }
      waker?.resume()
    }
  }

  func cancelled(_ sleep: Sleep) {
    let waker = state.withLock { state in
      state.running.removeAll { $0.number == sleep.number }
      state.released.remove(sleep.number)
      if state.settling?.number == sleep.number { state.settling = nil }
      return state.wakers.removeValue(forKey: sleep.number)
    }
    waker?.resume()
  }

  /// Notes that `effect` did something the recording sees: it no longer holds sleeps back.
  @usableFromInline
  func noteActivity(of effect: EffectHandle) {
    state.withLock { state in Self.settled(effect, in: &state) }
  }

  private static func settled(_ effect: EffectHandle, in state: inout State) {
    if state.settling?.effect === effect { state.settling = nil }
  }
}

extension Duration {
  fileprivate func duration(to other: Duration) -> Duration { other - self }
}

/// The recorded answers a replaying tape gives again: each endpoint's in the order they were
/// recorded, each no earlier than the replay reaches the step it came back after — so effects
/// interleave with the user's actions as they did in the session. A call with other arguments
/// than the record's is kept for the replay, which reports it as a divergence; what else does
/// not match the record (a call past the recorded ones, an answer that cannot be built again) is
/// noted for the replay's report.
final class _TapeReplay: Sendable {
  private struct Queues {
    var byName: [String: ArraySlice<SessionRecord.Answer>] = [:]
    var notes: [String] = []
    var argumentMismatches: [ArgumentMismatch] = []
  }

  /// A call made with other arguments than the recorded call it took the answer of.
  struct ArgumentMismatch: Sendable {
    var answer: SessionRecord.Answer
    var given: [RecordedValue]

    var description: String {
      "the app calls \(answer.name) (call \(answer.call)) with"
        + " \(RecordedValue.array(given).json.text); the record has"
        + " \(RecordedValue.array(answer.arguments).json.text)"
    }
  }

  private let queues: Mutex<Queues>
  private let sleeper = Mutex<(@Sendable (Duration) async throws -> Void)?>(nil)

  /// How the store's clock sleeps while replaying: until the given time of the session, on the
  /// replay's clock (set by the replay before the first step).
  var sleep: (@Sendable (Duration) async throws -> Void)? {
    get { sleeper.withLock { $0 } }
    set { sleeper.withLock { $0 = newValue } }
  }

  /// Whether a call takes the recorded answer of its own effect, when there is one, before the
  /// endpoint's next answer.
  private let byEffect: Bool

  init(_ answers: [SessionRecord.Answer], byEffect: Bool = false) {
    var byName: [String: ArraySlice<SessionRecord.Answer>] = [:]
    for answer in answers.sorted(by: { $0.call < $1.call }) {
      byName[answer.name, default: []].append(answer)
    }
    queues = Mutex(Queues(byName: byName))
    self.byEffect = byEffect
  }

  /// What did not go as recorded, in order.
  var notes: [String] { queues.withLock { $0.notes } }

  /// The first call made with other arguments than recorded, if any.
  var firstArgumentMismatch: ArgumentMismatch? { queues.withLock { $0.argumentMismatches.first } }

  func note(_ text: String) {
    queues.withLock { $0.notes.append(text) }
  }

  /// The recorded answer a call of `name` by effect `effect` takes: the endpoint's next one —
  /// or, when answers go by effect, the endpoint's next one that `effect` got in the session
  /// (two effects started together may call in either order; each gets what it got).
  private func next(_ name: String, arguments: [Any], effect: Int?) -> SessionRecord.Answer? {
    let given = arguments.map { RecordedValue(reflecting: $0) }
    return queues.withLock { queues -> SessionRecord.Answer? in
      guard var queue = queues.byName[name], let first = queue.indices.first else {
        queues.notes.append("\(name) was called more often than in the record")
        return nil
      }
      var index = first
      if byEffect, let effect, let own = queue.firstIndex(where: { $0.effect == effect }) {
        index = own
      }
      let answer = queue.remove(at: index)
      queues.byName[name] = queue
      if answer.arguments != given {
        queues.argumentMismatches.append(ArgumentMismatch(answer: answer, given: given))
      }
      return answer
    }
  }

  /// Whether every call the record answered before step `step` (an answer whose
  /// ``SessionRecord/Answer/afterStep`` is below it) has been made again.
  func madeEveryCall(answeredBefore step: Int) -> Bool {
    queues.withLock { queues in
      queues.byName.values.allSatisfy { queue in queue.allSatisfy { $0.afterStep >= step } }
    }
  }

  /// The recorded calls not made again so far, in the order they were made in the session.
  var callsNotMade: [SessionRecord.Answer] {
    queues.withLock { queues in queues.byName.values.flatMap { $0 }.sorted { $0.call < $1.call } }
  }

  /// The next recorded answer of `name`, once the replay has reached the step it came after.
  /// A call the record has no answer for waits until its effect is cancelled (the session ended
  /// with it in flight, or the feature now calls more).
  func answer<Value>(
    _ name: String, arguments: [Any], effect: Int?, as type: Value.Type, tape: DependencyTape
  ) async throws -> Value {
    guard let answer = next(name, arguments: arguments, effect: effect) else {
      try await Task.sleep(nanoseconds: .max)
      throw CancellationError()
    }
    while tape.stepCount.load(ordering: .relaxed) < answer.afterStep {
      try await Task.sleep(for: .microseconds(200))
    }
    switch answer.result {
    case .returned(let value):
      do {
        return try RecordDecoding.decode(Value.self, from: value)
      } catch {
        note("\(name) (call \(answer.call)): the recorded answer cannot be built again: \(error)")
        throw RecordedError("The recorded answer of \(name) cannot be built again.")
      }
    case .threw(let error):
      if case .error(let type, let description) = error {
        throw RecordedError(description, originalType: type)
      }
      throw RecordedError(error.json.text)
    }
  }

  /// The next recorded answer of a synchronous endpoint (`uuid`, `date`), or `nil` (noted) when
  /// there is none or it cannot be built: the endpoint then answers live.
  func immediateAnswer<Value>(
    _ name: String, arguments: [Any], effect: Int?, as type: Value.Type
  ) -> Value? {
    guard let answer = next(name, arguments: arguments, effect: effect) else { return nil }
    guard case .returned(let value) = answer.result else {
      note("\(name) (call \(answer.call)) threw in the record")
      return nil
    }
    do {
      return try RecordDecoding.decode(Value.self, from: value)
    } catch {
      note("\(name) (call \(answer.call)): the recorded answer cannot be built again: \(error)")
      return nil
    }
  }
}
