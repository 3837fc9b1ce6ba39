@_spi(Internals) import ComposableArchitecture
import Foundation

/// Replays a recorded session against today's reducer and says whether it still goes the same
/// way: the check behind `app-cli replay FILE`.
///
/// A fresh store starts from the recorded state — the feature's initial state
/// (``RecordedFeature/baseline``) with the recorded differences made in it, or, for a record
/// without one, the state built from the record — and records itself while it runs. Every
/// dependency answers what it answered in the session (decoded from the record, each answer held
/// back until the replay reaches the step it came after, so effects interleave with the user's
/// actions as they did); `uuid` and `date` give their recorded values; the clock is a
/// `TestClock`, advanced to the time of each step, so recorded sleeps take no time. The user's
/// actions are sent at their steps; the effects' actions must come by themselves.
///
/// After each step the replayed step is compared with the recorded one — who sent it, the
/// action, and the whole state (shared values included). The first difference ends the replay:
/// ``Report/divergence`` names the step and shows the difference. A dependency call made with
/// other arguments than recorded is a divergence at the step it is seen after, and a recorded
/// call the app no longer makes is one too, found at the end (the replay waits for calls
/// answered after the last step).
public enum SessionReplay {
  /// What a replay found.
  public struct Report: Sendable, CustomStringConvertible {
    /// The recorded steps.
    public var steps: Int
    /// The steps that went as recorded, from the first.
    public var reproduced: Int
    /// The first step that did not, or `nil`: every recorded state was reproduced.
    public var divergence: Divergence?
    /// Dependency calls that differed from the record without changing a state: more calls than
    /// recorded, an answer that cannot be built again. (A call with other arguments is a
    /// divergence.)
    public var notes: [String]

    public var isExact: Bool { divergence == nil }

    public var description: String {
      var lines: [String] = []
      if let divergence {
        lines.append(
          divergence.step == 0
            ? "the recorded start state cannot be built again:"
            : "the session diverges at step \(divergence.step) of \(steps):")
        lines.append(divergence.message)
      } else {
        lines.append("every recorded state was reproduced (\(steps) steps)")
      }
      if !notes.isEmpty {
        lines.append("dependency calls that differ from the record:")
        lines.append(contentsOf: notes.map { "  - \($0)" })
      }
      return lines.joined(separator: "\n")
    }
  }

  public struct Divergence: Error, Sendable, Equatable {
    /// The step, from 1; 0 for the start state.
    public var step: Int
    /// What differs, with the difference.
    public var message: String
  }

