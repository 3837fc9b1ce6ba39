import ComposableArchitecture
import Foundation
import Synchronization

/// A recorded session of a root store: the state when recording started, every action the store
/// reduced after that — sent from outside or by an effect, in the order reduced — with the state
/// it left and the session's time, and every answer its dependencies gave
/// (``DependencyTape``).
///
/// Start one with `Store.startRecording(limit:dependencies:)` or the same method of
/// `StoreActor`; write it with ``record(feature:initialState:baseline:)`` (a
/// ``SessionRecord``, which `RecordFile` writes as JSON Lines and a test writer turns into a test).
///
/// Values are kept as they are — a step costs an append, not an encoding — and turned into
/// ``RecordedValue``s only when the record is written. The number of steps and answers is capped
/// (`limit`): past it the recording keeps what it has and says it is full (``isFull``), so a
/// long session never grows without bound.
///
/// A recording belongs to its store's isolation (the main actor for `Store`, the actor for
/// `StoreActor`): read it there.
public final class SessionRecording<State, Action>: @unchecked Sendable {
  /// Who sent an action: ``SessionRecordingOrigin``.
  public typealias Origin = SessionRecordingOrigin

  public struct Step {
    public var origin: Origin
    public var action: Action
    /// The state after the action.
    public var state: State
    /// The session's time when the action was reduced.
    public var time: Duration
    /// The values of the shared references in the state after the action (they are
    /// references: the state alone would show their latest values).
    @usableFromInline var shared: _SharedSnapshot?
    /// The number of the effect that sent the action (``DependencyTape/number(of:)``).
    public var effect: Int?

    @inlinable
    init(
      origin: Origin, action: Action, state: State, time: Duration, shared: _SharedSnapshot?,
      effect: Int?
    ) {
      self.origin = origin
      self.action = action
      self.state = state
      self.time = time
      self.shared = shared
      self.effect = effect
    }
  }

  /// The state when recording started.
  public let initialState: State
  /// Appended to on the store's isolation only (see the type's documentation).
  @usableFromInline @exclusivity(unchecked) var _steps: ContiguousArray<Step> = []
  public var steps: ContiguousArray<Step> { _steps }
  public let tape: DependencyTape
  public let limit: Int
  /// Whether the recording ended on its own: its store went away or it was stopped.
  public internal(set) var isStopped = false
  /// How many effects were still running when recording stopped.
  public internal(set) var effectsInFlightAtStop = 0
  /// Counts the store's running effects, for a record written while recording goes on.
  @usableFromInline var countRunningEffects: (() -> Int)?
  /// The shared references in the state when recording started, whose values each step keeps.
  @usableFromInline let sharedRoots: [_SharedRootBase]
  let initialShared: _SharedSnapshot?

  @usableFromInline
  init(
    initialState: State, limit: Int, replaying answers: [SessionRecord.Answer]? = nil,
    byEffect: Bool = false
  ) {
    self.initialState = initialState
    self.limit = limit
    self.tape = DependencyTape(limit: limit, replaying: answers, byEffect: byEffect)
    var roots: [_SharedRootBase] = []
    if _SharedRootBase.anyCreated.load(ordering: .relaxed) {
      var visited = Set<ObjectIdentifier>()
      SharedChangeTracker.forEachRoot(in: initialState, depth: 0, visited: &visited) { root in
        if !roots.contains(where: { $0 === root }) { roots.append(root) }
      }
    }
    self.sharedRoots = roots
    self.initialShared = _SharedSnapshot(roots)
    _steps.reserveCapacity(Swift.min(limit, 1024))
  }

  /// Whether the limit was reached: later actions or answers were not recorded.
  public var isFull: Bool {
    _steps.count >= limit || tape.isFull.load(ordering: .relaxed)
  }

  /// What a user is told when the recording is full.
  public var fullMessage: String {
    "The recording is full: it keeps at most \(limit) actions and \(limit) dependency answers;"
      + " what happened after that is not in it."
  }

