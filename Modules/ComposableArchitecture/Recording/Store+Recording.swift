import ComposableArchitecture
import Dependencies
import Foundation

extension Store {
  /// Starts recording this root store's session; returns the recording, which fills as the
  /// store runs. Recording stops with ``stopRecording()``, a new `startRecording`, or when the
  /// store goes away. A store that is not recording pays nothing for the ability.
  ///
  /// While recording, the store's `uuid`, `date` and `continuousClock` are wrapped so that what
  /// they give is kept (the clock then reads the session's virtual time: see
  /// ``DependencyTape``); `dependencies` wraps the clients the same way:
  ///
  /// ```swift
  /// let recording = store.startRecording { values, tape in
  ///   values.factClient = values.factClient.recording(into: tape)
  /// }
  /// ```
  ///
  /// - Parameter limit: The most steps (and dependency answers) kept; past it the recording is
  ///   full (``SessionRecording/isFull``).
  @inlinable
  @discardableResult
  public func startRecording(
    limit: Int = 10_000,
    dependencies: (inout DependencyValues, DependencyTape) -> Void = { _, _ in }
  ) -> SessionRecording<State, Action> {
    guard let core = _rootCore as? RootCore<State, Action> else {
      reportIssue("Only a root store records its session; this store was scoped from another.")
      let recording = SessionRecording<State, Action>(initialState: state, limit: 0)
      recording.markStopped(effectsInFlight: 0)
      return recording
    }
    return core.startRecording(
      state: { $0 }, action: { $0 }, limit: max(0, limit), dependencies: dependencies)
  }

  /// Starts recording one child feature of this root store: its state at `state`, the actions
  /// of case `action`. An action the root's own reducer sends the child (a front end's key map
  /// turning a key into a child action) counts as sent from outside, like a user's.
  ///
  /// ```swift
  /// let recording = store.startRecording(state: \.app, action: \.app) { values, tape in … }
  /// ```
  @inlinable
  @discardableResult
  public func startRecording<ChildState, ChildAction>(
    state: KeyPath<State, ChildState> & Sendable,
    action: CaseKeyPath<Action, ChildAction>,
    limit: Int = 10_000,
    dependencies: (inout DependencyValues, DependencyTape) -> Void = { _, _ in }
  ) -> SessionRecording<ChildState, ChildAction> {
    guard let core = _rootCore as? RootCore<State, Action> else {
      reportIssue("Only a root store records its session; this store was scoped from another.")
      let recording = SessionRecording<ChildState, ChildAction>(
        initialState: self.state[keyPath: state], limit: 0)
      recording.markStopped(effectsInFlight: 0)
      return recording
    }
    let extract = CaseEmbedding(action)
    return core.startRecording(
      state: { $0[keyPath: state] }, action: { extract.extract(from: $0) }, limit: max(0, limit),
      dependencies: dependencies)
  }

  /// Stops the recording in progress, if any, and puts the store's own dependencies back.
  public func stopRecording() {
    (_rootCore as? RootCore<State, Action>)?.removeStepHook()
  }
}

extension StoreActor {
  /// Starts recording this store's session: see `Store.startRecording(limit:dependencies:)`.
  /// Read the recording on the actor (``withRecording(_:)``).
  @inlinable
  @discardableResult
  public func startRecording(
    limit: Int = 10_000,
    dependencies: @Sendable (inout DependencyValues, DependencyTape) -> Void = { _, _ in }
  ) -> SessionRecording<State, Action> {
    _rootCore.startRecording(
      state: { $0 }, action: { $0 }, limit: max(0, limit), dependencies: dependencies)
  }

  /// Stops the recording in progress, if any.
  public func stopRecording() {
    _rootCore.removeStepHook()
  }

}

extension RootCore {
  /// Starts recording the session (stopping a recording in progress): the recorded feature's
  /// state now, then its every step, with the dependencies wrapped so that their answers are
  /// kept. `state` and `action` pick the recorded feature out of the root (the root itself by
  /// default). The recording is the store's step hook until it stops.
  @inlinable
  func startRecording<Child, ChildAction>(
    state toChild: @escaping (State) -> Child,
    action extract: @escaping (Action) -> ChildAction?,
    limit: Int, dependencies prepare: (inout DependencyValues, DependencyTape) -> Void,
    replaying answers: [SessionRecord.Answer]? = nil, byEffect: Bool = false
  ) -> SessionRecording<Child, ChildAction> {
    removeStepHook()
    let recording = SessionRecording<Child, ChildAction>(
      initialState: toChild(state), limit: limit, replaying: answers, byEffect: byEffect)
    let original = dependencies
    let tape = recording.tape
    var recorded = original
    // Read when called, not now: a dependency the session never uses is never read.
    recorded.uuid = UUIDGenerator { tape.record("uuid") { original.uuid() } }
    recorded.date = DateGenerator { tape.record("date") { original.date.now } }
    recorded.continuousClock = _RecordingClock(base: { original.continuousClock }, tape: tape)
    prepare(&recorded, tape)
    recording.countRunningEffects = { [weak self] in self?.registry.runningCount ?? 0 }
    let hook = _StoreStepHook<State, Action>(
      didReduce: { action, state, fromEffect, effect in
        // What an effect woken by a sleep sent has been reduced: the next sleep may end.
        if let effect { tape.sleeps.noteActivity(of: effect) }
        guard let child = extract(action) else { return false }
        recording.append(
          child, state: toChild(state), origin: fromEffect ? .effect : .user,
          effect: effect.map { tape.number(of: $0) })
        return true
      },
      // Numbered as they start, in the order of the steps that start them.
      effectStarted: { _ = tape.number(of: $0) },
      stop: { recording.markStopped(effectsInFlight: $0) })
    setStepHook(hook, dependencies: recorded)
    return recording
  }
}
