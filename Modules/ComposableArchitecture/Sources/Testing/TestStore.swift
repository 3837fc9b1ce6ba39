@_spi(Internals) import CasePaths
import Foundation
import Synchronization

/// Tests a feature step by step: every state change, every action its effects send back and every
/// effect still running must be asserted.
///
/// ```swift
/// @MainActor
/// @Test func numberFact() async {
///   let store = TestStore(initialState: Counter.State()) {
///     Counter()
///   } withDependencies: {
///     $0.factClient.fetch = { "\($0) is a good number." }
///   }
///   await store.send(.factButtonTapped) {
///     $0.isLoadingFact = true
///   }
///   await store.receive(\.factResponse.success) {
///     $0.isLoadingFact = false
///     $0.fact = "0 is a good number."
///   }
/// }
/// ```
///
/// Failures are reported through IssueReporting at the line of the step that failed, so they show
/// under Swift Testing and XCTest alike. Dependencies start from their `testValue`: an endpoint a
/// test did not override fails the test when it is called. Tests drive time with `TestClock`; the
/// `timeout` of `receive` and `finish` is only a safety net of real time.
///
/// The store runs effects on the main serial executor, so their order is deterministic. A step
/// waits for what it needs — an action, the end of the effects — by sleeping until the feature
/// does something, and after a step the store yields only until the feature stops doing things;
/// there is no fixed number of yields.
@MainActor
public final class TestStore<State: Equatable, Action> {
  /// How strictly the store checks the feature; `.on` by default.
  public var exhaustivity: Exhaustivity = .on {
    didSet { storage.ledger.setExhaustivity(exhaustivity) }
  }

  /// How long `receive` and `finish` wait, in real time, before failing. One second by default.
  public var timeout: Duration = .seconds(1)

  /// The dependencies of the feature. Changes apply to the actions sent after them.
  public var dependencies: DependencyValues {
    get { core.dependencies }
    set { core.dependencies = newValue }
  }

  /// The state as asserted so far. Inside the assertion closure of a step it is the state before
  /// that step, as the closure receives it.
  public var state: State { storage.state }

  /// Whether the feature dismissed itself with `@Dependency(\.dismiss)` at the root. A dismissed
  /// store accepts no more actions.
  public var isDismissed: Bool { storage.isDismissed }

  @usableFromInline let core: RootCore<State, TestStoreAction<Action>>
  @usableFromInline let storage: TestStoreStorage<State, Action>
  @usableFromInline let location: SourceLocation

  /// Creates a test store.
  ///
  /// `prepareDependencies` runs once, before the initial state and the reducer are built.
  @inlinable
  public init<R: Reducer<State, Action>>(
    initialState: @autoclosure () -> State,
    reducer: () -> R,
    withDependencies prepareDependencies: (inout DependencyValues) -> Void = { _ in },
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    var (initialState, reducer, dependencies) = Dependencies.withDependencies(prepareDependencies) {
      (initialState(), reducer(), DependencyValues._current)
    }
    let storage = TestStoreStorage<State, Action>(state: initialState)
    MainSerialExecutorUsage.acquire(for: ObjectIdentifier(storage))
    storage.ledger.shared.register(initialState)
    // At the root, `dismiss()` dismisses the test store itself.
    let dismiss = dependencies.dismiss
    dependencies.dismiss = DismissEffect { [weak storage] in
      dismiss.dismiss?()
      storage?.dismissed()
    }
    self.storage = storage
    self.location = SourceLocation(
      fileID: fileID, filePath: filePath, line: line, column: column)
    self.core = RootCore(
      initialState: initialState,
      resolveReducer: { resolution in
        let resolved = reducer._resolve(&resolution)
        return _ResolvedReducer { state, testAction in
          let action: Action
          switch testAction {
          case .send(let sent):
            action = sent
          case .receive(let received):
            action = received
          }
          let effect = resolved.run(&state, action)
          return MainActor.assumeIsolated {
            switch testAction {
            case .send:
              storage.state = state
            case .receive(let received):
              storage.receivedActions.append((received, state, storage.ledger.shared.capture()))
              storage.ledger.events.signal()
            }
            return storage.instrument(effect, startedBy: action)
          }
        }
      },
      dependencies: dependencies
    )
  }

