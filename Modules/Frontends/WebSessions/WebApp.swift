import ComposableArchitecture
import ComposableRecording
import Foundation
import NIOCore
import Synchronization
import WebFrontend

/// The root feature a server serves, with its type erased: its web API (the action catalogue, the
/// decoder, the state JSON and its schema), its page (the frame with its features' sections), what
/// a session sends when it starts, and what of its state is saved so that a session survives a
/// restart.
///
/// The server, its routes and its sessions know no feature: the executable hands them a
/// `WebApp` — the whole app, or one feature alone in a preview server.
///
/// ```swift
/// let app = WebApp(
///   Home(), title: "Home", initialState: { Home.State() }, api: Home.webAPI, start: .task,
///   kept: \.kept, restore: { .restore($0) })
/// ```
public struct WebApp: Sendable {
  /// Every action the API accepts, with its fields (`GET /api/actions`).
  public let catalogue: [ActionDescription]
  /// The JSON Schema of the state JSON (`GET /api/state-schema`).
  public let schema: Data
  /// The page: the frame and a section per feature of the API that has one.
  public let page: WebPage
  package let decodeAction: @Sendable (ByteBufferView) throws(DecodingFailure) -> UserAction
  package let readSaved: @Sendable (Data) throws -> AnyResumedState
  package let makeDriver:
    @Sendable (_ dependencies: @escaping DependencyOverrides) -> any SessionDriver
  /// Whether a session of this app can be recorded (it was given a ``RecordedFeature``).
  public let canRecord: Bool

  /// The app of `root`.
  ///
  /// - Parameters:
  ///   - root: the root reducer each session's store runs.
  ///   - title: the page's title.
  ///   - initialState: a new session's state (made with the session's dependencies).
  ///   - api: the routes, views and page sections of the root's features.
  ///   - start: sent when a session starts, after `restore` for a resumed one (loading what the
  ///     visitor kept); the session's first answer waits for its effects.
  ///   - kept: what of the state a session saves; written as JSON when it changes.
  ///   - restore: the action that puts a saved `Kept` back, sent first in a resumed session.
  ///   - recorded: how a visitor's session is recorded and written as a test, on a server that
  ///     allows it (`--allow-recording`); `nil`: sessions of this app are not recorded.
  public init<Root: Reducer & Sendable, Kept: Codable & Equatable & Sendable>(
    _ root: Root,
    title: String,
    initialState: @escaping @Sendable () -> Root.State,
    api: WebAPI<Root>,
    start: Root.Action? = nil,
    kept: @escaping @Sendable (Root.State) -> Kept,
    restore: @escaping @Sendable (Kept) -> Root.Action,
    recorded: RecordedFeature<Root.State, Root.Action>? = nil
  ) where Root.State: Sendable, Root.Action: Sendable {
    self.init(
      root, title: title, initialState: initialState, api: api, start: start, kept: kept,
      restore: Optional(restore), recorded: recorded)
  }

  /// The app of `root`, of which nothing is saved: a session resumed after a restart starts
  /// from `initialState` again (a feature's preview).
  public init<Root: Reducer & Sendable>(
    _ root: Root,
    title: String,
    initialState: @escaping @Sendable () -> Root.State,
    api: WebAPI<Root>,
    start: Root.Action? = nil,
    recorded: RecordedFeature<Root.State, Root.Action>? = nil
  ) where Root.State: Sendable, Root.Action: Sendable {
    self.init(
      root, title: title, initialState: initialState, api: api, start: start,
      kept: { _ in NothingKept() }, restore: nil, recorded: recorded)
  }

