import ComposableArchitecture
import ComposableRecording
import Foundation
import Logging
import Synchronization
import WebFrontend

/// Every live session of the server, by id: creates them, finds them, expires idle ones.
///
/// One ``Session`` per visitor, each with its own `StoreActor` of the ``WebApp``'s root feature;
/// sessions share nothing but the dependencies hook that configures their stores. The table of sessions is behind
/// one lock, held only to find, add or remove a session — never across a send — so requests of
/// different sessions run in parallel. A session ended while a request of its is on its way is
/// seen by that request as gone.
///
/// Limits (``Configuration``):
/// - a session that gets no request for ``Configuration/idleTimeout`` is ended by the next
///   ``expireIdleSessions(now:)`` (the server's sweeper calls it periodically) — with an
///   archive, its saved state stays, and its visitor's next request resumes it (it is deleted
///   when the visitor ends the session, or by ``pruneSavedSessions(now:)`` after
///   ``Configuration/savedSessionLifetime`` without a save); one that got none
///   for ``Configuration/minimumIdleBeforeEviction`` is put to sleep by
///   ``sleepIdleSessions(now:)`` when its store has nothing in flight — only its state is kept;
/// - at most ``Configuration/maximumSessionCount`` sessions exist; creating one more ends the
///   least recently used *idle* session (no request for ``Configuration/minimumIdleBeforeEviction``
///   and no open event stream) to make room, and is refused with 503 only when every session is
///   in use — so nobody can lock visitors out by creating sessions;
/// - at most ``Configuration/maximumEventStreamsPerSession`` event streams per session (429).
///
/// ```swift
/// let registry = SessionRegistry(app: .app, configuration: .init(idleTimeout: .seconds(600))) {
///   $0.weatherClient = .previewValue
/// }
/// ```
public final class SessionRegistry: Sendable {
  /// The clients that keep one visitor's data (favorites, settings), given the visitor's id; the
  /// executable provides them, as it is the one that links a storage.
  public typealias VisitorData = @Sendable (_ visitor: VisitorID) -> DependencyOverrides

  /// The limits of the registry.
  public struct Configuration: Equatable, Sendable {
    /// How long a session stays in memory without a request.
    public var idleTimeout: Duration
    /// With an archive: how long a saved session is kept after its last save — as long as the
    /// session cookie lives, so a visitor who comes back finds their counters again.
    public var savedSessionLifetime: Duration
    /// The most sessions that may exist at once.
    public var maximumSessionCount: Int
    /// The most event streams one session may have open at once.
    public var maximumEventStreamsPerSession: Int
    /// How long a session must have had no request before it may be evicted for a new one.
    public var minimumIdleBeforeEviction: Duration
    /// With an archive: the longest an action's answer waits for its state to be saved.
    public var saveTimeout: Duration
    /// With an archive: how long one probe of its storage serves readiness, and how long a
    /// probe may take before the storage counts as unreachable.
    public var storageProbeInterval: Duration
    public var storageProbeTimeout: Duration
    /// The most steps a visitor's recording of their session keeps, when visitors may record
    /// their sessions (`--allow-recording`); `nil`: recording is off and its routes do not exist.
    public var recordingLimit: Int?

    /// Creates limits; the defaults suit a small deployment.
    public init(
      idleTimeout: Duration = .seconds(30 * 60),
      maximumSessionCount: Int = 1_000,
      maximumEventStreamsPerSession: Int = 4,
      minimumIdleBeforeEviction: Duration = .seconds(60),
      saveTimeout: Duration = .seconds(2),
      storageProbeInterval: Duration = .seconds(1),
      storageProbeTimeout: Duration = .seconds(1),
      recordingLimit: Int? = nil,
      savedSessionLifetime: Duration = .seconds(400 * 24 * 60 * 60)
    ) {
      self.idleTimeout = idleTimeout
      self.savedSessionLifetime = savedSessionLifetime
      self.maximumSessionCount = maximumSessionCount
      self.maximumEventStreamsPerSession = maximumEventStreamsPerSession
      self.minimumIdleBeforeEviction = minimumIdleBeforeEviction
      self.saveTimeout = saveTimeout
      self.storageProbeInterval = storageProbeInterval
      self.storageProbeTimeout = storageProbeTimeout
      self.recordingLimit = recordingLimit
    }
  }