  deinit {
    // The end-of-test checks run right here, where the store is released — inside the test,
    // whose task-local context attributes the issues to it. (An `isolated deinit` would run
    // without the releasing task's task-locals.) They read only the `Sendable` ledger.
    storage.ledger.completed(location: location)
    MainSerialExecutorUsage.release(for: ObjectIdentifier(storage))
  }

  // MARK: Sending

  /// Sends an action and asserts how the state changed.
  ///
  /// `updateStateToExpectedResult` gets the state before the action and must turn it into the
  /// state after it. Omit it when the state must not change.
  ///
  /// Inlinable, like the store's send path: the step is specialised in the test's module, with
  /// the effects it starts, instead of running the store's generic code unspecialised.
  @inlinable
  @discardableResult
  public func send(
    _ action: Action,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    guard !isDismissed else {
      fail("Can't send action to dismissed test store.", at: location)
      return TestStoreTask(rawValue: StoreTask(nil), timeout: timeout)
    }
    checkNoPendingReceivedActions(location: location)
    let previousState = storage.state
    // The expected-state closure gets the stack ids the reducer got: a copy of the generator as
    // it was before the send, so `$0.path.append(…)` there makes the same id the reducer made.
    if updateStateToExpectedResult != nil { rememberStackElementIDsBeforeSend() }
    storage.currentLocation = location
    let task = core.send(.send(action))
    let actualState = storage.state
    assertState(
      previous: previousState, actual: actualState, update: updateStateToExpectedResult,
      location: location, usesStackElementIDsBeforeSend: true)
    await Task.settle(storage.ledger.events, whileRunning: storage.ledger.tracker)
    return TestStoreTask(rawValue: task, timeout: timeout)
  }