  private init<Root: Reducer & Sendable, Kept: Codable & Equatable & Sendable>(
    _ root: Root,
    title: String,
    initialState: @escaping @Sendable () -> Root.State,
    api: WebAPI<Root>,
    start: Root.Action?,
    kept: @escaping @Sendable (Root.State) -> Kept,
    restore: (@Sendable (Kept) -> Root.Action)?,
    recorded: RecordedFeature<Root.State, Root.Action>?
  ) where Root.State: Sendable, Root.Action: Sendable {
    self.canRecord = recorded != nil
    self.catalogue = api.catalogue
    self.schema = api.schema
    self.page = WebPage(title: title, sections: api.sections)
    self.decodeAction = { bytes throws(DecodingFailure) in try api.decode(bytes) }
    self.readSaved = { data in AnyResumedState(try JSONDecoder().decode(Kept.self, from: data)) }
    // One for every session of the app.
    let parts = RootParts(
      root: root, api: api, start: start, kept: kept, restore: restore, recorded: recorded)
    self.makeDriver = { dependencies in
      RootDriver(
        parts: parts, initialState: initialState,
        dependencies: withDependencies(dependencies) { DependencyValues._current })
    }
  }
}

/// What an app that keeps nothing saves: `{}`.
private struct NothingKept: Codable, Equatable, Sendable {}

/// A kept state read back from the saved sessions, its type erased until the session's driver
/// takes it.
package struct AnyResumedState: Sendable {
  /// A `Kept` of the app that read it.
  package let value: any Sendable

  package init(_ value: some Sendable) {
    self.value = value
  }
}

/// What a session saves of one state, its type erased: compared with the last one saved (only a
/// change is written), and written as JSON by the archive's writer.
package struct AnyKeptState: Sendable {
  package let value: any Equatable & Sendable
  package let encode: @Sendable () throws -> Data

  package init<Kept: Codable & Equatable & Sendable>(_ kept: Kept) {
    self.value = kept
    self.encode = { try JSONWriter.encode(kept) }
  }

  /// Whether `other` holds the same value.
  package func isSame(as other: AnyKeptState) -> Bool {
    value.isEqual(to: other.value)
  }
}

extension Equatable {
  fileprivate func isEqual(to other: any Equatable) -> Bool {
    (other as? Self) == self
  }
}

/// The part of a session that knows its root feature: the store, the API that reads actions and
/// writes the state, what is kept.
package protocol SessionDriver: AnyObject, Sendable {
  /// Puts back `saved` (a resumed session) and sends the start action, waiting for its effects.
  func begin(restoring saved: AnyResumedState?) async
  /// Publishes the state to `session` (unless `publishingNow` is `false`: a driver woken from
  /// sleep, whose state the session has), then every state after a send; returns the
  /// observation.
  func attach(_ session: Session, publishingNow: Bool) async -> StoreActorObserveToken
  /// How many sends the store has reduced since the driver was attached.
  var sendCount: Int { get }
  /// The state of an idle store that is not being recorded, and how to build the store again
  /// from it (``SessionSleep``); `nil` when the store has effects in flight or is recorded.
  func sleep() async -> (any SessionSleep)?
  /// Checks `action` against the current state and sends it, on the store's actor, and returns
  /// the snapshot `session` published for it.
  func apply(_ action: UserAction, in session: Session) async throws(SessionError) -> Snapshot?
  /// A saved state as the session compares it with the next one to save.
  func keptState(of saved: AnyResumedState) -> AnyKeptState?
  /// Starts recording the session (over again, if it was); 409 when the app cannot be recorded.
  func startRecording(limit: Int) async throws(SessionError) -> RecordingStatus
  /// Stops recording and forgets the recording.
  func stopRecording() async
  func recordingStatus() async -> RecordingStatus
  /// The record so far; 404 when the session is not being recorded.
  func record() async throws(SessionError) -> SessionRecordWithImports
  /// The record's step lines after the first `count`; 404 when the session is not being
  /// recorded.
  func recordSteps(after count: Int) async throws(SessionError) -> String
}