  /// The limits this registry enforces.
  public let configuration: Configuration
  /// The root feature every session runs, and its web API.
  public let app: WebApp
  private let dependencies: DependencyOverrides
  private let visitorData: VisitorData?
  private let savedSessions: SavedSessions?
  private let storageProbe: StorageProbe
  private let logger: Logger
  private let table = Mutex(Table())

  private struct Table {
    var sessions: [SessionID: Session] = [:]
    /// Sessions being resumed from the archive: a second request for one waits for the first,
    /// and learns the same outcome.
    var resuming: [SessionID: Task<Resumption, Never>] = [:]
    var isClosed = false
    var createdCount = 0
    var quarantinedCount = 0
    var supersededCount = 0
  }

  /// Creates an empty registry.
  ///
  /// - Parameters:
  ///   - visitorData: the clients that keep a visitor's favorites and settings, applied after
  ///     `dependencies` to the sessions of a known visitor; without it (or without a visitor) a
  ///     session keeps its data in memory, for its own lifetime.
  ///   - archive: where the sessions of visitors are saved, to be resumed after a restart or by
  ///     another instance (``SavedSessions``); without it, a session lives and dies with this
  ///     registry.
  ///   - app: the root feature every session runs (``WebApp``).
  ///   - dependencies: applied to every session's store: the live clients of the executable, or
  ///     test doubles. It runs once per session.
  public init(
    app: WebApp,
    configuration: Configuration = Configuration(),
    logger: Logger = Logger(label: "web-frontend.sessions"),
    visitorData: VisitorData? = nil,
    savedSessions: SavedSessions? = nil,
    dependencies: @escaping DependencyOverrides
  ) {
    self.app = app
    self.configuration = configuration
    self.logger = logger
    self.visitorData = visitorData
    self.savedSessions = savedSessions
    self.storageProbe = StorageProbe(
      interval: configuration.storageProbeInterval, timeout: configuration.storageProbeTimeout)
    self.dependencies = dependencies
  }

  /// The number of live sessions.
  public var count: Int { table.withLock { $0.sessions.count } }

  /// The number of sessions created since the registry started.
  public var createdCount: Int { table.withLock { $0.createdCount } }

  /// Whether new sessions are accepted: `false` once the server has begun shutting down.
  public var isAcceptingSessions: Bool { table.withLock { !$0.isClosed } }

  /// Whether sessions' states are being saved: `nil` without an archive.
  package var saveHealth: SessionSaver.Health? { savedSessions?.writer.health }

  /// What the registry has counted, read at once, for the server's metrics.
  package var counts: SessionCounts {
    let (live, created, quarantined, superseded) = table.withLock {
      ($0.sessions.count, $0.createdCount, $0.quarantinedCount, $0.supersededCount)
    }
    return SessionCounts(
      live: live, asleep: asleepCount, asleepWhole: asleepWithWholeStateCount, created: created,
      quarantined: quarantined, superseded: superseded, saves: saveHealth)
  }

  /// Why this instance cannot keep its sessions' changes now, or `nil` when it can (or has no
  /// archive): its saves are failing, or its storage does not answer — which an instance with
  /// no save on its way learns only by asking (``StorageProbe``).
  package func savingProblem() async -> String? {
    guard let savedSessions else { return nil }
    let health = savedSessions.writer.health
    if let since = health.failingSince {
      let seconds = since.duration(to: .now).components.seconds
      let reason = health.lastFailure?.prefix(200) ?? ""
      return "saves are failing (for \(seconds) s): \(reason)"
    }
    return await storageProbe.problem(of: savedSessions)
  }

  /// Whether a session with this id is live.
  public func contains(_ id: String) -> Bool {
    lookUp(id) != nil
  }

  /// The current state JSON of a session, or `nil` if there is no such session.
  public func view(of id: String) -> Data? {
    lookUp(id)?.snapshot?.state
  }

  /// The name of the live copy of a session here (the holder its saves carry), if it is live.
  package func holder(of id: SessionID) -> String? {
    table.withLock { $0.sessions[id]?.generation }
  }

  /// The number of event streams open on a session (0 for an unknown session).
  public func eventStreamCount(of id: String) -> Int {
    lookUp(id)?.subscriberCount ?? 0
  }

  // MARK: Operations of the API