  /// Sends the action without a payload of a case key path: `send(\.refreshButtonTapped)`.
  @_disfavoredOverload
  @discardableResult
  public func send(
    _ action: CaseKeyPath<Action, Void>,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      CaseEmbedding(action).embed(()), assert: updateStateToExpectedResult, fileID: fileID,
      file: filePath, line: line, column: column)
  }

  /// Sends the action of a case key path with a value: `send(\.binding.displayName, "Blob")`.
  @_disfavoredOverload
  @discardableResult
  public func send<Value>(
    _ action: CaseKeyPath<Action, Value>,
    _ value: Value,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async -> TestStoreTask {
    await send(
      CaseEmbedding(action).embed(value), assert: updateStateToExpectedResult, fileID: fileID,
      file: filePath, line: line, column: column)
  }

  // MARK: Receiving

  /// Asserts that an effect sent `expectedAction` next, and how it changed the state.
  public func receive(
    _ expectedAction: Action,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async where Action: Equatable {
    await receiveAction(
      matching: { $0 == expectedAction },
      describeMismatch: { received in
        diff(expectedAction, received, format: .proportional)
          .map { "\($0.indenting(by: 4))\n\n(Expected: −, Received: +)" }
            ?? """
            Expected:
            \(String(customDumping: expectedAction).indenting(by: 2))

            Received:
            \(String(customDumping: received).indenting(by: 2))
            """
      },
      describeExpectation: {
        "Expected to receive the following action, but didn't:\n\n"
          + String(customDumping: expectedAction).indenting(by: 2)
      },
      timeout: timeout, update: updateStateToExpectedResult,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action matching a predicate next, and how it changed the state.
  @_disfavoredOverload
  public func receive(
    _ isMatching: @escaping (_ action: Action) -> Bool,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    await receiveAction(
      matching: isMatching,
      describeMismatch: Self.describeReceived,
      describeExpectation: {
        "Expected to receive an action matching predicate, but didn't get one."
      },
      timeout: timeout, update: updateStateToExpectedResult,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Asserts that an effect sent an action of a case next: `receive(\.searchResponse.success)`.
  @_disfavoredOverload
  public func receive<Value>(
    _ actionCase: CaseKeyPath<Action, Value>,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let embedding = CaseEmbedding(actionCase)
    await receiveCase(
      { embedding.extract(from: $0) != nil }, timeout: timeout,
      update: updateStateToExpectedResult,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  /// Asserts that the next action is of a case, whichever way the case is named.
  func receiveCase(
    _ isCase: (Action) -> Bool, timeout: Duration?, update: ((inout State) throws -> Void)?,
    location: SourceLocation
  ) async {
    await receiveAction(
      matching: isCase,
      describeMismatch: Self.describeReceived,
      describeExpectation: {
        "Expected to receive an action matching case path, but didn't get one."
      },
      timeout: timeout, update: update, location: location
    )
  }

  /// Asserts that an effect sent an action of a case with a given payload next:
  /// `receive(\.timerTicked, 3)`. A mismatch shows the difference between the whole actions.
  @_disfavoredOverload
  public func receive<Value: Equatable>(
    _ actionCase: CaseKeyPath<Action, Value>,
    _ value: Value,
    timeout: Duration? = nil,
    assert updateStateToExpectedResult: ((_ state: inout State) throws -> Void)? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let embedding = CaseEmbedding(actionCase)
    await receiveAction(
      matching: { embedding.extract(from: $0) == value },
      describeMismatch: { received in
        if let difference = diff(embedding.embed(value), received, format: .proportional) {
          return "\(difference.indenting(by: 2))\n\n(Expected: −, Actual: +)"
        }
        return Self.describeReceived(received)
      },
      describeExpectation: {
        "Expected to receive the following action, but didn't:\n\n"
          + String(customDumping: embedding.embed(value)).indenting(by: 2)
      },
      timeout: timeout, update: updateStateToExpectedResult,
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  private func receiveAction(
    matching isMatching: (Action) -> Bool,
    describeMismatch: (Action) -> String,
    describeExpectation: () -> String,
    timeout: Duration?,
    update: ((inout State) throws -> Void)?,
    location: SourceLocation
  ) async {
    let timeout = timeout ?? self.timeout
    let exhaustive = exhaustivity == .on
    let arrival = await waitForAction(
      until: ContinuousClock.now.advanced(by: timeout),
      condition: { [storage] in
        exhaustive
          ? !storage.receivedActions.isEmpty
          : storage.receivedActions.contains { isMatching($0.action) }
      }
    )
    switch arrival {
    case .arrived:
      break
    case .nothingInFlight:
      fail(describeExpectation(), at: location)
      return
    case .timedOut:
      fail(
        """
        Expected to receive \(exhaustive ? "an action" : "a matching action"), but received \
        none after \(timeout.formattedSeconds).

        \(Self.inFlightSuggestion(customTimeout: timeout != self.timeout))
        """,
        at: location
      )
      return
    }

    if !exhaustive {
      var skipped: [Action] = []
      while let first = storage.receivedActions.first, !isMatching(first.action) {
        storage.receivedActions.removeFirst()
        storage.state = first.state
        storage.ledger.shared.accept(first.shared)
        skipped.append(first.action)
      }
      if !skipped.isEmpty {
        reportSkipped(Self.skippedActionsMessage(skipped), at: location)
      }
    }

    let (receivedAction, receivedState, receivedShared) = storage.receivedActions.removeFirst()
    if !isMatching(receivedAction) {
      // Only the mismatch: the state change belongs to an action nobody expected.
      fail("Received unexpected action:\n\n\(describeMismatch(receivedAction))", at: location)
      storage.ledger.shared.accept(receivedShared)
    } else {
      assertState(
        previous: storage.state, actual: receivedState, actualShared: receivedShared,
        update: update, location: location)
    }
    storage.state = receivedState
    await Task.settle(storage.ledger.events, whileRunning: storage.ledger.tracker)
  }

  /// The received action, for a mismatch message.
  static func describeReceived(_ action: Action) -> String {
    String(customDumping: action).indenting(by: 2)
  }

  private enum Arrival {
    case arrived
    case nothingInFlight
    case timedOut
  }

  /// Waits until `condition` holds, every effect has finished without it holding, or the
  /// deadline passes.
  private func waitForAction(
    until deadline: ContinuousClock.Instant, condition: () -> Bool
  ) async -> Arrival {
    let events = storage.ledger.events
    while !condition() {
      if storage.ledger.tracker.isEmpty {
        // Nothing can deliver an action any more; let what was already sent land, then decide.
        await Task.settle(events, whileRunning: storage.ledger.tracker)
        return condition() ? .arrived : .nothingInFlight
      }
      let seen = events.count
      guard await events.wait(after: seen, until: deadline) else {
        return condition() ? .arrived : .timedOut
      }
    }
    return .arrived
  }

  // MARK: Finishing and skipping

  /// Waits for every in-flight effect to finish; fails the test if some are still running after
  /// `timeout` of real time, and if actions were received that no step asserted.
  public func finish(
    timeout: Duration? = nil,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let timeout = timeout ?? self.timeout
    let events = storage.ledger.events
    let deadline = ContinuousClock.now.advanced(by: timeout)
    await Task.settle(events, whileRunning: storage.ledger.tracker)
    while !storage.ledger.tracker.isEmpty {
      let seen = events.count
      guard await events.wait(after: seen, until: deadline) else {
        guard storage.ledger.tracker.isEmpty else {
          fail(
            """
            Expected effects to finish, but there are still effects in-flight after \
            \(timeout.formattedSeconds).

            \(Self.inFlightSuggestion(customTimeout: timeout != self.timeout))
            """,
            at: location
          )
          return
        }
        break
      }
    }
    await Task.settle(events, whileRunning: storage.ledger.tracker)
    if exhaustivity == .on, !storage.receivedActions.isEmpty {
      fail(
        TestStoreLedger.unexpectedActionsMessage(
          storage.receivedActions.map { debugCaseOutput($0.action, abbreviated: true) }),
        at: location)
    }
  }

  /// Drops the actions received but not yet asserted, moving the state to the last of them.
  ///
  /// With `strict`, having nothing to skip fails the test.
  public func skipReceivedActions(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await Task.settle(storage.ledger.events, whileRunning: storage.ledger.tracker)
    guard let last = storage.receivedActions.last else {
      if strict { fail("There were no received actions to skip.", at: location) }
      return
    }
    storage.state = last.state
    storage.ledger.shared.accept(last.shared)
    let actions = storage.receivedActions.map(\.action)
    storage.receivedActions.removeAll()
    reportSkipped(Self.skippedActionsMessage(actions), at: location, evenWhenExhaustive: true)
  }

  /// Stops tracking the effects still in flight, so that the test may end while they run. The
  /// effects are not cancelled, and what they send can still be received.
  ///
  /// With `strict`, having nothing to skip fails the test.
  public func skipInFlightEffects(
    strict: Bool = true,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) async {
    let location = SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    await Task.settle(storage.ledger.events, whileRunning: storage.ledger.tracker)
    let skipped = storage.ledger.tracker.removeAll()
    guard !skipped.isEmpty else {
      if strict { fail("There were no in-flight effects to skip.", at: location) }
      return
    }
    let origins = skipped.compactMap { storage.origins[$0.id] }
    storage.origins = [:]
    reportSkipped(
      """
      \(skipped.count) in-flight effect\(skipped.count == 1 ? " was" : "s were") cancelled, \
      originating from:

      \(String(customDumping: origins).indenting(by: 2))
      """,
      at: location, evenWhenExhaustive: true)
  }

  // MARK: Assertions

  /// Asserts the current state without sending an action.
  public func assert(
    _ updateStateToExpectedResult: (_ state: inout State) throws -> Void,
    fileID: StaticString = #fileID,
    file filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    withoutActuallyEscaping(updateStateToExpectedResult) { update in
      assertState(
        previous: storage.state, actual: storage.state, update: update,
        location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        expectsChange: false)
    }
  }

  /// Runs `operation` with another exhaustivity, then restores the current one.
  public func withExhaustivity<R>(
    _ exhaustivity: Exhaustivity,
    operation: () async throws -> R
  ) async rethrows -> R {
    let saved = self.exhaustivity
    self.exhaustivity = exhaustivity
    defer { self.exhaustivity = saved }
    return try await operation()
  }

  /// Runs `operation` with the store's dependencies changed by `update`, then restores them.
  public func withDependencies<R>(
    _ update: (inout DependencyValues) throws -> Void,
    operation: () async throws -> R
  ) async rethrows -> R {
    let saved = dependencies
    try update(&dependencies)
    defer { dependencies = saved }
    return try await operation()
  }

  /// Runs a test's state assertion with the store's dependencies, off the main actor.
  private nonisolated static func apply(
    _ update: (inout State) throws -> Void, to state: inout State, dependencies: DependencyValues
  ) throws {
    try DependencyValues.$_current.withValue(dependencies) {
      try update(&state)
    }
  }

  /// Keeps a copy of the stack id generator as it is before a send, for that send's assertion.
  @usableFromInline
  func rememberStackElementIDsBeforeSend() {
    storage.stackGenerationBeforeSend = dependencies.stackElementID.peek().generation
  }

  /// Asserts one step. Shared references compare the value the test last accepted (and changes
  /// in its closure) with the value the step left — `actualShared`, recorded with a received
  /// action, or the live one; afterwards the step's values are accepted.
  @usableFromInline
  func assertState(
    previous: State,
    actual: State,
    actualShared: [ObjectIdentifier: Any]? = nil,
    update: ((inout State) throws -> Void)?,
    location: SourceLocation,
    expectsChange: Bool = true,
    usesStackElementIDsBeforeSend: Bool = false
  ) {
    let shared = storage.ledger.shared
    defer { shared.register(actual) }
    let beforeSend = usesStackElementIDsBeforeSend ? storage.stackGenerationBeforeSend : nil
    storage.stackGenerationBeforeSend = nil
    shared.asserting(expectedFromActual: exhaustivity != .on, actual: actualShared) {
      assertState(
        previous: previous, actual: actual, actualShared: actualShared, update: update,
        location: location, expectsChange: expectsChange, shared: shared,
        stackGeneration: beforeSend)
    }
  }

  private func assertState(
    previous: State,
    actual: State,
    actualShared: [ObjectIdentifier: Any]?,
    update: ((inout State) throws -> Void)?,
    location: SourceLocation,
    expectsChange: Bool,
    shared: SharedChangeTracker,
    stackGeneration: Int?
  ) {
    var threw = false
    let dependencies = self.dependencies
    // While the closure runs, `store.state` is the state it was handed.
    let shown = storage.state
    func apply(_ update: (inout State) throws -> Void, to state: State) -> State {
      var state = state
      storage.state = state
      defer { storage.state = shown }
      do {
        // A closure that appends to a stack takes the ids the reducer took (from the generation
        // before the send), and asserting must not use up the ids the reducer makes next: the
        // generator runs from there for the closure, then is put back.
        try dependencies.stackElementID.running(from: stackGeneration) {
          try XCTModifyLocals.$isExhaustive.withValue(exhaustivity == .on) {
            try Self.apply(update, to: &state, dependencies: dependencies)
          }
        }
      } catch {
        fail("Threw error: \(error)", at: location)
        threw = true
      }
      return state
    }

    switch exhaustivity {
    case .on:
      // Whether the step changed anything, shared state included (measured before the test's
      // closure changes the expected copies).
      let changed = previous != actual || shared.stepChangedAnyReference(in: actual)
      guard let update else {
        if changed {
          fail(
            stateMismatch(
              "State was not expected to change, but a change occurred.", previous, actual),
            at: location)
        }
        return
      }
      let expected = apply(update, to: previous)
      if threw { return }
      if expected != actual {
        fail(
          stateMismatch("A state change does not match expectation.", expected, actual),
          at: location)
      } else if let mismatch = shared.expectationMismatches(in: expected).first {
        fail(sharedMismatch(mismatch), at: location)
      } else if expectsChange, !changed, !shared.stepWroteAnyReference(in: actual) {
        fail(
          """
          Expected state to change, but no change occurred.

          The trailing closure made no observable modifications to state. If no change to state \
          is expected, omit the trailing closure.
          """,
          at: location)
      }

    case .off(let showSkippedAssertions):
      guard let update else { return }
      let expected = apply(update, to: actual)
      if threw { return }
      if expected != actual {
        fail(
          stateMismatch("A state change does not match expectation.", expected, actual),
          at: location)
      } else if let mismatch = shared.expectationMismatches(in: expected).first {
        fail(sharedMismatch(mismatch), at: location)
      } else if showSkippedAssertions {
        shared.restartExpectations(actual: actualShared)
        let exhaustiveExpectation = apply(update, to: previous)
        if exhaustiveExpectation != actual {
          reportSkipped(
            stateMismatch(
              "A state change does not match expectation.", exhaustiveExpectation, actual),
            at: location)
        }
      }
    }
  }

  private func sharedMismatch(_ difference: String) -> String {
    mismatch("A shared state change does not match expectation.", difference: difference)
  }

  private func mismatch(_ message: String, difference: String) -> String {
    "\(message)\n\n\(difference.indenting(by: 4))\n\n(Expected: −, Actual: +)"
  }

  private func stateMismatch(_ message: String, _ expected: State, _ actual: State) -> String {
    if let difference = diff(expected, actual, format: .proportional) {
      return mismatch(message, difference: difference)
    }
    return """
      \(message)

      Expected:
      \(String(customDumping: expected).indenting(by: 2))

      Actual:
      \(String(customDumping: actual).indenting(by: 2))
      """
  }

  @usableFromInline
  func checkNoPendingReceivedActions(location: SourceLocation) {
    guard !storage.receivedActions.isEmpty else { return }
    let actions = storage.receivedActions.map(\.action)
    switch exhaustivity {
    case .on:
      fail(
        """
        Must handle \(actions.count) received action\(actions.count == 1 ? "" : "s") before \
        sending an action.

        Unhandled actions: \(String(customDumping: actions))
        """,
        at: location)
    case .off:
      reportSkipped(Self.skippedActionsMessage(actions), at: location)
      storage.state = storage.receivedActions.last!.state
      storage.ledger.shared.accept(storage.receivedActions.last!.shared)
      storage.receivedActions.removeAll()
    }
  }

  private static func skippedActionsMessage(_ actions: [Action]) -> String {
    """
    \(actions.count) received action\(actions.count == 1 ? " was" : "s were") skipped.

    \(String(customDumping: actions).indenting(by: 2))
    """
  }

  /// The advice of a step that timed out while effects were still running.
  private static func inFlightSuggestion(customTimeout: Bool) -> String {
    """
    There are effects in-flight. If the effect that delivers this action uses a \
    clock/scheduler (via "receive(on:)", "delay", "debounce", etc.), make sure that you wait \
    enough time for it to perform the effect. If you are using a test clock/scheduler, advance \
    it so that the effects may complete, or consider using an immediate clock/scheduler to \
    immediately perform the effect instead.

    \(customTimeout
      ? "If you are not yet using a clock/scheduler, or can not use a clock/scheduler, try increasing the duration of this assertion's \"timeout\"."
      : "If you are not yet using a clock/scheduler, or can not use a clock/scheduler, configure this assertion with an explicit \"timeout\".")
    """
  }

  @usableFromInline
  func fail(_ message: String, at location: SourceLocation) {
    reportIssue(
      message, fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }

  /// An assertion a non-exhaustive store skipped: shown, as an expected issue, only with
  /// `.off(showSkippedAssertions: true)`. `skipReceivedActions` and `skipInFlightEffects` show
  /// what they skipped even on an exhaustive store.
  private func reportSkipped(
    _ message: String, at location: SourceLocation, evenWhenExhaustive: Bool = false
  ) {
    switch exhaustivity {
    case .off(showSkippedAssertions: false):
      return
    case .on where !evenWhenExhaustive:
      return
    default:
      let text = "Skipped assertions.\n\n\(message)"
      if case .xcTest = TestContext.current {
        // XCTest has no expected failures off Apple's systems (wrapping the issue in
        // `withExpectedIssue` fails the test there), so the skipped assertions are shown as a
        // note in the test's output, where XCTest prints its own lines.
        print("\(location.filePath):\(location.line): note: \(text)")
      } else {
        // Swift Testing shows them as a known issue, which does not fail the test.
        withExpectedIssue(isIntermittent: true) {
          reportIssue(
            text, fileID: location.fileID, filePath: location.filePath, line: location.line,
            column: location.column)
        }
      }
    }
  }

}

/// The actions of a test store's inner store: sent by the test, or received from an effect.
@usableFromInline
enum TestStoreAction<Action> {
  case send(Action)
  case receive(Action)
}

/// A test store of a reducer.
public typealias TestStoreOf<R: Reducer> = TestStore<R.State, R.Action> where R.State: Equatable

/// What the test store records while the feature runs.
@MainActor
@usableFromInline
final class TestStoreStorage<State, Action> {
  /// The state as asserted so far.
  ///
  /// The storage lives on the main actor and nothing holds an access to its properties across a
  /// suspension, so they skip the dynamic exclusivity checks (one per read or write otherwise).
  @usableFromInline @exclusivity(unchecked) var state: State
  /// Actions sent by effects and not yet asserted, each with the state right after it and the
  /// values of the shared references then.
  @usableFromInline @exclusivity(unchecked) var receivedActions:
    [(action: Action, state: State, shared: [ObjectIdentifier: Any])] = []
  {
    didSet { ledger.setUnassertedCount(receivedActions.count) }
  }
  /// The generation of the stack id generator before the send being asserted.
  var stackGenerationBeforeSend: Int?
  /// Where the step being run was written, for effects still running at the end.
  @usableFromInline @exclusivity(unchecked) var currentLocation: SourceLocation?
  /// What the end-of-test checks need, readable from `deinit`.
  @usableFromInline let ledger = TestStoreLedger()

  @usableFromInline
  init(state: State) {
    self.state = state
    // Described only if the end of the test finds actions nobody asserted.
    ledger.describeUnasserted = { [weak self] in
      MainActor.assumeIsolated {
        self?.receivedActions.map { debugCaseOutput($0.action, abbreviated: true) } ?? []
      }
    }
  }

  /// The action each tracked effect was started by, for the message of skipped effects.
  @usableFromInline @exclusivity(unchecked) var origins: [Int: Action] = [:]
  /// Whether the feature dismissed itself at the root.
  @exclusivity(unchecked) var isDismissed = false

  /// The feature called `dismiss()` at its root: the store accepts no more actions, and its
  /// effects no longer count as in flight.
  @usableFromInline
  func dismissed() {
    isDismissed = true
    ledger.tracker.removeAll()
  }

  /// Wraps every operation of an effect so that it is tracked while it runs, and routes the
  /// actions it sends back as received actions.
  @inlinable
  func instrument(
    _ effect: Effect<Action>, startedBy action: Action
  ) -> Effect<TestStoreAction<Action>> {
    guard !effect.isNone else { return .none }
    let (tracker, events) = (ledger.tracker, ledger.events)
    let location = currentLocation
    return
      effect
      .mapRuns { run in
        // A presentation's lifetime runs as long as the presentation; it is not in flight.
        guard !run.isLifetime else { return run }
        let id = tracker.insert(location: location)
        origins[id] = action
        let body = run.body
        return run.withBody { send in
          tracker.markStarted(id)
          events.signal()
          // A cancelled effect stops counting as in flight at once, as it stops delivering.
          await withTaskCancellationHandler {
            await body(send)
          } onCancel: {
            tracker.remove(id)
            events.signal()
          }
          tracker.remove(id)
          events.signal()
        }
      }
      .map { TestStoreAction.receive($0) }
  }
}

/// The effects a test store has started and that have not finished yet.
@usableFromInline
final class InFlightEffects: Sendable {
  struct Effect: Sendable {
    let id: Int
    let location: SourceLocation?
    var hasStarted = false
  }

  private let effects = Mutex<(next: Int, running: [Int: Effect])>((0, [:]))

  @usableFromInline
  func insert(location: SourceLocation?) -> Int {
    effects.withLock {
      let id = $0.next
      $0.next += 1
      $0.running[id] = Effect(id: id, location: location)
      return id
    }
  }

  @usableFromInline
  func remove(_ id: Int) {
    _ = effects.withLock { $0.running.removeValue(forKey: id) }
  }

  /// Records that the task of an effect has begun to run.
  @usableFromInline
  func markStarted(_ id: Int) {
    effects.withLock { $0.running[id]?.hasStarted = true }
  }

  /// Whether some effect's task has not begun to run yet.
  var hasUnstarted: Bool {
    effects.withLock { $0.running.values.contains { !$0.hasStarted } }
  }

  /// Stops tracking every effect and returns them, oldest first.
  @discardableResult
  func removeAll() -> [Effect] {
    effects.withLock { state in
      defer { state.running = [:] }
      return state.running.sorted { $0.key < $1.key }.map(\.value)
    }
  }

  var isEmpty: Bool { effects.withLock { $0.running.isEmpty } }
}

/// What a test store must still check when it goes away, kept where `deinit` can read it.
@usableFromInline
final class TestStoreLedger: Sendable {
  @usableFromInline let tracker = InFlightEffects()
  @usableFromInline let events = EffectEvents()
  /// The shared references of the store's state and the values the test accepted.
  @usableFromInline let shared = SharedChangeTracker()
  private let state = Mutex<(exhaustivity: Exhaustivity, unasserted: Int)>((.on, 0))
  private let describer = Mutex<(@Sendable () -> [String])?>(nil)

  /// Describes the actions received and not asserted; set by the store's storage, called on the
  /// main actor (where a test store lives and ends).
  var describeUnasserted: (@Sendable () -> [String])? {
    get { describer.withLock { $0 } }
    set { describer.withLock { $0 = newValue } }
  }

  func setExhaustivity(_ exhaustivity: Exhaustivity) {
    state.withLock { $0.exhaustivity = exhaustivity }
  }

  func setUnassertedCount(_ count: Int) {
    state.withLock { $0.unasserted = count }
  }

  static func unexpectedActionsMessage(_ actions: [String]) -> String {
    """
    The store received \(actions.count) unexpected action\(actions.count == 1 ? "" : "s").

      Unhandled actions:
    \(actions.map { "    \($0)" }.joined(separator: "\n"))

    To fix, explicitly assert against these actions using "store.receive", skip these actions \
    by performing "await store.skipReceivedActions()", or consider using a non-exhaustive test \
    store: "store.exhaustivity = .off".
    """
  }

  /// Fails the test for changes to shared state that no step asserted, then accepts them.
  func checkSharedChanges(location: SourceLocation) {
    let changes = shared.unassertedChanges()
    shared.accept()
    guard !changes.isEmpty else { return }
    reportIssue(
      """
      Test store finished before asserting against changes to shared state.

      \(changes.map { $0.indenting(by: 4) }.joined(separator: "\n\n"))

      (Expected: −, Actual: +)

      Invoke "TestStore.assert" at the end of this test to assert against changes to shared state.
      """,
      fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  }

  /// The end of the test: nothing may be left unasserted.
  func completed(location: SourceLocation) {
    let (exhaustivity, unasserted) = state.withLock { ($0.exhaustivity, $0.unasserted) }
    guard exhaustivity == .on else { return }
    if unasserted == 0 { checkSharedChanges(location: location) }
    if unasserted > 0 {
      let actions =
        Thread.isMainThread
        ? describeUnasserted?() ?? []
        : Array(repeating: "(an action)", count: unasserted)
      reportIssue(
        Self.unexpectedActionsMessage(actions),
        fileID: location.fileID, filePath: location.filePath, line: location.line,
        column: location.column)
    }
    for effect in tracker.removeAll() {
      let at = effect.location ?? location
      reportIssue(
        """
        An effect returned for this action is still running. It must complete before the end \
        of the test.

        To fix, inspect any effects the reducer returns for this action and ensure that all of \
        them complete by the end of the test. There are a few reasons why an effect may not \
        have completed:

        If using async/await in your effect, it may need a little bit of time to properly \
        finish. To fix you can simply perform "await store.finish()" at the end of your test.

        If an effect uses a clock (or scheduler, via "receive(on:)", "delay", "debounce", \
        etc.), make sure that you wait enough time for it to perform the effect. If you are \
        using a test clock/scheduler, advance it so that the effects may complete, or consider \
        using an immediate clock/scheduler to immediately perform the effect instead.

        If you are returning a long-living effect (timers, notifications, subjects, etc.), then \
        make sure those effects are torn down by marking the effect ".cancellable" and \
        returning a corresponding cancellation effect ("Effect.cancel") from another action, \
        or, if your effect is driven by a Combine subject, send it a completion.

        If you do not wish to assert on these effects, perform "await \
        store.skipInFlightEffects()", or consider using a non-exhaustive test store: \
        "store.exhaustivity = .off".
        """,
        fileID: at.fileID, filePath: at.filePath, line: at.line, column: at.column)
    }
  }
}
