import ArgumentParser
import Dependencies
import FactClient
import FactClientLive
import FactClientOffline
import Foundation
import LiveHTTP
import LivePostgres
import LiveStorage
import Logging
import Metrics
import Prometheus
import RandomNumberClient
import RandomNumberClientLive
import WeatherClient
import WeatherClientLive
import WeatherClientOffline
import WebFrontend

extension AppServer {
  mutating func run() async throws {
    try await serve()
  }

  func serve() async throws {
    let levelName = try resolved(
      logLevel, "LOG_LEVEL", default: "info", valid: { Logger.Level(rawValue: $0) != nil },
      expected: "a log level (trace, debug, info, notice, warning, error or critical)")
    let level = Logger.Level(rawValue: levelName) ?? .info
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "app-server")

    // Live clients from the environment, overridden by flags (already validated by
    // `validate()`); with --offline, the clients over embedded data (gazetteer and climate
    // model, computed facts, the system's random numbers).
    var weather = try WeatherClient.Configuration(environment: environment.variables)
    weather.geocodingBaseURL =
      geocodingBaseURL.flatMap(HTTPBaseURL.validated) ?? weather.geocodingBaseURL
    weather.forecastBaseURL =
      forecastBaseURL.flatMap(HTTPBaseURL.validated) ?? weather.forecastBaseURL
    var fact = try FactClient.Configuration(environment: environment.variables)
    fact.baseURL = factBaseURL.flatMap(HTTPBaseURL.validated) ?? fact.baseURL
    var random = try RandomNumberClient.Configuration(environment: environment.variables)
    random.source = try randomNumberSource.map(Self.source) ?? random.source
    random.baseURL =
      randomNumberBaseURL.flatMap(HTTPBaseURL.validated) ?? random.baseURL
    if offline {
      // Loaded before serving: the first visitor does not wait, and a broken build stops here.
      _ = try Gazetteer.bundled()
    }
    let weatherClient = offline ? .offline() : WeatherClient.live(configuration: weather)
    let factClient = offline ? .offline() : FactClient.live(configuration: fact)
    let randomNumberClient = RandomNumberClient.live(
      configuration: offline ? .init(source: .system) : random)

    let actionsPerSecond = try resolved(
      actionsPerSecond, "APP_SERVER_ACTIONS_PER_SECOND", default: 50, valid: { $0 > 0 },
      expected: "a positive number")
    let sessionsPerMinute = try resolved(
      sessionsPerMinute, "APP_SERVER_SESSIONS_PER_MINUTE", default: 30, valid: { $0 > 0 },
      expected: "a positive number")
    let configuration = WebServer.Configuration(
      host: try resolved(host, "APP_SERVER_HOST", default: "127.0.0.1"),
      port: try resolved(
        port, "APP_SERVER_PORT", default: 8080, valid: { (0...65_535).contains($0) },
        expected: "a port in 0...65535"),
      sessions: .init(
        idleTimeout: .seconds(
          try resolved(
            idleTimeout, "APP_SERVER_IDLE_TIMEOUT_SECONDS", default: 1800, valid: { $0 > 0 },
            expected: "a positive number of seconds")),
        maximumSessionCount: try resolved(
          maxSessions, "APP_SERVER_MAX_SESSIONS", default: 1000, valid: { $0 >= 1 },
          expected: "at least 1")),
      security: .init(
        allowedHosts: Set(try list(allowedHosts, "APP_SERVER_ALLOWED_HOSTS")),
        secureCookies: try secureCookies
          || resolved(nil, "APP_SERVER_SECURE_COOKIES", default: false, expected: "true or false"),
        trustedProxies: Set(try list(trustedProxies, "APP_SERVER_TRUSTED_PROXIES")),
        sessionCreation: .init(burst: 20, perSecond: sessionsPerMinute / 60),
        actions: .init(burst: 2 * actionsPerSecond, perSecond: actionsPerSecond)),
      favoriteFailureRate: try resolved(
        favoriteFailureRate, "FAVORITE_FAILURE_RATE", valid: { (0...1).contains($0) },
        expected: "between 0 and 1"))
    let storage = try await openStorage(logger: logger)
    logger.info(
      "Starting",
      metadata: [
        "offline": "\(offline)", "host": "\(configuration.host)",
        "database": "\(storage.description)",
      ])
    // One registry for the server's metrics and, through swift-metrics, the live clients'.
    let metrics = ServerMetrics()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
    try await WebServer(
      configuration: configuration, logger: logger, metrics: metrics,
      visitorData: storage.visitorData, archive: storage.sessionArchive
    ) { dependencies in
      dependencies.weatherClient = weatherClient
      dependencies.factClient = factClient
      dependencies.randomNumberClient = randomNumberClient
    }
    .run { url in
      FileHandle.standardOutput.write(Data("app-server: listening on \(url)\n".utf8))
    }
    await storage.close()
  }

  /// Where visitors' data is kept: PostgreSQL with `--database-url`/`DATABASE_URL`, else one
  /// SQLite file. A database that cannot be opened (a bad URL, a server that cannot be reached,
  /// a file that is not a database) stops the server here, before it listens.
  func openStorage(logger: Logger) async throws -> OpenedStorage {
    let url = try resolved(databaseURL, "DATABASE_URL", valid: { !$0.isEmpty }, expected: "a URL")
    guard let url else {
      let path = try StorageLocation.databasePath(flag: database, fileName: "app-server.sqlite")
      return .sqlite(try StorageLocation.open(path))
    }
    if database != nil || environment.string("APP_DATABASE") != nil {
      throw ValidationError(
        "Both a PostgreSQL URL (--database-url/DATABASE_URL) and an SQLite file (--database/APP_DATABASE) are given; keep one."
      )
    }
    return .postgres(try await PostgresStorage.open(url: url, logger: logger))
  }

  /// Repeated flags, else a comma-separated variable; entries must be non-empty and plain.
  func list(_ flags: [String], _ variable: String) throws -> [String] {
    let values =
      flags.isEmpty
      ? (environment.string(variable) ?? "").split(separator: ",").map {
        $0.trimmingCharacters(in: .whitespaces)
      } : flags
    for value in values
    where value.isEmpty || value.contains(where: { $0.isWhitespace || $0 == "/" }) {
      throw ValidationError("\(variable) entry '\(value)' is not a host name or address")
    }
    return values
  }

  static func source(_ text: String) throws -> RandomNumberClient.Configuration.Source {
    guard let source = RandomNumberClient.Configuration.Source(rawValue: text.lowercased()) else {
      throw ValidationError("--random-number-source must be system or http")
    }
    return source
  }
}

do {
  let command = try AppServer.parse()
  try await command.serve()
} catch {
  AppServer.exit(withError: error)
}