  @inlinable
  func append(_ action: Action, state: State, origin: Origin, effect: Int? = nil) {
    guard _steps.count < limit else { return }
    if tape.isReplaying {
      tape.advance(to: .nanoseconds(tape.replayStepTime.load(ordering: .relaxed)))
    }
    _steps.append(
      Step(
        origin: origin, action: action, state: state, time: tape.now,
        shared: sharedRoots.isEmpty ? nil : _SharedSnapshot(sharedRoots), effect: effect))
    tape.stepCount.store(_steps.count, ordering: .releasing)
  }

  /// Marks the recording stopped, with the effects its store still ran.
  @usableFromInline
  func markStopped(effectsInFlight: Int) {
    isStopped = true
    effectsInFlightAtStop = effectsInFlight
  }

  /// The session as values a person and a test writer can read.
  ///
  /// - Parameters:
  ///   - feature: The root feature's name, as the test names it (`AppFeature`).
  ///   - initialState: The Swift expression that makes the state a session starts from, as a
  ///     test writes it (`AppFeature.State()`), or `nil` to write the initial state out in full.
  ///   - baseline: What that expression makes with `uuid` counting up from zero and `date` at
  ///     1970: the test starts from it and changes what differs.
  public func record(
    feature: String, initialState expression: String? = nil, baseline: State? = nil
  ) -> SessionRecord {
    SessionRecord(
      feature: feature,
      initialStateExpression: expression,
      baseline: baseline.map { RecordedValue(reflecting: $0) },
      initialState: recordedInitialState,
      steps: steps.map(recorded),
      answers: tape.answers.map { answer in
        SessionRecord.Answer(
          call: answer.call, name: answer.name, type: answer.type, arguments: answer.arguments,
          result: answer.result.outcome, afterStep: answer.afterStep, effect: answer.effect)
      },
      isFull: isFull,
      effectsInFlight: isStopped ? effectsInFlightAtStop : countRunningEffects?() ?? 0,
      effectsNumberedAtStart: true)
  }
}

extension SessionRecording {
  /// Sends a user's action — `send` does, on the caller's isolation, which is the store's — as a
  /// step of the session that a test clock would order the same way.
  ///
  /// A front end that records sends its users' actions through this. On a test clock an effect
  /// woken by the clock runs before the test's next line; in a live session a key may be pressed
  /// in the instant after a sleep ended and before the effect it woke sent its action, and a test
  /// written from that record could not send the key between the two. So the action waits until
  /// the woken effect has done what it does next (sent an action, called a recorded dependency,
  /// begun another sleep or ended; at most a second for one that waits on something unseen), and
  /// no sleep ends while it is reduced. Actions take their turns in the order this was called.
  /// Once the recording stopped, `send` runs at once.
  public func userStep<Result, Failure: Error>(
    isolation: isolated (any Actor)? = #isolation,
    _ send: () throws(Failure) -> Result
  ) async throws(Failure) -> Result {
    guard !isStopped, !tape.isReplaying else { return try send() }
    let sleeps = tape.sleeps
    let turn = sleeps.takeUserTurn()
    while !sleeps.beginUserStep(turn) {
      // A cancelled caller still takes its turn (the turns after it wait for it); the wait is
      // bounded by the settle limit of each effect before it.
      if Task.isCancelled {
        await Task.yield()
      } else {
        try? await Task.sleep(for: _SessionSleeps.poll)
      }
    }
    defer { sleeps.endUserStep() }
    return try send()
  }

  /// The steps after the first `count` as the record file writes them (`{"step":…}` lines,
  /// numbered from `count + 1`, each with the changes from the state before it), for a viewer
  /// that has the first `count` already; empty when there are no more. Only those steps are
  /// turned into ``RecordedValue``s, and the one before them.
  public func stepLines(after count: Int) -> String {
    let first = Swift.max(count, 0)
    guard first < steps.count else { return "" }
    var state = first == 0 ? recordedInitialState : recorded(steps[first - 1]).state
    var text = ""
    for index in first..<steps.count {
      let step = recorded(steps[index])
      text += RecordFile.stepLine(number: index + 1, step, after: state).text + "\n"
      state = step.state
    }
    return text
  }