  /// Creates a session, for `visitor` if given (its favorites and settings are loaded before the
  /// first snapshot); throws 503 when the registry is full or shut down.
  ///
  /// `logger` is the request's (its lines carry the request id); the registry's own by default.
  package func create(
    for visitor: VisitorID? = nil, network: String? = nil, now: ContinuousClock.Instant = .now,
    logger: Logger? = nil
  ) async throws(SessionError) -> (SessionID, Snapshot) {
    let logger = logger ?? self.logger
    let session = try insertSession(
      id: SessionID(), for: visitor, network: network, beginning: .new, now: now, logger: logger)
    logger.info(
      "Session created", metadata: ["session": "\(session.logName)", "count": "\(count)"])
    return (session.id, try await session.start())
  }

  /// Makes sure the session `id` is live here: a session this registry does not have, but the
  /// archive saved for this `visitor`, is resumed (a restart, or another instance served it) —
  /// claimed for the new copy in the same transaction that reads it, so the copy that ran it
  /// before can no longer save anything. A session saved for another visitor is not. Throws 503
  /// when the archive cannot be read or does not answer within the archive timeout.
  ///
  /// With `confirmingCurrent` (a read of the state, an event stream), a session that is live
  /// here is first checked against the archive: if another copy holds it now (it moved to
  /// another instance and came back), this copy is stale and is dropped, and the session is
  /// resumed from what the archive holds — so no answer shows a stale copy's state. When the
  /// archive does not answer the check in time, the read is answered 503 as a resume would be:
  /// the live copy might be stale. Actions need no check: a stale copy's save is refused
  /// (``perform(_:in:visitor:now:)``).
  ///
  /// `visitor` is read only when the session is not live (the request's cookies are parsed again
  /// for it): a live session, every request's case, pays nothing for it.
  package func resume(
    _ id: String, visitor: @autoclosure () -> VisitorID?, confirmingCurrent: Bool = false,
    now: ContinuousClock.Instant = .now, logger: Logger? = nil
  ) async throws(SessionError) {
    let logger = logger ?? self.logger
    guard let savedSessions, let sessionID = SessionID(id) else { return }
    // A copy past its idle timeout that the sweeper has not ended yet ends now; its visitor's
    // request resumes the session from what it saved, like one the sweeper ended.
    if let live = table.withLock({ $0.sessions[sessionID] }),
      live.lastActivity.duration(to: now) > configuration.idleTimeout
    {
      await expire(live)
    }
    if confirmingCurrent, let live = table.withLock({ $0.sessions[sessionID] }) {
      switch await holds(live, in: savedSessions) {
      case true?: break
      case false?: drop(live, logger: logger)
      case nil: throw Self.savedSessionsUnavailable
      }
    }
    let resuming = try table.withLock { table throws(SessionError) -> Task<Resumption, Never>? in
      guard table.sessions[sessionID] == nil else { return nil }
      // Draining: the visitor's next try reaches another instance, which resumes the session.
      guard !table.isClosed else {
        throw SessionError.shuttingDown(resumable: true)
      }
      if let running = table.resuming[sessionID] { return running }
      let visitor = visitor()
      let task = Task {
        await self.resumeSaved(sessionID, visitor: visitor, savedSessions, now, logger: logger)
      }
      table.resuming[sessionID] = task
      return task
    }
    if await resuming?.value == .savedSessionsUnavailable {
      throw Self.savedSessionsUnavailable
    }
  }

  private static var savedSessionsUnavailable: SessionError { .savedSessionsUnavailable }

  /// Whether `session`, this copy, still holds its session in the archive: `true` too when the
  /// archive has no row for it (a new session not yet saved), `false` when another copy holds
  /// it, `nil` when the archive does not answer in time.
  private func holds(_ session: Session, in savedSessions: SavedSessions) async -> Bool? {
    switch await Deadline.run(
      configuration.storageProbeTimeout,
      {
        try await savedSessions.load(session.id)
      })
    {
    case .success(let saved)?: saved.map { $0.holder == session.generation } ?? true
    case .failure?, nil: nil
    }
  }

  /// Removes a stale copy of a session (another copy holds the session now) from the table, if
  /// it is still there, and ends it: its event streams close (their pages reconnect and get the
  /// current state), its effects are cancelled. Its saved state stays: it is the other copy's.
  private func drop(_ session: Session, logger: Logger) {
    guard remove(session) else { return }
    session.end()
    table.withLock { $0.supersededCount += 1 }
    logger.notice(
      "Stale copy of a session dropped (another copy holds it)",
      metadata: ["session": "\(session.logName)"])
  }