/// A session's store put to sleep: its state and dependencies, kept while the store and its
/// reducers are released, and how to build them again around it.
package protocol SessionSleep: AnyObject, Sendable {
  /// The driver's ``SessionDriver/sendCount`` when the state was taken: a send after it means
  /// the state is out of date.
  var sendCount: Int { get }
  /// Whether the state is kept whole (a value), not as its changes from the app's baseline.
  var keepsStateWhole: Bool { get }
  /// A new driver whose store starts from the kept state, with the same dependencies.
  func wake() -> any SessionDriver
  /// The kept state's JSON, written between `prefix` and `suffix`, as ``WebAPI`` writes it.
  func stateJSON(prefix: Data, suffix: Data) -> StateJSON
}

/// What every session of a root feature shares: the reducer, the API, the start action, what is
/// kept and how it is restored, how sessions are recorded.
package final class RootParts<Root: Reducer & Sendable, Kept: Codable & Equatable & Sendable>:
  Sendable
where Root.State: Sendable, Root.Action: Sendable {
  package let root: Root
  package let api: WebAPI<Root>
  package let start: Root.Action?
  package let kept: @Sendable (Root.State) -> Kept
  package let restore: (@Sendable (Kept) -> Root.Action)?
  package let recorded: RecordedFeature<Root.State, Root.Action>?
  /// What a sleeping session's state is kept as the difference from: the recorded feature's
  /// baseline; `nil` when the app is not recorded (its sleeping sessions keep their state).
  package let sleepBaseline: StateDifference<Root.State>.Baseline?

  package init(
    root: Root, api: WebAPI<Root>, start: Root.Action?,
    kept: @escaping @Sendable (Root.State) -> Kept, restore: (@Sendable (Kept) -> Root.Action)?,
    recorded: RecordedFeature<Root.State, Root.Action>?
  ) {
    self.root = root
    self.api = api
    self.start = start
    self.kept = kept
    self.restore = restore
    self.recorded = recorded
    self.sleepBaseline = recorded.flatMap { recorded in
      recorded.baseline() == nil ? nil : .init { recorded.baseline()! }
    }
  }
}

/// A root feature's session asleep: its state and prepared dependencies, nothing else. The
/// state is kept as its difference from the app's baseline where that builds it again exactly
/// (a few hundred bytes instead of kilobytes), else as the value.
package final class RootSleep<Root: Reducer & Sendable, Kept: Codable & Equatable & Sendable>:
  SessionSleep
where Root.State: Sendable, Root.Action: Sendable {
  package let parts: RootParts<Root, Kept>
  let kept: KeptAsleep
  package let dependencies: DependencyValues
  package let sendCount: Int

  enum KeptAsleep {
    case value(Root.State)
    case difference(StateDifference<Root.State>, from: StateDifference<Root.State>.Baseline)
  }

  package init(
    parts: RootParts<Root, Kept>, state: Root.State, dependencies: DependencyValues,
    sendCount: Int
  ) {
    self.parts = parts
    // Built in the session's dependencies, as the state was: a shared value a key names is
    // the session's own.
    let difference = parts.sleepBaseline.flatMap { baseline in
      withDependencies {
        $0 = dependencies
      } operation: {
        StateDifference(state, from: baseline).map { KeptAsleep.difference($0, from: baseline) }
      }
    }
    self.kept = difference ?? .value(state)
    self.dependencies = dependencies
    self.sendCount = sendCount
  }

  package var keepsStateWhole: Bool {
    if case .value = kept { true } else { false }
  }

  /// The state kept. A difference was built into this very state once before it was kept, from
  /// a baseline that is made the same each time, so building it again cannot fail.
  package var state: Root.State {
    switch kept {
    case .value(let state): return state
    case .difference(let difference, let baseline):
      do {
        return try withDependencies {
          $0 = dependencies
        } operation: {
          try difference.state(from: baseline)
        }
      } catch {
        preconditionFailure("a sleeping session's state, checked when kept, is lost: \(error)")
      }
    }
  }

  package func wake() -> any SessionDriver {
    let state = self.state
    return RootDriver(parts: parts, initialState: { state }, dependencies: dependencies)
  }

  package func stateJSON(prefix: Data, suffix: Data) -> StateJSON {
    // With no previous JSON every part is written, so there is always an answer.
    parts.api.stateJSON(state, after: nil, prefix: prefix, suffix: suffix)!
  }
}