  /// Replays `record` against `reducer`, starting from `feature`'s baseline.
  ///
  /// - Parameters:
  ///   - timeout: How long to wait, in real time, for an effect's action the record has next
  ///     before reporting that the app no longer sends it. Nothing else waits in real time.
  ///   - prepareDependencies: Sets the store's dependencies before the recorded answers are
  ///     put in front of them.
  @MainActor
  public static func replay<R: Reducer>(
    _ record: SessionRecord,
    of feature: RecordedFeature<R.State, R.Action>,
    reducer: R,
    timeout: Duration = .seconds(5),
    withDependencies prepareDependencies: @escaping (inout DependencyValues) -> Void = { _ in }
  ) async -> Report {
    var report = Report(steps: record.steps.count, reproduced: 0, divergence: nil, notes: [])
    let start: R.State
    switch startState(record, feature: feature) {
    case .success(let state): start = state
    case .failure(let divergence):
      report.divergence = divergence
      return report
    }
    let clock = TestClock()
    let store = Store(initialState: start) {
      reducer
    } withDependencies: {
      // Nothing live: every client answers from the record (one the record does not wrap is
      // unimplemented, and says so when called).
      $0.context = .test
      // Stack ids from 0, as the recorded app's were: not the test context's generator, which
      // other stores of the same test share.
      $0.stackElementID = StackElementIDGenerator()
      prepareDependencies(&$0)
      $0.continuousClock = clock
    }
    guard let core = store._rootCore as? RootCore<R.State, R.Action> else {
      report.divergence = Divergence(step: 0, message: "the replay's store is not a root store")
      return report
    }
    let recording = core.startRecording(
      state: { $0 }, action: { $0 }, limit: record.steps.count + 1,
      dependencies: feature.recordClients, replaying: record.answers,
      byEffect: record.effectsNumberedAtStart)
    // The session's time 0 is the clock's start; the replay moves the clock to each step's time.
    // A test clock suspends a sleep whose deadline is its time *now* until it moves again, and
    // the replay moves it to exactly the recorded times, which are sleeps' deadlines: a sleep
    // that starts once the clock is there must end, so it is set a nanosecond earlier.
    let origin = clock.now
    recording.tape.replay?.sleep = { offset in
      try await clock.sleep(
        until: origin.advanced(by: offset - .nanoseconds(1)), tolerance: nil)
    }
    // Effects' actions are reduced in the order the record has them: one an effect sends
    // before its turn waits (effects that answer at the same moment race to send).
    let turns = _ReplayTurns(core: core)
    defer {
      core.removeStepHook()
      core.registry.cancelAll()
    }
    var now = Duration.zero
    for (index, step) in record.steps.enumerated() {
      let number = index + 1
      let expected = step.origin == .effect ? step.action : nil
      turns.open { action in
        expected.map { RecordedValue(reflecting: action) == $0 } ?? false
      }
      let time = Duration(recordedSeconds: step.time)
      recording.tape.replayStepTime.store(time.nanoseconds, ordering: .relaxed)
      if time > now {
        await clock.advance(by: time - now)
        now = time
      }
      if step.origin == .user {
        do {
          let action = try RecordDecoding.decode(R.Action.self, from: step.action)
          guard RecordedValue(reflecting: action) == step.action else {
            report.divergence = Divergence(
              step: number,
              message: "the recorded action cannot be built exactly: built \(dump(action))")
            break
          }
          // What the session's effects called before this step is called again first: a user
          // action that cancels an effect in flight (a newer save replacing an older one) must
          // not come before the call the session saw that effect make.
          await callsMade(before: number, in: recording.tape, timeout: timeout)
          store.send(action)
        } catch {
          report.divergence = Divergence(
            step: number, message: "the recorded action cannot be built again: \(error)")
          break
        }
      }
      guard await arrived(number, in: recording, timeout: timeout) else {
        var message =
          "the app no longer sends the recorded effect action\n" + indent(text(of: step.action))
        if let held = turns.held.first {
          message +=
            "\nit sends this one instead:\n"
            + indent(text(of: RecordedValue(reflecting: held.action)))
        }
        report.divergence = Divergence(step: number, message: message)
        break
      }
      let replayed = recording.recorded(recording.steps[index])
      if let divergence = compare(replayed, step, number: number, of: feature) {
        report.divergence = divergence
        break
      }
      report.reproduced = number
    }
    // Past the record every action is reduced as it comes, held ones first.
    turns.openToAll()
    if let replay = recording.tape.replay {
      // Every call the session made is made again: one answered after the last step may still
      // be on its way; one never made is a difference even when every state matched (a save
      // the app no longer does).
      if report.divergence == nil {
        _ = await eventually(timeout: timeout) { replay.callsNotMade.isEmpty }
      }
      // A call's difference is named at the step its recorded answer came after (within the
      // record): a place the record fixes, however the replay's effects were timed.
      func step(answeredAfter afterStep: Int) -> Int { min(max(afterStep, 1), record.steps.count) }
      // A call with other arguments changed what the app asked of the outside world (a save of
      // other values) even when every state matched, unless a state diverged before.
      if let mismatch = replay.firstArgumentMismatch {
        let at = step(answeredAfter: mismatch.answer.afterStep)
        if at <= report.divergence?.step ?? .max {
          report.divergence = Divergence(step: at, message: mismatch.description)
          report.reproduced = min(report.reproduced, at - 1)
        }
      }
      let notMade = replay.callsNotMade
      if report.divergence == nil, let missing = notMade.first {
        report.divergence = Divergence(
          step: step(answeredAfter: missing.afterStep),
          message: "the app no longer makes the recorded call \(missing.name) (call"
            + " \(missing.call), with \(RecordedValue.array(missing.arguments).json.text)),"
            + " answered after step \(missing.afterStep) in the session"
            + (notMade.count > 1 ? " (and \(notMade.count - 1) more not made)" : ""))
      }
    }
    if report.divergence == nil {
      // What the app sends by itself after the last recorded step, at the same time.
      for _ in 0..<20 { await Task.yield() }
      try? await Task.sleep(for: .milliseconds(20))
      if recording.steps.count > record.steps.count {
        let extra = recording.recorded(recording.steps[record.steps.count])
        report.divergence = Divergence(
          step: record.steps.count + 1,
          message: "after the last recorded step the app sends\n" + indent(text(of: extra.action)))
      }
    }
    report.notes = recording.tape.replay?.notes ?? []
    return report
  }