  /// Removes a session past its idle timeout from the table, if it is still there, ends it and
  /// waits (at most the archive timeout) until its last state is saved, so that a resume reads
  /// it.
  private func expire(_ session: Session) async {
    guard remove(session) else { return }
    session.end()
    _ = await session.waitUntilSaved(timeout: configuration.saveTimeout)
    logger.info("Session expired", metadata: ["session": "\(session.logName)"])
  }

  /// Removes `session` from the table if it is still the one there under its id (another
  /// request may have replaced or removed it meanwhile); returns whether it did.
  private func remove(_ session: Session) -> Bool {
    table.withLock { table in
      guard table.sessions[session.id] === session else { return false }
      table.sessions[session.id] = nil
      return true
    }
  }

  /// How a resume ended, for every request that waited for it.
  package enum Resumption: Sendable {
    /// The session is live, or there was nothing (for this visitor) to resume.
    case done
    /// The archive could not be read: try again later.
    case savedSessionsUnavailable
  }

  private func resumeSaved(
    _ id: SessionID, visitor: VisitorID?, _ savedSessions: SavedSessions,
    _ now: ContinuousClock.Instant, logger: Logger
  ) async -> Resumption {
    defer { table.withLock { _ = $0.resuming.removeValue(forKey: id) } }
    guard let visitor else { return .done }
    // The new copy's name, which the claim makes the session's holder.
    let generation = Session.newGeneration()
    let entry: SavedSessions.SavedSession
    switch await Deadline.run(
      configuration.saveTimeout,
      {
        try await savedSessions.claim(id, visitor, generation)
      })
    {
    case .success(let claimed?)?:
      entry = claimed
    case .success(nil)?:
      // Nothing saved, or saved for another visitor (whose session is left alone).
      return .done
    case .failure(let error)?:
      logger.warning(
        "Saved session could not be read", metadata: ["error": "\(error.localizedDescription)"])
      return .savedSessionsUnavailable
    case nil:
      logger.warning(
        "Saved session could not be read",
        metadata: ["error": "the storage did not answer in \(configuration.saveTimeout)"])
      return .savedSessionsUnavailable
    }
    let saved: AnyResumedState
    do {
      saved = try app.readSaved(entry.state)
    } catch {
      // Set aside for an operator, not deleted: a bug in a new version's reading of old saved
      // states must not destroy them.
      let reason = String(String(describing: error).prefix(500))
      logger.warning(
        "Saved session is unreadable; set aside (session_quarantine)",
        metadata: ["error": "\(reason.prefix(200))"])
      table.withLock { $0.quarantinedCount += 1 }
      try? await savedSessions.quarantine(id, reason)
      return .done
    }
    do {
      let session = try insertSession(
        id: id, for: entry.visitor, beginning: .resumed(revision: entry.revision, saved),
        generation: generation, now: now, logger: logger)
      _ = try await session.start()
      logger.info(
        "Session resumed",
        metadata: [
          "session": "\(session.logName)", "revision": "\(entry.revision)",
          "count": "\(count)",
        ])
    } catch {
      logger.notice("Saved session not resumed", metadata: ["reason": "\(error)"])
    }
    return .done
  }