  var recordedInitialState: RecordedValue {
    _SharedSnapshot.$current.withValue(initialShared) { RecordedValue(reflecting: initialState) }
  }

  func recorded(_ step: Step) -> SessionRecord.Step {
    _SharedSnapshot.$current.withValue(step.shared) {
      SessionRecord.Step(
        origin: step.origin == .user ? .user : .effect,
        action: RecordedValue(reflecting: step.action),
        state: RecordedValue(reflecting: step.state),
        time: step.time.seconds, effect: step.effect)
    }
  }
}

/// Who sent a recorded action.
public enum SessionRecordingOrigin: String, Sendable {
  /// Sent from outside the recorded feature: a user, a front end.
  case user
  /// Sent by one of its effects.
  case effect
}

/// A recorded session as ``RecordedValue``s: what a record file holds.
public struct SessionRecord: Equatable, Sendable {
  public enum Origin: String, Equatable, Sendable {
    case user, effect
  }

  public struct Step: Equatable, Sendable {
    public var origin: Origin
    public var action: RecordedValue
    /// The state after the action.
    public var state: RecordedValue
    /// The session's time, in seconds.
    public var time: Double
    /// For an action an effect sent: the number of that effect in the session, which the
    /// answers to its calls carry too (``Answer/effect``); `nil` when not known.
    public var effect: Int?
    public init(
      origin: Origin, action: RecordedValue, state: RecordedValue, time: Double,
      effect: Int? = nil
    ) {
      self.origin = origin
      self.action = action
      self.state = state
      self.time = time
      self.effect = effect
    }
  }

  /// What a call gave: a value, or an error thrown (``RecordedValue/error(type:description:)``).
  public enum Outcome: Equatable, Sendable {
    case returned(RecordedValue)
    case threw(RecordedValue)
  }

  public struct Answer: Equatable, Sendable {
    public var call: Int
    public var name: String
    /// The type the endpoint returns, as Swift source writes it.
    public var type: String
    public var arguments: [RecordedValue]
    public var result: Outcome
    public var afterStep: Int
    /// The number of the effect that made the call (``Step/effect``); `nil` for a call made
    /// outside an effect (a reducer's `uuid`) or when not known.
    public var effect: Int?
    public init(
      call: Int, name: String, type: String, arguments: [RecordedValue], result: Outcome,
      afterStep: Int, effect: Int? = nil
    ) {
      self.call = call
      self.name = name
      self.type = type
      self.arguments = arguments
      self.result = result
      self.afterStep = afterStep
      self.effect = effect
    }
  }

  public var feature: String
  public var initialStateExpression: String?
  public var baseline: RecordedValue?
  public var initialState: RecordedValue
  public var steps: [Step]
  public var answers: [Answer]
  public var isFull: Bool
  public var effectsInFlight: Int
  /// Whether the recording numbered the feature's effects as the store started them (so the
  /// numbers follow the steps, and a replay gives each effect the answers it got), not when
  /// each was first seen (records written before 2026-11-28).
  public var effectsNumberedAtStart: Bool

  public init(
    feature: String, initialStateExpression: String?, baseline: RecordedValue?,
    initialState: RecordedValue, steps: [Step], answers: [Answer], isFull: Bool,
    effectsInFlight: Int, effectsNumberedAtStart: Bool = false
  ) {
    self.feature = feature
    self.initialStateExpression = initialStateExpression
    self.baseline = baseline
    self.initialState = initialState
    self.steps = steps
    self.answers = answers
    self.isFull = isFull
    self.effectsInFlight = effectsInFlight
    self.effectsNumberedAtStart = effectsNumberedAtStart
  }
}

extension Result<RecordedValue, DependencyTape.RecordedFailure> {
  var outcome: SessionRecord.Outcome {
    switch self {
    case .success(let value): .returned(value)
    case .failure(let failure): .threw(failure.value)
    }
  }
}