  /// The state the session started from: today's baseline with the recorded differences from
  /// the recorded baseline made in it (shared values through their references), or the recorded
  /// state built whole. Either must record as the recorded start did.
  @MainActor
  static func startState<State, Action>(
    _ record: SessionRecord, feature: RecordedFeature<State, Action>
  ) -> Result<State, Divergence> {
    var state: State
    do {
      if let recordedBaseline = record.baseline, var baseline = feature.baseline() {
        // A value the session started with and the baseline lacks (a counter with an id of its
        // own) is built from the record; fields added to its type since take today's values.
        let templates = RecordedValue(reflecting: baseline).structTemplates
        for change in RecordedValue.changes(
          from: recordedBaseline.fillingFields(from: templates),
          to: record.initialState.fillingFields(from: templates))
        where !change.isReadOnlyShare {
          try RecordDecoding.patch(&baseline, with: change)
        }
        state = baseline
      } else {
        state = try Self.state(from: record.initialState, of: feature)
      }
    } catch {
      return .failure(Divergence(step: 0, message: "\(error)"))
    }
    let built = RecordedValue(reflecting: state)
    guard
      built.keepingFields(of: record.initialState).withoutReaders
        == record.initialState.withoutReaders
    else {
      return .failure(
        Divergence(
          step: 0,
          message: stateDifference(recorded: record.initialState, replayed: built, of: feature)))
    }
    return .success(state)
  }

  /// A recorded state built as today's `State`: whole when the record has every field today's
  /// state has; else, for a record made before the app gained a field (a feature added since),
  /// today's baseline with what the record has made in it, the new fields keeping their initial
  /// values. Compare it with the record through ``RecordedValue/keepingFields(of:)``.
  public static func state<State, Action>(
    from recorded: RecordedValue, of feature: RecordedFeature<State, Action>
  ) throws -> State {
    do {
      return try RecordDecoding.decode(State.self, from: recorded)
    } catch let whole {
      guard var baseline = feature.baseline() else { throw whole }
      let reflected = RecordedValue(reflecting: baseline)
      let recorded = recorded.fillingFields(from: reflected.structTemplates)
      let today = reflected.keepingFields(of: recorded)
      // If the baseline cannot take the record either, its reason is the one to give: the
      // record has something the app no longer has.
      for change in RecordedValue.changes(from: today, to: recorded)
      where !change.isReadOnlyShare {
        try RecordDecoding.patch(&baseline, with: change)
      }
      return baseline
    }
  }

  /// Waits until the replay has made every dependency call the record answered before `step`,
  /// or `timeout` passed in real time (a call the app no longer makes is reported with the
  /// dependency calls that differ).
  @MainActor
  private static func callsMade(before step: Int, in tape: DependencyTape, timeout: Duration)
    async
  {
    guard let replay = tape.replay else { return }
    _ = await eventually(timeout: timeout) { replay.madeEveryCall(answeredBefore: step) }
  }

