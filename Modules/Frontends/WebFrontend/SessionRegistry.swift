import ComposableArchitecture
import Foundation
import Logging
import Synchronization

/// Every live session of the server, by id: creates them, finds them, expires idle ones.
///
/// One ``Session`` per visitor, each with its own `StoreActor` of `AppFeature`; sessions share
/// nothing but the dependencies hook that configures their stores. The table of sessions is behind
/// one lock, held only to find, add or remove a session — never across a send — so requests of
/// different sessions run in parallel. A session ended while a request of its is on its way is
/// seen by that request as gone.
///
/// Limits (``Configuration``):
/// - a session that gets no request for ``Configuration/idleTimeout`` is ended by the next
///   ``expireIdleSessions(now:)`` (the server's sweeper calls it periodically);
/// - at most ``Configuration/maximumSessionCount`` sessions exist; creating one more ends the
///   least recently used *idle* session (no request for ``Configuration/minimumIdleBeforeEviction``
///   and no open event stream) to make room, and is refused with 503 only when every session is
///   in use — so nobody can lock visitors out by creating sessions;
/// - at most ``Configuration/maximumEventStreamsPerSession`` event streams per session (429).
///
/// ```swift
/// let registry = SessionRegistry(configuration: .init(idleTimeout: .seconds(600))) {
///   $0.weatherClient = .previewValue
/// }
/// ```
public final class SessionRegistry: Sendable {
  /// The clients that keep one visitor's data (favorites, settings), given the visitor's id; the
  /// executable provides them, as it is the one that links a storage.
  public typealias VisitorData = @Sendable (_ visitor: VisitorID) -> DependencyOverrides
  public typealias DependencyOverrides = @Sendable (inout DependencyValues) -> Void

  /// The limits of the registry.
  public struct Configuration: Equatable, Sendable {
    /// How long a session lives without a request.
    public var idleTimeout: Duration
    /// The most sessions that may exist at once.
    public var maximumSessionCount: Int
    /// The most event streams one session may have open at once.
    public var maximumEventStreamsPerSession: Int
    /// How long a session must have had no request before it may be evicted for a new one.
    public var minimumIdleBeforeEviction: Duration

    /// Creates limits; the defaults suit a small deployment.
    public init(
      idleTimeout: Duration = .seconds(30 * 60),
      maximumSessionCount: Int = 1_000,
      maximumEventStreamsPerSession: Int = 4,
      minimumIdleBeforeEviction: Duration = .seconds(60)
    ) {
      self.idleTimeout = idleTimeout
      self.maximumSessionCount = maximumSessionCount
      self.maximumEventStreamsPerSession = maximumEventStreamsPerSession
      self.minimumIdleBeforeEviction = minimumIdleBeforeEviction
    }
  }

  /// The limits this registry enforces.
  public let configuration: Configuration
  /// Where the registry counts sessions; the router records requests into the same.
  public let metrics: ServerMetrics
  private let dependencies: DependencyOverrides
  private let visitorData: VisitorData?
  private let logger: Logger
  private let table = Mutex(Table())

  private struct Table {
    var sessions: [SessionID: Session] = [:]
    var isClosed = false
    var createdCount = 0
  }

  /// Creates an empty registry.
  ///
  /// - Parameters:
  ///   - visitorData: the clients that keep a visitor's favorites and settings, applied after
  ///     `dependencies` to the sessions of a known visitor; without it (or without a visitor) a
  ///     session keeps its data in memory, for its own lifetime.
  ///   - dependencies: applied to every session's store: the live clients of the executable, or
  ///     test doubles. It runs once per session.
  public init(
    configuration: Configuration = Configuration(),
    logger: Logger = Logger(label: "web-frontend.sessions"),
    metrics: ServerMetrics = ServerMetrics(),
    visitorData: VisitorData? = nil,
    dependencies: @escaping DependencyOverrides
  ) {
    self.configuration = configuration
    self.metrics = metrics
    self.logger = logger
    self.visitorData = visitorData
    self.dependencies = dependencies
  }

  /// The number of live sessions.
  public var count: Int { table.withLock { $0.sessions.count } }

  /// The number of sessions created since the registry started.
  public var createdCount: Int { table.withLock { $0.createdCount } }

  /// Whether new sessions are accepted: `false` once the server has begun shutting down.
  public var isAcceptingSessions: Bool { table.withLock { !$0.isClosed } }

  /// Whether a session with this id is live.
  public func contains(_ id: String) -> Bool {
    lookUp(id) != nil
  }

  /// The current view of a session, or `nil` if there is no such session.
  public func view(of id: String) -> StateView? {
    lookUp(id)?.snapshot?.state
  }

  /// The number of event streams open on a session (0 for an unknown session).
  public func eventStreamCount(of id: String) -> Int {
    lookUp(id)?.subscriberCount ?? 0
  }