/// Whether a session is being recorded, and how far: `{"recording":true,"steps":12,"limit":2000,
/// "full":false}`.
package struct RecordingStatus: Encodable, Equatable, Sendable {
  package var recording: Bool
  package var steps: Int
  package var limit: Int?
  package var full: Bool
}

/// A session's record, with the modules a test written from it imports.
package struct SessionRecordWithImports: Sendable {
  package var record: SessionRecord
  package var testImports: [String]
}

/// The driver of a root reducer's sessions.
package final class RootDriver<Root: Reducer & Sendable, Kept: Codable & Equatable & Sendable>:
  SessionDriver
where Root.State: Sendable, Root.Action: Sendable {
  package let store: StoreActorOf<Root>
  /// What every session of the app shares.
  package let parts: RootParts<Root, Kept>
  /// The recording in progress, read and replaced on the store's actor only.
  private let recording = Mutex<SessionRecording<Root.State, Root.Action>?>(nil)
  /// The session's dependencies, prepared once: a store woken from sleep gets the same values
  /// (the same generators, the same clients), not the overrides applied again.
  private let dependencies: DependencyValues
  private let sends = Atomic<Int>(0)

  package var api: WebAPI<Root> { parts.api }
  package var start: Root.Action? { parts.start }
  package var kept: @Sendable (Root.State) -> Kept { parts.kept }
  package var restore: (@Sendable (Kept) -> Root.Action)? { parts.restore }
  package var recorded: RecordedFeature<Root.State, Root.Action>? { parts.recorded }

  /// A driver whose store starts from `initialState`, which is made with `dependencies` in
  /// effect (`StoreActor` makes it in them).
  package init(
    parts: RootParts<Root, Kept>, initialState: @Sendable () -> Root.State,
    dependencies: DependencyValues
  ) {
    self.store = StoreActor(initialState: initialState()) {
      parts.root
    } withDependencies: {
      $0 = dependencies
    }
    self.parts = parts
    self.dependencies = dependencies
  }

  package func begin(restoring saved: AnyResumedState?) async {
    let restoring = restore.flatMap { restore in saved.flatMap { $0.value as? Kept }.map(restore) }
    await Self.begin(store, restoring: restoring, start: start)
  }

  private static func begin(
    _ store: isolated StoreActorOf<Root>, restoring: Root.Action?, start: Root.Action?
  ) async {
    // Not awaited to the end: a timer that runs again never finishes.
    if let restoring { store.send(restoring) }
    if let start { await store.send(start).finish() }
  }

  package func attach(_ session: Session, publishingNow: Bool) async -> StoreActorObserveToken {
    await Self.attach(session, to: store, driver: self, publishingNow: publishingNow)
  }

  private static func attach(
    _ session: Session, to store: isolated StoreActorOf<Root>, driver: RootDriver,
    publishingNow: Bool
  ) -> StoreActorObserveToken {
    if publishingNow { driver.publish(store.state, to: session) }
    return store.observeSends { [weak session] state in
      driver.sends.add(1, ordering: .relaxed)
      guard let session else { return }
      driver.publish(state, to: session)
    }
  }

  package var sendCount: Int { sends.load(ordering: .relaxed) }

  package func sleep() async -> (any SessionSleep)? {
    guard recording.withLock({ $0 == nil }) else { return nil }
    guard let state = await Self.idleState(store) else { return nil }
    // What the new driver needs, and nothing of this one: the old store is released.
    return RootSleep(
      parts: parts, state: state, dependencies: dependencies, sendCount: sendCount)
  }

  private static func idleState(_ store: isolated StoreActorOf<Root>) -> Root.State? {
    store.isIdle ? store.state : nil
  }

  private func publish(_ state: Root.State, to session: Session) {
    session.publish(
      { previous, prefix, suffix in
        api.stateJSON(state, after: previous, prefix: prefix, suffix: suffix)
      },
      kept: { AnyKeptState(kept(state)) })
  }

  package func keptState(of saved: AnyResumedState) -> AnyKeptState? {
    (saved.value as? Kept).map { AnyKeptState($0) }
  }

  // MARK: Recording

  package func startRecording(limit: Int) async throws(SessionError) -> RecordingStatus {
    guard let recorded else { throw SessionError.recordingOff }
    return await Self.startRecording(store, limit: limit, recorded: recorded, driver: self)
  }

  private static func startRecording(
    _ store: isolated StoreActorOf<Root>, limit: Int,
    recorded: RecordedFeature<Root.State, Root.Action>, driver: RootDriver
  ) -> RecordingStatus {
    let recording = store.startRecording(limit: limit, dependencies: recorded.recordClients)
    driver.recording.withLock { $0 = recording }
    return RecordingStatus(recording: true, steps: 0, limit: limit, full: false)
  }

  package func stopRecording() async {
    await Self.stopRecording(store, driver: self)
  }

  private static func stopRecording(_ store: isolated StoreActorOf<Root>, driver: RootDriver) {
    store.stopRecording()
    driver.recording.withLock { $0 = nil }
  }

  package func recordingStatus() async -> RecordingStatus {
    await Self.recordingStatus(store, driver: self)
  }

  private static func recordingStatus(_ store: isolated StoreActorOf<Root>, driver: RootDriver)
    -> RecordingStatus
  {
    guard let recording = driver.recording.withLock({ $0 }) else {
      return RecordingStatus(recording: false, steps: 0, limit: nil, full: false)
    }
    return RecordingStatus(
      recording: true, steps: recording.steps.count, limit: recording.limit,
      full: recording.isFull)
  }

  package func record() async throws(SessionError) -> SessionRecordWithImports {
    guard let recorded, let record = await Self.record(store, recorded: recorded, driver: self)
    else { throw SessionError.notRecording }
    return SessionRecordWithImports(record: record, testImports: recorded.testImports(record))
  }

  package func recordSteps(after count: Int) async throws(SessionError) -> String {
    guard let lines = await Self.recordSteps(store, after: count, driver: self) else {
      throw SessionError.notRecording
    }
    return lines
  }

  private static func recordSteps(
    _ store: isolated StoreActorOf<Root>, after count: Int, driver: RootDriver
  ) -> String? {
    driver.recording.withLock { $0 }?.stepLines(after: count)
  }

  private static func record(
    _ store: isolated StoreActorOf<Root>, recorded: RecordedFeature<Root.State, Root.Action>,
    driver: RootDriver
  ) -> SessionRecord? {
    guard let recording = driver.recording.withLock({ $0 }) else { return nil }
    return recorded.record(recording)
  }

  package func apply(_ action: UserAction, in session: Session) async throws(SessionError)
    -> Snapshot?
  {
    try await Self.apply(action, to: store, api: api, in: session, driver: self)
  }

  private static func apply(
    _ action: UserAction, to store: isolated StoreActorOf<Root>, api: WebAPI<Root>,
    in session: Session, driver: RootDriver
  ) async throws(SessionError) -> Snapshot? {
    let send = { () throws(SessionError) in
      do throws(ActionRefusal) {
        store.send(try api.rootAction(for: action, in: store.state))
      } catch {
        throw SessionError.refused(error)
      }
    }
    if let recording = driver.recording.withLock({ $0 }) {
      // Recorded, the action is a step a test clock would order the same way (it may wait for
      // an effect a sleep just woke).
      try await recording.userStep(send)
    } else {
      try send()
    }
    return session.snapshot
  }
}