  /// Waits until the recording has `count` steps, or `timeout` passed in real time.
  @MainActor
  private static func arrived<State, Action>(
    _ count: Int, in recording: SessionRecording<State, Action>, timeout: Duration
  ) async -> Bool {
    await eventually(timeout: timeout) { recording.steps.count >= count }
  }

  /// Whether `condition` holds within `timeout` of real time: checked after each of the first
  /// 100 yields (what the store's own tasks need), then every millisecond.
  @MainActor
  private static func eventually(timeout: Duration, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + timeout
    var yields = 0
    while !condition() {
      if yields < 100 {
        yields += 1
        await Task.yield()
      } else {
        guard ContinuousClock.now < deadline else { return false }
        try? await Task.sleep(for: .milliseconds(1))
      }
    }
    return true
  }

  private static func compare<State, Action>(
    _ replayed: SessionRecord.Step, _ recorded: SessionRecord.Step, number: Int,
    of feature: RecordedFeature<State, Action>
  ) -> Divergence? {
    if replayed.origin != recorded.origin || replayed.action != recorded.action {
      return Divergence(
        step: number,
        message: """
          the record has this action, sent by \(recorded.origin == .user ? "the user" : "an effect"):
          \(indent(text(of: recorded.action)))
          the app now reduces this one, sent by \(replayed.origin == .user ? "the user" : "an effect"):
          \(indent(text(of: replayed.action)))
          """)
    }
    guard
      replayed.state.keepingFields(of: recorded.state).withoutReaders
        == recorded.state.withoutReaders
    else {
      return Divergence(
        step: number,
        message: "after \(text(of: recorded.action)):\n"
          + stateDifference(recorded: recorded.state, replayed: replayed.state, of: feature))
    }
    return nil
  }

  /// The difference of two states as `TestStore` shows it (`−` recorded, `+` replayed) when the
  /// recorded one can be built again, else the paths that differ with both values.
  /// Both are built as the app's state (``state(from:of:)``), so fields the app gained since
  /// the record show their initial values on both sides.
  static func stateDifference<State, Action>(
    recorded: RecordedValue, replayed: RecordedValue, of feature: RecordedFeature<State, Action>
  ) -> String {
    if let expected = try? state(from: recorded, of: feature),
      let actual = try? state(from: replayed, of: feature),
      let difference = diff(expected, actual, format: .proportional)
    {
      return "the state differs (− recorded, + replayed):\n" + indent(difference)
    }
    let replayed = replayed.keepingFields(of: recorded)
    let lines = RecordedValue.changes(from: recorded, to: replayed).map { change -> String in
      let recordedValue = value(at: change.path[...], in: recorded)
      return """
          \(pathText(change.path))
            − \(recordedValue.map(text(of:)) ?? "(none)")
            + \(text(of: change.value))
        """
    }
    return "the state differs (− recorded, + replayed):\n" + lines.joined(separator: "\n")
  }

  private static func value(
    at path: ArraySlice<RecordedChange.Component>, in value: RecordedValue
  ) -> RecordedValue? {
    guard let first = path.first else { return value }
    switch (value, first) {
    case (.structure(_, let fields, _), .field(let name)):
      return fields.first { $0.label == name }.flatMap {
        Self.value(at: path.dropFirst(), in: $0.value)
      }
    case (.identified(let elements), .element(let id)):
      return elements.first { $0.identity == id }.flatMap {
        Self.value(at: path.dropFirst(), in: $0)
      }
    default:
      return nil
    }
  }

  private static func pathText(_ path: [RecordedChange.Component]) -> String {
    path.map {
      switch $0 {
      case .field(let name): name
      case .element(let id): "[id: \(text(of: id))]"
      }
    }
    .joined(separator: ".")
  }

  static func text(of value: RecordedValue) -> String { value.json.text }