  /// Adds a session; when full, ends the least recently used idle one or, when none is idle, the
  /// least recently used one of the network holding the most sessions (``fairVictim``); throws
  /// ``SessionError/tooManySessions(limit:)`` when neither applies, or
  /// ``SessionError/shuttingDown(resumable:)``.
  private func insertSession(
    id: SessionID, for visitor: VisitorID?, network: String? = nil,
    beginning: Session.Beginning, generation: String = Session.newGeneration(),
    now: ContinuousClock.Instant, logger: Logger
  ) throws(SessionError) -> Session {
    let dependencies: DependencyOverrides
    if let visitor, let kept = visitorData?(visitor) {
      dependencies = { [base = self.dependencies] values in
        base(&values)
        kept(&values)
      }
    } else {
      dependencies = self.dependencies
    }
    let (created, evicted) = try table.withLock { table throws(SessionError) in
      guard !table.isClosed else {
        throw SessionError.shuttingDown(resumable: false)
      }
      var evicted: Session?
      if table.sessions.count >= configuration.maximumSessionCount {
        guard
          let idle = Self.leastRecentlyUsedIdleSession(in: table, now: now, configuration)
            ?? Self.fairVictim(in: table, for: network)
        else {
          logger.warning(
            "Session limit reached", metadata: ["limit": "\(configuration.maximumSessionCount)"])
          throw SessionError.tooManySessions(limit: configuration.maximumSessionCount)
        }
        table.sessions[idle.id] = nil
        evicted = idle
      }
      table.createdCount += 1
      let session = Session(
        id: id, serial: table.createdCount, network: network, now: now, beginning: beginning,
        savedSessions: savedSessions.flatMap { savedSessions in visitor.map { (savedSessions, $0) }
        },
        generation: generation, logger: self.logger, app: app, dependencies: dependencies,
        superseded: { [weak self] session in
          guard let self else { return }
          self.drop(session, logger: self.logger)
        })
      table.sessions[id] = session
      return (session, evicted)
    }
    if let evicted {
      // Its saved state stays: the visitor who comes back resumes it.
      evicted.end()
      logger.info("Session evicted to make room", metadata: ["session": "\(evicted.logName)"])
    }
    return created
  }

  /// The view of a session, marking it active.
  package func snapshot(of id: String, now: ContinuousClock.Instant = .now) throws(SessionError)
    -> Snapshot
  {
    let session = try session(id, now: now)
    guard let snapshot = session.snapshot else { throw SessionError.unknownSession }
    return snapshot
  }

  // MARK: Recording

  /// Whether visitors may record their sessions: the server allows it and the app can.
  package var allowsRecording: Bool { configuration.recordingLimit != nil && app.canRecord }

  /// Starts recording a session (a recording in progress starts over).
  package func startRecording(in id: String, now: ContinuousClock.Instant = .now)
    async throws(SessionError)
    -> RecordingStatus
  {
    guard let limit = configuration.recordingLimit else { throw SessionError.recordingOff }
    return try await session(id, now: now).startRecording(limit: limit)
  }

  /// Stops recording a session and forgets the recording.
  package func stopRecording(in id: String, now: ContinuousClock.Instant = .now)
    async throws(SessionError)
  {
    try await session(id, now: now).stopRecording()
  }

  /// Whether a session is being recorded, and how far.
  package func recordingStatus(of id: String, now: ContinuousClock.Instant = .now)
    async throws(SessionError)
    -> RecordingStatus
  {
    try await session(id, now: now).recordingStatus()
  }

  /// The record of a session's recording so far, with what a test written from it imports.
  package func record(of id: String, now: ContinuousClock.Instant = .now) async throws(SessionError)
    -> SessionRecordWithImports
  {
    try await session(id, now: now).record()
  }

  /// The step lines of a session's recording after the first `count` (the record file's
  /// `{"step":…}` lines), for a viewer that has those already.
  package func recordSteps(of id: String, after count: Int, now: ContinuousClock.Instant = .now)
    async throws(SessionError) -> String
  {
    try await session(id, now: now).recordSteps(after: count)
  }

  /// Sends a user action to a session and returns the state after it, once it is saved.
  ///
  /// When the copy here turns out to be stale — its save is refused because another copy took
  /// the session over (it moved to another instance while this one ran, and came back) — the
  /// copy is dropped, the session is resumed from what the archive holds, and the action is
  /// applied once more, to that state: the visitor's action is kept, and nothing the stale copy
  /// showed is acknowledged. Throws ``SessionError/superseded`` if that happens twice.
  package func perform(
    _ action: UserAction, in id: String, visitor: @autoclosure () -> VisitorID? = nil,
    now: ContinuousClock.Instant = .now
  ) async throws(SessionError) -> Snapshot {
    let session = try session(id, now: now)
    do {
      return try await session.perform(action, saveTimeout: configuration.saveTimeout)
    } catch  where error == .superseded {
      drop(session, logger: logger)
      try await resume(id, visitor: visitor(), now: now)
      return try await self.session(id, now: now).perform(
        action, saveTimeout: configuration.saveTimeout)
    }
  }

