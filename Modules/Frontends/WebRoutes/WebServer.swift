import ComposableArchitecture
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle
import WebHTTP
import WebSessions

/// The web server: the routes of ``WebRouter`` over a ``SessionRegistry``, with a
/// ``SessionSweeper``, run until SIGTERM or SIGINT.
///
/// An executable builds the live dependencies and hands them over:
///
/// ```swift
/// try await WebServer(
///   configuration: .init(host: "127.0.0.1", port: 8080),
///   logger: logger
/// ) { dependencies in
///   dependencies.weatherClient = .live(configuration: weather)
/// }
/// .run { url in print("Listening on \(url)") }
/// ```
public struct WebServer: Sendable {
  /// Where the server listens and how sessions are limited.
  public struct Configuration: Equatable, Sendable {
    /// The address to bind, e.g. `127.0.0.1` or `0.0.0.0`.
    public var host: String
    /// The port; 0 picks a free one.
    public var port: Int
    /// The limits of sessions.
    public var sessions: SessionRegistry.Configuration
    /// The hosts, origins, cookie flags and per-client limits the server enforces.
    public var security: WebSecurity
    /// How long a client may take to send a request's head (from connecting, or from the end of
    /// the previous response) and then its body; a slower client's connection is closed.
    public var requestTimeout: Duration
    /// How long a connection may stay silent between requests before it is closed.
    public var idleTimeout: Duration
    /// How often idle sessions are expired and keep-alives sent.
    public var sweepInterval: Duration

    /// Creates a configuration.
    public init(
      host: String = "127.0.0.1",
      port: Int = 8080,
      sessions: SessionRegistry.Configuration = .init(),
      security: WebSecurity = .init(),
      requestTimeout: Duration = .seconds(10),
      idleTimeout: Duration = .seconds(75),
      sweepInterval: Duration = .seconds(15)
    ) {
      self.host = host
      self.port = port
      self.sessions = sessions
      self.security = security
      self.requestTimeout = requestTimeout
      self.idleTimeout = idleTimeout
      self.sweepInterval = sweepInterval
    }
  }

  /// The configuration.
  /// The root feature every session runs.
  public let app: WebApp
  public let configuration: Configuration
  package let logger: Logger
  package let metrics: ServerMetrics
  package let dependencies: DependencyOverrides
  package let visitorData: SessionRegistry.VisitorData?
  package let savedSessions: SavedSessions?

  /// Creates a server.
  ///
  /// - Parameters:
  ///   - app: the root feature every session runs, and its web API (``WebApp``).
  ///   - metrics: what `GET /metrics` exposes; the executable also bootstraps swift-metrics with
  ///     its registry, so that the live clients' counters appear there.
  ///   - visitorData: the clients that keep each visitor's data (the executable's storage),
  ///     applied after `dependencies`; without it, `dependencies` alone.
  ///   - archive: where sessions are saved to survive a restart and move between instances.
  ///   - dependencies: applied to every session's store (live clients, clock, …).
  public init(
    app: WebApp,
    configuration: Configuration,
    logger: Logger,
    metrics: ServerMetrics = ServerMetrics(),
    visitorData: SessionRegistry.VisitorData? = nil,
    savedSessions: SavedSessions? = nil,
    dependencies: @escaping DependencyOverrides
  ) {
    self.app = app
    self.configuration = configuration
    self.logger = logger
    self.metrics = metrics
    self.visitorData = visitorData
    self.savedSessions = savedSessions
    self.dependencies = dependencies
  }

  /// The Hummingbird application over `registry`, without the sweeper (tests add what they need).
  public static func application(
    registry: SessionRegistry,
    configuration: Configuration = .init(port: 0),
    logger: Logger,
    metrics: ServerMetrics? = nil,
    services: [any Service] = [],
    onServerRunning: @escaping @Sendable (_ port: Int) async -> Void = { _ in }
  ) -> some ApplicationProtocol {
    var security = configuration.security
    // The name the server was told to bind is one it answers to.
    if !["0.0.0.0", "::", ""].contains(configuration.host) {
      security.allowedHosts.insert(configuration.host.lowercased())
    }
    let (head, idle) = (
      TimeAmount(configuration.requestTimeout), TimeAmount(configuration.idleTimeout)
    )
    return Application(
      router: WebRouter.router(
        registry: registry, metrics: metrics, security: security, logger: logger),
      server: .http1CheckingRequestLine(
        configuration: .init(
          additionalChannelHandlers: [RequestDeadline(headTimeout: head, bodyTimeout: head)],
          idleTimeout: idle),
        allowedMethods: WebRouter.allowedMethods),
      configuration: ApplicationConfiguration(
        address: .hostname(configuration.host, port: configuration.port),
        serverName: "app-server"),
      services: services,
      onServerRunning: { channel in
        await onServerRunning(channel.localAddress?.port ?? configuration.port)
      },
      logger: logger)
  }

  /// Runs the server until SIGTERM or SIGINT, then ends every session (cancelling their
  /// effects) and stops gracefully.
  ///
  /// - Parameter onStart: called with the local URL once the server listens.
  public func run(onStart: @escaping @Sendable (_ url: String) -> Void = { _ in }) async throws {
    try await ListenAddress.check(host: configuration.host, port: configuration.port)
    let registry = SessionRegistry(
      app: app, configuration: configuration.sessions, logger: logger,
      visitorData: visitorData, savedSessions: savedSessions, dependencies: dependencies)
    let host = configuration.host
    let app = Self.application(
      registry: registry, configuration: configuration, logger: logger, metrics: metrics,
      onServerRunning: { port in
        let shownHost = host == "0.0.0.0" || host == "::" ? "localhost" : host
        onStart("http://\(shownHost):\(port)/")
      })
    let sweeper = SessionSweeper(
      registry: registry, interval: configuration.sweepInterval, logger: logger)
    // Reverse order on shutdown: the sweeper (ending sessions and their event streams) first.
    let group = ServiceGroup(
      configuration: ServiceGroupConfiguration(
        services: [app, sweeper] as [any Service],
        gracefulShutdownSignals: [.sigterm, .sigint],
        logger: logger))
    try await group.run()
  }
}

extension TimeAmount {
  package init(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
  }
}