  private static func dump(_ value: Any) -> String {
    var text = ""
    customDump(value, to: &text)
    return text
  }

  private static func indent(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
      .joined(separator: "\n")
  }
}

extension RecordedValue {
  /// This value (the replay's) without the fields of its structs that the same struct in
  /// `recorded` does not have: fields the app gained after the session was recorded — a feature
  /// added since, a field added to a state — start from their initial values in the replay and
  /// are not compared. A field the record has and the app no longer has stays a difference.
  /// Fields come in the record's order.
  public func keepingFields(of recorded: RecordedValue) -> RecordedValue {
    switch (self, recorded) {
    case (.structure(let type, let fields, let isState), .structure(let otherType, let others, _))
    where type == otherType:
      // In the record's order, which a field moved in the source since does not change.
      return .structure(
        type: type,
        fields: others.compactMap { other in
          fields.first { $0.label == other.label }.map {
            Field(other.label, $0.value.keepingFields(of: other.value))
          }
        },
        isState: isState)
    case (.shared(let value, let readOnly), .shared(let other, _)):
      return .shared(value.keepingFields(of: other), readOnly: readOnly)
    case (.enumeration(let name, let payload), .enumeration(let otherName, let others))
    where name == otherName && payload.count == others.count:
      return .enumeration(
        name: name,
        payload: zip(payload, others).map { Field($0.label, $0.value.keepingFields(of: $1.value)) })
    case (.tuple(let fields), .tuple(let others)) where fields.count == others.count:
      return .tuple(
        zip(fields, others).map { Field($0.label, $0.value.keepingFields(of: $1.value)) })
    case (.array(let values), .array(let others)) where values.count == others.count:
      return .array(zip(values, others).map { $0.keepingFields(of: $1) })
    case (.identified(let values), .identified(let others)):
      return .identified(
        values.map { value in
          others.first { $0.identity != nil && $0.identity == value.identity }
            .map { value.keepingFields(of: $0) } ?? value
        })
    case (.stack(let entries), .stack(let others)):
      return .stack(
        entries.map { entry in
          others.first { $0.id == entry.id }.map {
            StackEntry(id: entry.id, element: entry.element.keepingFields(of: $0.element))
          } ?? entry
        })
    default:
      return self
    }
  }

  /// The values this one holds directly: a struct's, a case's or a tuple's fields, a shared
  /// value, the elements of an array, an identified array or a stack. (Dictionaries, alerts and
  /// errors are leaves here.)
  public var children: [RecordedValue] {
    switch self {
    case .structure(_, let fields, _), .enumeration(_, let fields), .tuple(let fields):
      fields.map(\.value)
    case .shared(let value, _): [value]
    case .array(let values), .identified(let values): values
    case .stack(let entries): entries.map(\.element)
    default: []
    }
  }

  /// This value with each of its ``children`` replaced by `transform` of it, labels, ids and
  /// types kept.
  public func mappingChildren(_ transform: (RecordedValue) -> RecordedValue) -> RecordedValue {
    func fields(_ fields: [Field]) -> [Field] {
      fields.map { Field($0.label, transform($0.value)) }
    }
    return switch self {
    case .structure(let type, let fieldList, let isState):
      .structure(type: type, fields: fields(fieldList), isState: isState)
    case .enumeration(let name, let payload): .enumeration(name: name, payload: fields(payload))
    case .tuple(let fieldList): .tuple(fields(fieldList))
    case .shared(let value, let readOnly): .shared(transform(value), readOnly: readOnly)
    case .array(let values): .array(values.map(transform))
    case .identified(let values): .identified(values.map(transform))
    case .stack(let entries):
      .stack(entries.map { StackEntry(id: $0.id, element: transform($0.element)) })
    default: self
    }
  }