  /// Opens an event stream on a session; `end` closes it (its client has gone).
  package func subscribe(
    to id: String, now: ContinuousClock.Instant = .now
  ) throws(SessionError) -> (events: AsyncStream<SessionEvent>, end: @Sendable () -> Void) {
    let session = try session(id, now: now)
    guard session.subscriberCount < configuration.maximumEventStreamsPerSession else {
      throw SessionError.tooManyEventStreams(limit: configuration.maximumEventStreamsPerSession)
    }
    return session.subscribe()
  }

  /// Ends a session at the visitor's request.
  package func end(_ id: String, logger: Logger? = nil) throws(SessionError) {
    let logger = logger ?? self.logger
    guard let sessionID = SessionID(id),
      let session = table.withLock({ $0.sessions.removeValue(forKey: sessionID) })
    else { throw SessionError.unknownSession }
    endAndForget(session)
    logger.info(
      "Session ended", metadata: ["session": "\(session.logName)", "count": "\(count)"])
  }

  /// Ends a session for good (the visitor ended it): its saved state is deleted too, once its
  /// last write is done. (Expiry, eviction and shutdown end sessions but keep that state.)
  private func endAndForget(_ session: Session) {
    session.end()
    guard let savedSessions else { return }
    Task { [configuration, logger] in
      _ = await session.waitUntilSaved(timeout: configuration.saveTimeout)
      // Unless a newer copy took the session over meanwhile: its writes and row are its own.
      guard !session.isSuperseded else { return }
      savedSessions.writer.forget(session.id)
      do {
        try await savedSessions.delete(session.id, session.generation)
      } catch {
        logger.warning(
          "Saved session not deleted", metadata: ["error": "\(error.localizedDescription)"])
      }
    }
  }

  /// Waits until every session's latest state is saved (at most the archive timeout): for a
  /// graceful shutdown, before ``endAll()``.
  public func saveAll() async {
    let sessions = table.withLock { Array($0.sessions.values) }
    await withTaskGroup(of: Void.self) { group in
      for session in sessions {
        group.addTask { [configuration] in
          _ = await session.waitUntilSaved(timeout: configuration.saveTimeout)
        }
      }
    }
  }

  /// Forgets the saved sessions not saved within ``Configuration/savedSessionLifetime``;
  /// returns how many.
  @discardableResult
  public func pruneSavedSessions(now: Date = Date()) async -> Int {
    guard let savedSessions else { return 0 }
    let limit = configuration.savedSessionLifetime.components.seconds
    do {
      return try await savedSessions.prune(now.addingTimeInterval(-TimeInterval(limit)))
    } catch {
      logger.warning(
        "Saved sessions not pruned", metadata: ["error": "\(error.localizedDescription)"])
      return 0
    }
  }

  // MARK: Housekeeping

  /// Ends every session idle for longer than the idle timeout at `now`, keeping its saved state
  /// (its visitor's next request resumes it); returns how many. A
  /// session idle for longer than ``Configuration/minimumIdleBeforeEviction`` but not expired is
  /// compacted (``Session/compact()``): it gives up what it keeps only to make its next change
  /// cheaper.
  ///
  /// Ending a session releases its store, which cancels all of its effects.
  @discardableResult
  public func expireIdleSessions(now: ContinuousClock.Instant = .now) -> Int {
    let (expired, idle) = table.withLock { table in
      var expired: [Session] = []
      var idle: [Session] = []
      for session in table.sessions.values {
        let quiet = session.lastActivity.duration(to: now)
        if quiet > configuration.idleTimeout {
          expired.append(session)
        } else if quiet > configuration.minimumIdleBeforeEviction {
          idle.append(session)
        }
      }
      for session in expired { table.sessions[session.id] = nil }
      return (expired, idle)
    }
    for session in expired { session.end() }
    let compacted = idle.reduce(0) { count, session in count + (session.compact() ? 1 : 0) }
    MemoryRelease.afterEnding(expired.count + compacted)
    if !expired.isEmpty {
      logger.info(
        "Sessions expired", metadata: ["expired": "\(expired.count)", "count": "\(count)"])
    }
    return expired.count
  }

  /// Puts to sleep every session idle for longer than
  /// ``Configuration/minimumIdleBeforeEviction`` whose store has nothing in flight and no event
  /// stream open (``Session/sleep()``): only its state is kept until its visitor's next action
  /// builds the store again. Returns how many went to sleep.
  @discardableResult
  public func sleepIdleSessions(now: ContinuousClock.Instant = .now) async -> Int {
    let idle = table.withLock { table in
      table.sessions.values.filter {
        $0.lastActivity.duration(to: now) > configuration.minimumIdleBeforeEviction
      }
    }
    var slept = 0
    for session in idle where await session.sleep() {
      slept += 1
    }
    MemoryRelease.afterEnding(slept)
    return slept
  }

