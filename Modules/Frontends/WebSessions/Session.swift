import ComposableArchitecture
import ComposableRecording
import Foundation
import Logging
import Synchronization
import WebFrontend

/// One visitor's running app: a root store of the server's ``WebApp`` on an actor of its own
/// (`StoreActor`, held by the session's ``SessionDriver``), so that sessions reduce in parallel
/// on every core and a slow one stalls no other; and the event streams open on it.
///
/// Every change of the store's state is published on the store's actor, in order: it gets the
/// next revision and goes to every event stream. The session's own bookkeeping (last activity,
/// streams, the last snapshot) is behind a lock, so reading it needs no hop to the actor.
/// ``end()`` releases the store, which cancels every effect it started (a running timer stops,
/// requests in flight are cancelled).
///
/// A session whose visitor is away may be put to sleep (``sleep()``): when its store has nothing
/// in flight, only its state and its prepared dependencies are kept — the store, its reducers
/// and the snapshot JSON are released; the next request that needs the store builds a new one
/// from that state. Reading the state and opening an event stream do not need the store: they
/// get the state's JSON written anew.
package final class Session: Sendable {
  package let id: SessionID
  /// The network of the client that created it (``ClientNetwork/network``), for a fair share of
  /// the session table; `nil` for a resumed session.
  package let network: String?
  /// The session's name in logs: a serial number, because the id is a secret.
  package let logName: String
  private let bookkeeping: Mutex<Bookkeeping>

  private struct Bookkeeping {
    /// The store and what knows its root; `nil` while asleep and once the session has ended.
    var driver: (any SessionDriver)?
    var observation: StoreActorObserveToken?
    /// The state of the store put to sleep, or the waking of a new store from it.
    var sleep: Sleep?
    /// How many requests are using the driver: a session is not put to sleep under them.
    var busy = 0
    var isEnded = false
    var lastActivity: ContinuousClock.Instant
    var subscribers: [Int: AsyncStream<SessionEvent>.Continuation] = [:]
    var nextSubscriberID = 0
    var lastSnapshot: Snapshot?
    /// The JSON of the last snapshot's state, feature by feature (written by ``publish(_:)``
    /// only).
    var stateJSON: StateJSON?
    /// The revision before the first snapshot (0, or the saved revision of a resumed session),
    /// and the revision of the state kept asleep.
    var baseRevision: Int
    var saving: Saving?
  }

  private enum Sleep {
    case asleep(any SessionSleep)
    /// Requests that need the store meanwhile wait for this task, which builds it.
    case waking(Task<Void, Never>, any SessionSleep)

    var kept: any SessionSleep {
      switch self {
      case .asleep(let sleep), .waking(_, let sleep): sleep
      }
    }
  }

  /// What the session saves to its archive, and who waits for it.
  private struct Saving {
    let savedSessions: SavedSessions
    let visitor: VisitorID
    /// The last part of the state handed to the archive, with its revision.
    var last: AnyKeptState?
    var requestedRevision: Int
    var savedRevision: Int
    /// Whether a write failed since every state was last saved: the page then heard "not
    /// saved", and hears ``SessionEvent/saved(revision:)`` once everything is.
    var hasFailed = false
    /// Whether the storage refused a write because another copy of the session holds it now:
    /// nothing this copy does is saved any more, and it is dropped.
    var isSuperseded = false
    var waiters: [Int: Waiter] = [:]
    var nextWaiterID = 0
  }

  /// A request waiting until `revision` is saved; its timeout is removed when the write is done
  /// first.
  private struct Waiter {
    let revision: Int
    let continuation: CheckedContinuation<SaveOutcome, Never>
    var timeout: Timeouts.Token?
  }

  /// What became of the states a request waited for.
  package enum SaveOutcome: Equatable, Sendable {
    case saved
    /// The write failed (what the storage said); the writer tries again.
    case failed(String)
    /// Not written within the request's time.
    case timedOut
    /// Never to be written: another copy of the session (on another instance, or resumed here
    /// after a move) took it over; this copy is stale.
    case superseded
  }

  /// How the session begins: new, or resumed from what its archive saved.
  package enum Beginning {
    case new
    case resumed(revision: Int, AnyResumedState)
  }

  private let beginning: Beginning
  /// This copy of the session, among every copy that ever ran (created, or resumed here or on
  /// another instance): the snapshots' generation, and the holder its saves carry
  /// (``SavedSessions/SavedSession/holder``). Twelve letters and digits: kept inline, no
  /// allocation.
  package let generation: String
  private let logger: Logger
  /// Called once when the storage refuses a save of this copy because another copy holds the
  /// session: the registry drops it.
  private let superseded: @Sendable (Session) -> Void

  package init(
    id: SessionID,
    serial: Int,
    network: String? = nil,
    now: ContinuousClock.Instant,
    beginning: Beginning = .new,
    savedSessions: (SavedSessions, VisitorID)? = nil,
    generation: String = Session.newGeneration(),
    logger: Logger = Logger(label: "web-frontend.sessions"),
    app: WebApp,
    dependencies: @escaping DependencyOverrides,
    superseded: @escaping @Sendable (Session) -> Void = { _ in }
  ) {
    self.id = id
    self.network = network
    self.logName = "#\(serial)"
    self.beginning = beginning
    self.logger = logger
    self.generation = generation
    self.superseded = superseded
    let driver = app.makeDriver(dependencies)
    var baseRevision = 0
    // A resumed session's saved state is its last one kept: the same state is not written again.
    var lastSaved: AnyKeptState?
    if case .resumed(let revision, let saved) = beginning {
      (baseRevision, lastSaved) = (revision, driver.keptState(of: saved))
    }
    self.bookkeeping = Mutex(
      Bookkeeping(
        driver: driver, lastActivity: now, baseRevision: baseRevision,
        saving: savedSessions.map { savedSessions, visitor in
          Saving(
            savedSessions: savedSessions, visitor: visitor, last: lastSaved,
            requestedRevision: baseRevision,
            savedRevision: baseRevision)
        }))
  }

  /// A name for a new copy of a session: twelve random hexadecimal digits.
  package static func newGeneration() -> String {
    String(SessionID().rawValue.prefix(12))
  }

  /// Loads what the visitor kept (favorites, settings) — after putting back the saved state of a
  /// resumed session — then publishes the state and starts publishing every change; returns the
  /// first snapshot.
  package func start() async throws(SessionError) -> Snapshot {
    try await withDriver { driver throws(SessionError) in
      if case .resumed(_, let saved) = beginning {
        await driver.begin(restoring: saved)
      } else {
        await driver.begin(restoring: nil)
      }
      let observation = await driver.attach(self, publishingNow: true)
      bookkeeping.withLock { $0.observation = observation }
      guard let snapshot else { throw SessionError.unknownSession }
      return snapshot
    }
  }

  // MARK: The store, awake or asleep

  /// Runs `body` with the session's driver, waking the store first if it sleeps; the session
  /// does not go to sleep meanwhile. Throws 404 once the session has ended.
  private func withDriver<Result>(
    _ body: (any SessionDriver) async throws(SessionError) -> Result
  ) async throws(SessionError) -> Result {
    let driver = try await acquireDriver()
    defer { bookkeeping.withLock { $0.busy -= 1 } }
    return try await body(driver)
  }

  private enum Acquisition {
    case ready(any SessionDriver)
    case wait(Task<Void, Never>)
    case ended
  }

  private func acquireDriver() async throws(SessionError) -> any SessionDriver {
    while true {
      let acquisition = bookkeeping.withLock { state -> Acquisition in
        guard !state.isEnded else { return .ended }
        if let driver = state.driver {
          state.busy += 1
          return .ready(driver)
        }
        switch state.sleep {
        case .waking(let task, _):
          return .wait(task)
        case .asleep(let sleep):
          let task = Task { await self.wake(sleep) }
          state.sleep = .waking(task, sleep)
          return .wait(task)
        case nil:
          return .ended
        }
      }
      switch acquisition {
      case .ready(let driver):
        return driver
      case .wait(let task):
        await task.value
      case .ended:
        throw SessionError.unknownSession
      }
    }
  }

  /// Builds a new store from the state kept asleep, and its snapshot JSON; the session's
  /// state, revision and event streams stay as they were.
  private func wake(_ sleep: any SessionSleep) async {
    let revision = bookkeeping.withLock { $0.baseRevision }
    let json = stateJSON(of: sleep, revision: revision)
    let driver = sleep.wake()
    let observation = await driver.attach(self, publishingNow: false)
    let isAwake = bookkeeping.withLock { state -> Bool in
      guard !state.isEnded else { return false }
      state.driver = driver
      state.observation = observation
      state.sleep = nil
      // As a compacted session's: the next change is compared by its bytes.
      state.stateJSON = json.compacted()
      state.lastSnapshot = Snapshot(revision: revision, generation: generation, written: json)
      return true
    }
    if !isAwake { observation.cancel() }
  }

  /// The snapshot of a state kept asleep, written anew: a sleeping session keeps no JSON.
  private func snapshot(of sleep: any SessionSleep, revision: Int) -> Snapshot {
    Snapshot(
      revision: revision, generation: generation,
      written: stateJSON(of: sleep, revision: revision))
  }

  /// The JSON of a state kept asleep, inside the envelope of the snapshot of `revision`.
  private func stateJSON(of sleep: any SessionSleep, revision: Int) -> StateJSON {
    sleep.stateJSON(
      prefix: Snapshot.prefix(revision: revision), suffix: Snapshot.suffix(generation: generation)
    )
  }

  /// The state kept asleep and its revision, when the session has no snapshot of its own.
  private func sleepingState() -> (any SessionSleep, Int)? {
    bookkeeping.withLock { state in
      guard !state.isEnded, state.lastSnapshot == nil, let sleep = state.sleep else { return nil }
      return (sleep.kept, state.baseRevision)
    }
  }

  /// Puts the session's store to sleep if nothing needs it: no request is using it, no event
  /// stream is open, it has no effect in flight and is not being recorded. Only its state is
  /// kept; the store is built again at the next request that sends an action. Returns whether it
  /// went to sleep.
  @discardableResult
  package func sleep() async -> Bool {
    let candidate = bookkeeping.withLock { state -> (any SessionDriver, ContinuousClock.Instant)? in
      guard let driver = state.driver, state.busy == 0, state.subscribers.isEmpty else {
        return nil
      }
      return (driver, state.lastActivity)
    }
    guard let (driver, lastActivity) = candidate, let sleep = await driver.sleep() else {
      return false
    }
    // Nothing may have happened since the state was taken: no request began, none is running,
    // no send reached the store, no stream opened.
    let observation = bookkeeping.withLock { state -> StoreActorObserveToken?? in
      guard state.driver === driver, state.busy == 0, state.subscribers.isEmpty,
        state.lastActivity == lastActivity, driver.sendCount == sleep.sendCount
      else { return nil }
      defer {
        state.driver = nil
        state.observation = nil
        state.sleep = .asleep(sleep)
        state.baseRevision = state.lastSnapshot?.revision ?? state.baseRevision
        state.lastSnapshot = nil
        state.stateJSON = nil
        state.saving?.last = nil
      }
      return .some(state.observation)
    }
    guard let observation else { return false }
    observation?.cancel()
    return true
  }

  /// Whether the session's store is asleep (``sleep()``).
  package var isAsleep: Bool {
    bookkeeping.withLock { state in
      if case .asleep = state.sleep { true } else { false }
    }
  }

  /// Whether the session is asleep with its state kept whole, not as its changes from the app's
  /// baseline.
  package var isAsleepWithWholeState: Bool {
    bookkeeping.withLock { state in
      if case .asleep(let sleep) = state.sleep { sleep.keepsStateWhole } else { false }
    }
  }

  // MARK: Recording

  package func startRecording(limit: Int) async throws(SessionError) -> RecordingStatus {
    try await withDriver { driver throws(SessionError) in
      try await driver.startRecording(limit: limit)
    }
  }

  package func stopRecording() async throws(SessionError) {
    try await withDriver { driver in await driver.stopRecording() }
  }

  package func recordingStatus() async throws(SessionError) -> RecordingStatus {
    try await withDriver { driver in await driver.recordingStatus() }
  }

  package func record() async throws(SessionError) -> SessionRecordWithImports {
    try await withDriver { driver throws(SessionError) in try await driver.record() }
  }

  package func recordSteps(after count: Int) async throws(SessionError) -> String {
    try await withDriver { driver throws(SessionError) in try await driver.recordSteps(after: count)
    }
  }

  /// The number of event streams open on this session.
  package var subscriberCount: Int { bookkeeping.withLock { $0.subscribers.count } }

  /// When the visitor last made a request.
  package var lastActivity: ContinuousClock.Instant { bookkeeping.withLock { $0.lastActivity } }

  /// Lets go of what is kept only to make the next change cheaper — each feature's view for the
  /// comparison with the next state, the saved part of the state for the comparison with the
  /// next one to save — for a session whose visitor has not been seen for a while. Its next
  /// change costs a full encoding (and a write even if the saved part did not change); nothing
  /// the visitor sees changes.
  ///
  /// Returns whether there was anything to let go of (a session already compacted has not).
  @discardableResult
  package func compact() -> Bool {
    bookkeeping.withLock { state in
      guard let json = state.stateJSON, !json.isCompacted || state.saving?.last != nil else {
        return false
      }
      state.stateJSON = json.compacted()
      state.saving?.last = nil
      return true
    }
  }

  /// Records a request from the visitor, for the idle timeout.
  package func touch(_ now: ContinuousClock.Instant) {
    bookkeeping.withLock { if now > $0.lastActivity { $0.lastActivity = now } }
  }

  /// The current state and its revision; `nil` once the session has ended. A sleeping session's
  /// is written anew from the state it keeps.
  package var snapshot: Snapshot? {
    if let (sleep, revision) = sleepingState() { return snapshot(of: sleep, revision: revision) }
    return bookkeeping.withLock { $0.isEnded ? nil : $0.lastSnapshot }
  }

  /// Sends a user action to the store, after checking it against the current state, and returns
  /// the state after it.
  ///
  /// - Throws: ``SessionError/refused(_:)`` when the action names something that does not
  ///   exist or does not fit the state now; nothing is sent then. ``SessionError/notSaved(reason:)``
  ///   when the state it produced could not be saved: the change is in the session (and on the
  ///   event stream) and its write is tried again until the storage takes it, but it is not
  ///   acknowledged — a 2xx answer means saved.
  ///
  /// With an archive, the answer waits until the state the action produced is saved (at most
  /// `saveTimeout`), so what the visitor sees acknowledged survives a crash.
  package func perform(
    _ action: UserAction, saveTimeout: Duration = .seconds(2)
  ) async throws(SessionError) -> Snapshot {
    // The state right after this action, read on the store's actor before another request of
    // the session can send its own.
    let applied = try await withDriver { driver throws(SessionError) in
      try await driver.apply(action, in: self)
    }
    guard let snapshot = applied else { throw SessionError.unknownSession }
    switch await waitUntilSaved(timeout: saveTimeout) {
    case .saved:
      return snapshot
    case .failed(let reason):
      throw SessionError.notSaved(reason: "the storage refused the write (\(reason.prefix(120)))")
    case .timedOut:
      throw SessionError.notSaved(reason: "the storage did not confirm the write in time")
    case .superseded:
      throw SessionError.superseded
    }
  }

  /// Returns once every state handed to the archive so far is saved, a write of one failed, or
  /// after `timeout`; `.saved` at once without an archive.
  package func waitUntilSaved(timeout: Duration) async -> SaveOutcome {
    let isSaved = bookkeeping.withLock { state -> SaveOutcome? in
      guard let saving = state.saving else { return .saved }
      if saving.isSuperseded { return .superseded }
      return saving.savedRevision >= saving.requestedRevision ? .saved : nil
    }
    if let isSaved { return isSaved }
    return await withCheckedContinuation {
      (continuation: CheckedContinuation<SaveOutcome, Never>) in
      let waiting = bookkeeping.withLock { state -> (id: Int, timeouts: Timeouts)? in
        guard var saving = state.saving, !saving.isSuperseded,
          saving.savedRevision < saving.requestedRevision
        else { return nil }
        let waiterID = saving.nextWaiterID
        saving.nextWaiterID += 1
        saving.waiters[waiterID] = Waiter(
          revision: saving.requestedRevision, continuation: continuation)
        state.saving = saving
        return (waiterID, saving.savedSessions.writer.timeouts)
      }
      guard let (waiterID, timeouts) = waiting else {
        let superseded = bookkeeping.withLock { $0.saving?.isSuperseded ?? false }
        continuation.resume(returning: superseded ? .superseded : .saved)
        return
      }
      let timeout = timeouts.add(after: timeout) { [weak self] in
        let late = self?.bookkeeping.withLock {
          $0.saving?.waiters.removeValue(forKey: waiterID)?.continuation
        }
        late?.resume(returning: .timedOut)
      }
      let isWaiting = bookkeeping.withLock { state in
        guard state.saving?.waiters[waiterID] != nil else { return false }
        state.saving?.waiters[waiterID]?.timeout = timeout
        return true
      }
      if !isWaiting { timeouts.remove(timeout) }
    }
  }

  /// Called by the archive's writer when the state of `revision` is saved, failed to be, or was
  /// refused because another copy holds the session. Only a confirmed write moves the saved
  /// revision; a failed one releases the requests that waited for it (or for an earlier state)
  /// with the failure, while the writer tries again; a refused one releases every request, and
  /// the copy is dropped.
  private func stateSaved(revision: Int, outcome: SessionSaver.Outcome) {
    let failure: (any Error)?
    switch outcome {
    case .saved:
      failure = nil
    case .failed(let error):
      failure = error
      logger.warning(
        "Session state not saved; trying again",
        metadata: ["session": "\(logName)", "error": "\(error.localizedDescription)"])
    case .superseded:
      supersede()
      return
    }
    let (released, timeouts) = bookkeeping.withLock { state -> ([Waiter], Timeouts?) in
      guard var saving = state.saving, !saving.isSuperseded else { return ([], nil) }
      defer { state.saving = saving }
      if failure == nil { saving.savedRevision = max(saving.savedRevision, revision) }
      if failure != nil {
        saving.hasFailed = true
      } else if saving.hasFailed, saving.savedRevision >= saving.requestedRevision {
        saving.hasFailed = false
        for subscriber in state.subscribers.values {
          subscriber.yield(.saved(revision: saving.savedRevision))
        }
      }
      let reached = failure == nil ? saving.savedRevision : revision
      let done = saving.waiters.filter { $0.value.revision <= reached }
      for waiterID in done.keys { saving.waiters[waiterID] = nil }
      return (Array(done.values), saving.savedSessions.writer.timeouts)
    }
    let outcome: SaveOutcome = failure.map { .failed($0.localizedDescription) } ?? .saved
    for waiter in released {
      if let timeout = waiter.timeout { timeouts?.remove(timeout) }
      waiter.continuation.resume(returning: outcome)
    }
  }

  /// Marks this copy stale — another copy of the session holds it now — releases every request
  /// waiting for a save with ``SaveOutcome/superseded``, and has the registry drop it. Once.
  private func supersede() {
    let released = bookkeeping.withLock { state -> ([Waiter], Timeouts)? in
      guard var saving = state.saving, !saving.isSuperseded else { return nil }
      defer { state.saving = saving }
      saving.isSuperseded = true
      let waiters = Array(saving.waiters.values)
      saving.waiters = [:]
      return (waiters, saving.savedSessions.writer.timeouts)
    }
    guard let (waiters, timeouts) = released else { return }
    logger.notice(
      "Session taken over by another copy; this one is dropped", metadata: ["session": "\(logName)"]
    )
    for waiter in waiters {
      if let timeout = waiter.timeout { timeouts.remove(timeout) }
      waiter.continuation.resume(returning: .superseded)
    }
    superseded(self)
  }

  /// Whether the storage refused a save of this copy because another copy holds the session.
  package var isSuperseded: Bool {
    bookkeeping.withLock { $0.saving?.isSuperseded ?? false }
  }

  /// Opens an event stream: the current state first, then every change. Finishing the stream's
  /// continuation (`end`) or dropping the stream closes it and frees its slot.
  package func subscribe() -> (events: AsyncStream<SessionEvent>, end: @Sendable () -> Void) {
    let (stream, continuation) = AsyncStream<SessionEvent>.makeStream(
      bufferingPolicy: .bufferingNewest(64))
    // A sleeping session's state cannot change before it wakes, and a woken one has a snapshot.
    let asleep = sleepingState().map { snapshot(of: $0, revision: $1) }
    let subscriberID = bookkeeping.withLock { state -> Int? in
      guard !state.isEnded, let snapshot = state.lastSnapshot ?? asleep else { return nil }
      let subscriberID = state.nextSubscriberID
      state.nextSubscriberID += 1
      state.subscribers[subscriberID] = continuation
      continuation.yield(.state(snapshot))
      return subscriberID
    }
    guard let subscriberID else {
      continuation.finish()
      return (stream, {})
    }
    continuation.onTermination = { [weak self] _ in
      self?.bookkeeping.withLock { _ = $0.subscribers.removeValue(forKey: subscriberID) }
    }
    return (stream, { continuation.finish() })
  }

  /// Sends ``SessionEvent/keepAlive`` to every open event stream.
  package func sendKeepAlive() {
    bookkeeping.withLock { state in
      for subscriber in state.subscribers.values {
        subscriber.yield(.keepAlive)
      }
    }
  }

  /// Ends the session: closes its event streams and releases its store, which cancels all of its
  /// effects. Idempotent.
  package func end() {
    // The store leaves with the last reference to it (a request still on its way through it
    // holds one until it is done); its effects are cancelled then.
    let (subscribers, observation) = bookkeeping.withLock { state in
      defer {
        state.subscribers = [:]
        state.observation = nil
        state.driver = nil
        state.sleep = nil
        state.isEnded = true
      }
      return (state.subscribers, state.observation)
    }
    observation?.cancel()
    for subscriber in subscribers.values {
      subscriber.finish()
    }
  }

  /// Gives the state the next revision and sends it to every event stream, if its view changed.
  /// Called by the driver on the store's actor, so revisions follow the order of changes:
  /// `writeJSON` writes the state's JSON after the previous one (`nil` when no view changed),
  /// between a prefix and a suffix; `kept` is what of the state the archive saves.
  ///
  /// When the part of the state the archive keeps changed, it is handed to the archive writer.
  package func publish(
    _ writeJSON: (_ previous: StateJSON?, _ prefix: Data, _ suffix: Data) -> StateJSON?,
    kept keptState: () -> AnyKeptState
  ) {
    // Only this method writes `stateJSON` and `lastSnapshot` while a store runs, on the store's
    // actor, one call at a time (``sleep()`` and waking write them when none runs).
    let (previous, revision) = bookkeeping.withLock {
      ($0.stateJSON, ($0.lastSnapshot?.revision ?? $0.baseRevision) + 1)
    }
    guard
      let json = writeJSON(
        previous, Snapshot.prefix(revision: revision), Snapshot.suffix(generation: generation))
    else { return }
    let snapshot = Snapshot(revision: revision, generation: generation, written: json)
    let handed = bookkeeping.withLock {
      bookkeeping -> (SavedSessions, SessionSaver.Pending)? in
      guard bookkeeping.driver != nil else { return nil }
      bookkeeping.stateJSON = json
      bookkeeping.lastSnapshot = snapshot
      for subscriber in bookkeeping.subscribers.values {
        subscriber.yield(.state(snapshot))
      }
      guard var saving = bookkeeping.saving, !saving.isSuperseded else { return nil }
      let kept = keptState()
      if let last = saving.last, kept.isSame(as: last) { return nil }
      defer { bookkeeping.saving = saving }
      saving.last = kept
      saving.requestedRevision = snapshot.revision
      return (
        saving.savedSessions,
        SessionSaver.Pending(
          visitor: saving.visitor, holder: generation, revision: snapshot.revision,
          kept: kept,
          written: { [weak self] revision, outcome in
            self?.stateSaved(revision: revision, outcome: outcome)
          })
      )
    }
    // Handed over in the order of revisions: this runs on the store's actor.
    if let (savedSessions, pending) = handed {
      savedSessions.writer.enqueue(id, pending, save: savedSessions.save)
    }
  }
}