  /// The first value of each struct type in this value (today's baseline): where a field the
  /// app gained since a record was made takes its value from.
  public var structTemplates: [String: [Field]] {
    var templates: [String: [Field]] = [:]
    func walk(_ value: RecordedValue) {
      if case .structure(let type, let fields, _) = value, templates[type] == nil {
        templates[type] = fields
      }
      for child in value.children { walk(child) }
    }
    walk(self)
    return templates
  }

  /// This value (a record's) with each struct's missing fields — fields its type gained after
  /// the record was made — taken from the same type's value in `templates`, so that it can be
  /// built as today's type. The fields it has are kept as they are.
  public func fillingFields(from templates: [String: [Field]]) -> RecordedValue {
    let filled = mappingChildren { $0.fillingFields(from: templates) }
    guard case .structure(let type, var fields, let isState) = filled else { return filled }
    for field in templates[type] ?? [] where !fields.contains(where: { $0.label == field.label }) {
      fields.append(field)
    }
    return .structure(type: type, fields: fields, isState: isState)
  }

  /// The value with what `SharedReader`s read left out: a reader follows the value it reads,
  /// which is compared where it is written, and a record keeps a reader projected from another
  /// reference (`$a.b`) with its latest value, not the value at each step.
  var withoutReaders: RecordedValue {
    if case .shared(_, readOnly: true) = self { return .shared(.null, readOnly: true) }
    return mappingChildren(\.withoutReaders)
  }
}

/// A replay's hold on the actions its store's effects send: each is reduced in its turn, the
/// order the record has them, and one sent before its turn waits (``RootCore``'s step hook
/// hands it over, ``_StoreStepHook/admit``).
@MainActor
final class _ReplayTurns<State, Action> {
  private let core: RootCore<State, Action>
  /// Whether an action an effect sent is the one the record has next.
  private var turn: (Action) -> Bool = { _ in true }
  /// Whether ``turn`` closes once it admitted an action (a turn of a recorded step), or admits
  /// all (past the record's end).
  private var admitsOne = false
  /// The actions effects sent before their turn, oldest first, with the task lists of the sends
  /// they belong to and the effects that sent them.
  private(set) var held: [(action: Action, tasks: EffectTaskList, effect: EffectHandle?)] = []

  init(core: RootCore<State, Action>) {
    self.core = core
    // Held strongly: the cycle through the store ends when the replay removes the hook.
    core.stepHook?.admit = { action, tasks, effect in
      MainActor.assumeIsolated { self.admit(action, tasks: tasks, effect: effect) }
    }
  }

  private func admit(_ action: Action, tasks: EffectTaskList, effect: EffectHandle?) -> Bool {
    guard turn(action) else {
      effect?.hold()
      held.append((action, tasks, effect))
      return false
    }
    // A turn admits one action, the step's: an equal one (a timer's next tick) that comes
    // before the replay reaches its own step waits for it.
    if admitsOne { turn = { _ in false } }
    return true
  }

  /// Opens the turn of the next recorded step: `turn` tells its action. Held actions whose turn
  /// it is are reduced now.
  func open(_ turn: @escaping (Action) -> Bool) {
    self.turn = turn
    admitsOne = true
    deliverHeldInTurn()
  }

  /// Past the record every action is reduced as it comes, held ones first.
  func openToAll() {
    turn = { _ in true }
    admitsOne = false
    deliverHeldInTurn()
  }

  /// Reduces the held actions whose turn has come, in the order they were sent; drops those
  /// whose effect was cancelled meanwhile (in the session, the action that cancelled it came
  /// first, and the send was dropped).
  private func deliverHeldInTurn() {
    for held in held where held.effect?.isCancelled == true {
      held.effect?.release(from: core.registry)
    }
    held.removeAll { $0.effect?.isCancelled == true }
    while let index = held.firstIndex(where: { turn($0.action) }) {
      let (action, tasks, effect) = held.remove(at: index)
      effect?.release(from: core.registry)
      guard effect?.isCancelled != true else { continue }
      core.receive(action, tasks: tasks, from: effect)
    }
  }
}