  /// The number of live sessions whose store is asleep (``sleepIdleSessions(now:)``).
  public var asleepCount: Int {
    table.withLock { $0.sessions.values.count(where: \.isAsleep) }
  }

  /// The number of sleeping sessions whose state is kept whole, as a value, because the app has
  /// no baseline to keep it as changes from or building it from its changes would not give it
  /// exactly (``StateDifference``).
  public var asleepWithWholeStateCount: Int {
    table.withLock { $0.sessions.values.count(where: \.isAsleepWithWholeState) }
  }

  /// Sends a keep-alive event on every open event stream.
  public func sendKeepAlive() {
    for session in table.withLock({ Array($0.sessions.values) }) {
      session.sendKeepAlive()
    }
  }

  /// Ends every session and refuses new ones: for shutdown.
  public func endAll() {
    let ending = table.withLock { table in
      table.isClosed = true
      defer { table.sessions = [:] }
      return Array(table.sessions.values)
    }
    for session in ending {
      session.end()
    }
    logger.info("All sessions ended", metadata: ["ended": "\(ending.count)"])
  }

  /// When every session is busy: the least recently used session of the network holding the
  /// most, if that network holds at least two more than `network` — so that one network
  /// cannot lock every other out by keeping its sessions busy, while two networks with about
  /// as many sessions do not take turns evicting each other.
  private static func fairVictim(in table: Table, for network: String?) -> Session? {
    guard let network else { return nil }
    var counts: [String: Int] = [:]
    for session in table.sessions.values {
      if let network = session.network { counts[network, default: 0] += 1 }
    }
    guard let (largest, count) = counts.max(by: { $0.value < $1.value }),
      largest != network, count >= counts[network, default: 0] + 2
    else { return nil }
    return table.sessions.values.filter { $0.network == largest }
      .min { $0.lastActivity < $1.lastActivity }
  }

  /// The idle session whose last request is the oldest, if any may be evicted.
  private static func leastRecentlyUsedIdleSession(
    in table: Table, now: ContinuousClock.Instant, _ configuration: Configuration
  ) -> Session? {
    table.sessions.values
      .filter {
        $0.subscriberCount == 0
          && $0.lastActivity.duration(to: now) >= configuration.minimumIdleBeforeEviction
      }
      .min { $0.lastActivity < $1.lastActivity }
  }

  private func lookUp(_ id: String) -> Session? {
    guard let sessionID = SessionID(id) else { return nil }
    return table.withLock { $0.sessions[sessionID] }
  }

  private func session(_ id: String, now: ContinuousClock.Instant) throws(SessionError) -> Session {
    guard let sessionID = SessionID(id) else { throw SessionError.unknownSession }
    let (session, isExpired) = try table.withLock { table throws(SessionError) in
      guard let session = table.sessions[sessionID] else { throw SessionError.unknownSession }
      // A session past its idle timeout is gone even if the sweeper has not run yet (``resume``
      // ended it first when there is an archive, and resumed it from what it saved).
      guard session.lastActivity.duration(to: now) <= configuration.idleTimeout else {
        table.sessions[sessionID] = nil
        return (session, true)
      }
      session.touch(now)
      return (session, false)
    }
    if isExpired {
      session.end()
      throw SessionError.unknownSession
    }
    return session
  }
}

/// The registry's counts at one moment: its sessions now, what has happened to sessions since it
/// started, and how saves fare. The server's metrics expose them; the registry knows no metrics
/// library.
package struct SessionCounts: Equatable, Sendable {
  /// Sessions alive now; of those, asleep (only their state kept), and asleep with their state
  /// kept whole rather than as changes from the app's baseline.
  package var live: Int
  package var asleep: Int
  package var asleepWhole: Int
  /// Sessions created since the start.
  package var created: Int
  /// Saved sessions whose state could not be read, set aside for an operator.
  package var quarantined: Int
  /// Stale copies dropped because another copy (another instance) had taken their session over.
  package var superseded: Int
  /// How saves fare; `nil` without an archive.
  package var saves: SessionSaver.Health?
}