  // MARK: Operations of the API

  /// Creates a session, for `visitor` if given (its favorites and settings are loaded before the
  /// first snapshot); throws 503 when the registry is full or shut down.
  func create(
    for visitor: VisitorID? = nil, now: ContinuousClock.Instant = .now
  ) async throws(APIError) -> (SessionID, Snapshot) {
    let dependencies: DependencyOverrides
    if let visitor, let kept = visitorData?(visitor) {
      dependencies = { [base = self.dependencies] values in
        base(&values)
        kept(&values)
      }
    } else {
      dependencies = self.dependencies
    }
    let (created, evicted) = try table.withLock { table throws(APIError) in
      guard !table.isClosed else {
        throw APIError(.serviceUnavailable, "the server is shutting down")
      }
      var evicted: Session?
      if table.sessions.count >= configuration.maximumSessionCount {
        guard let idle = Self.leastRecentlyUsedIdleSession(in: table, now: now, configuration)
        else {
          logger.warning(
            "Session limit reached", metadata: ["limit": "\(configuration.maximumSessionCount)"])
          throw APIError(
            .serviceUnavailable,
            "too many sessions (the limit is \(configuration.maximumSessionCount)); try again later",
            headers: [.retryAfter: "60"])
        }
        table.sessions[idle.id] = nil
        evicted = idle
      }
      let id = SessionID()
      table.createdCount += 1
      let session = Session(
        id: id, serial: table.createdCount, now: now, dependencies: dependencies)
      table.sessions[id] = session
      metrics.sessionsCreated.increment()
      return (session, evicted)
    }
    if let evicted {
      evicted.end()
      logger.info("Session evicted to make room", metadata: ["session": "\(evicted.logName)"])
    }
    logger.info(
      "Session created", metadata: ["session": "\(created.logName)", "count": "\(count)"])
    return (created.id, try await created.start())
  }

  /// The view of a session, marking it active.
  func snapshot(of id: String, now: ContinuousClock.Instant = .now) throws(APIError) -> Snapshot {
    let session = try session(id, now: now)
    guard let snapshot = session.snapshot else { throw APIError.unknownSession }
    return snapshot
  }

  /// Sends a user action to a session and returns the state after it.
  func perform(
    _ action: UserAction, in id: String, now: ContinuousClock.Instant = .now
  ) async throws(APIError) -> Snapshot {
    try await session(id, now: now).perform(action)
  }

  /// Opens an event stream on a session.
  func subscribe(
    to id: String, now: ContinuousClock.Instant = .now
  ) throws(APIError) -> AsyncStream<SessionEvent> {
    let session = try session(id, now: now)
    guard session.subscriberCount < configuration.maximumEventStreamsPerSession else {
      throw APIError(
        .tooManyRequests,
        "this session already has \(configuration.maximumEventStreamsPerSession) event streams open"
      )
    }
    return session.subscribe()
  }

  /// Ends a session at the visitor's request.
  func end(_ id: String) throws(APIError) {
    guard let sessionID = SessionID(id),
      let session = table.withLock({ $0.sessions.removeValue(forKey: sessionID) })
    else { throw APIError.unknownSession }
    session.end()
    logger.info(
      "Session ended", metadata: ["session": "\(session.logName)", "count": "\(count)"])
  }

  // MARK: Housekeeping

  /// Ends every session idle for longer than the idle timeout at `now`; returns how many.
  ///
  /// Ending a session releases its store, which cancels all of its effects.
  @discardableResult
  public func expireIdleSessions(now: ContinuousClock.Instant = .now) -> Int {
    let expired = table.withLock { table in
      let expired = table.sessions.values.filter {
        $0.lastActivity.duration(to: now) > configuration.idleTimeout
      }
      for session in expired { table.sessions[session.id] = nil }
      return expired
    }
    for session in expired { session.end() }
    if !expired.isEmpty {
      logger.info(
        "Sessions expired", metadata: ["expired": "\(expired.count)", "count": "\(count)"])
    }
    return expired.count
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

  private func session(_ id: String, now: ContinuousClock.Instant) throws(APIError) -> Session {
    guard let sessionID = SessionID(id) else { throw APIError.unknownSession }
    let (session, isExpired) = try table.withLock { table throws(APIError) in
      guard let session = table.sessions[sessionID] else { throw APIError.unknownSession }
      // A session past its idle timeout is gone even if the sweeper has not run yet.
      guard session.lastActivity.duration(to: now) <= configuration.idleTimeout else {
        table.sessions[sessionID] = nil
        return (session, true)
      }
      session.touch(now)
      return (session, false)
    }
    if isExpired {
      session.end()
      throw APIError.unknownSession
    }
    return session
  }
}
