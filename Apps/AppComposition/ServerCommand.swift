import AppConfiguration
import ArgumentParser
import Dependencies
import Foundation
import Logging
import Metrics
import Prometheus
import WebRoutes

/// The `app-server` command line: every option can also come from the environment; a flag wins
/// over its variable, and an unset variable keeps the default. Flags and variables are checked by
/// the same rules and report a bad value the same way.
public struct ServerCommand: ParsableCommand, StorageOwner {
  /// The SQLite file visitors' data and sessions are kept in, in the user's data folder, unless
  /// `--database`/`APP_DATABASE` names another.
  public static let defaultFileName = "app-server.sqlite"

  public static let configuration = CommandConfiguration(
    commandName: "app-server",
    abstract: "Serves the Composable App as a web page, one store per visitor.",
    discussion: """
      Open the printed URL in a browser. The live clients also read their own variables \
      (WEATHER_TIMEOUT_SECONDS, FACT_TIMEOUT_SECONDS, …; see docs/clients.md); the options below \
      override them. See docs/server.md for the API.
      """,
    version: AppVersion.current)

  @Option(help: "The address to listen on. [env: APP_SERVER_HOST] (default: 127.0.0.1)")
  package var host: String?

  @Option(help: "The port to listen on; 0 picks a free one. [env: APP_SERVER_PORT] (default: 8080)")
  package var port: String?

  @Option(
    name: .customLong("idle-timeout"),
    help:
      "Seconds a session stays in memory without a request; its saved state stays, and its visitor's next request resumes it. [env: APP_SERVER_IDLE_TIMEOUT_SECONDS] (default: 1800)"
  )
  package var idleTimeout: String?

  @Option(
    name: .customLong("max-sessions"),
    help:
      "The most sessions at once; a new one replaces the least recently used idle session, or is refused with 503 when none is idle. [env: APP_SERVER_MAX_SESSIONS] (default: 1000)"
  )
  package var maxSessions: String?

  @Option(
    name: .customLong("allowed-host"),
    help:
      "A host name the server answers to besides localhost, 127.0.0.1 and ::1 (repeatable); requests for other names get 421. [env: APP_SERVER_ALLOWED_HOSTS, comma-separated]"
  )
  package var allowedHosts: [String] = []

  @Option(
    name: .customLong("trusted-proxy"),
    help:
      "The IP address of a proxy whose X-Forwarded-For names the client for the per-client limits (repeatable). [env: APP_SERVER_TRUSTED_PROXIES, comma-separated]"
  )
  package var trustedProxies: [String] = []

  @Option(
    name: .customLong("actions-per-second"),
    help:
      "The actions one client may send per second in the long run (twice as many at once); more get 429. [env: APP_SERVER_ACTIONS_PER_SECOND] (default: 50)"
  )
  package var actionsPerSecond: String?

  @Option(
    name: .customLong("sessions-per-minute"),
    help:
      "The sessions one client may create per minute in the long run (20 at once); more get 429. [env: APP_SERVER_SESSIONS_PER_MINUTE] (default: 30)"
  )
  package var sessionsPerMinute: String?

  @Option(
    name: .customLong("reads-per-second"),
    help:
      "The session states one client may read per second in the long run (twice as many at once); more get 429. [env: APP_SERVER_READS_PER_SECOND] (default: 50)"
  )
  package var readsPerSecond: String?

  @Option(
    name: .customLong("ipv6-client-prefix"),
    help:
      "The length of the IPv6 prefix that counts as one client in the limits (every address of one /64 is one client by default; a /48 shares 4 clients' budgets). [env: APP_SERVER_IPV6_CLIENT_PREFIX] (default: 64)"
  )
  package var ipv6ClientPrefix: String?

  @Flag(
    name: .customLong("secure-cookies"),
    help:
      "Mark the session cookie Secure: the server is reached over TLS (directly or through a proxy). [env: APP_SERVER_SECURE_COOKIES=true]"
  )
  package var secureCookies = false

  @Flag(
    name: .customLong("allow-recording"),
    help:
      "Let each visitor record their own session and download it, or the test written from it (the page's developer panel: add ?devtools to the address). Off by default. [env: APP_SERVER_ALLOW_RECORDING=true]"
  )
  package var allowRecording = false

  @Option(
    name: .customLong("favorite-failure-rate"),
    help:
      "A demonstration: favorites are saved by the seed's simulated service (a second's wait, failing this often, 0...1, kept for the session only) instead of the database. [env: FAVORITE_FAILURE_RATE]"
  )
  package var favoriteFailureRate: String?

  @Option(
    name: .customLong("log-level"),
    help: "trace, debug, info, notice, warning, error or critical. [env: LOG_LEVEL] (default: info)"
  )
  package var logLevel: String?

  @OptionGroup package var clientOptions: ClientOptions
  @OptionGroup package var storageOptions: StorageOptions<ServerCommand>

  public init() {}

  /// The most steps a visitor's recording keeps (`--allow-recording`).
  public static let recordingLimit = 2_000

  /// The server's own flags, as values for the variables they replace.
  package var flagValues: [FlagValue] {
    let single: [(String, String, String?)] = [
      ("--host", "APP_SERVER_HOST", host), ("--port", "APP_SERVER_PORT", port),
      ("--idle-timeout", "APP_SERVER_IDLE_TIMEOUT_SECONDS", idleTimeout),
      ("--max-sessions", "APP_SERVER_MAX_SESSIONS", maxSessions),
      ("--allowed-host", "APP_SERVER_ALLOWED_HOSTS", list(allowedHosts)),
      ("--trusted-proxy", "APP_SERVER_TRUSTED_PROXIES", list(trustedProxies)),
      ("--actions-per-second", "APP_SERVER_ACTIONS_PER_SECOND", actionsPerSecond),
      ("--sessions-per-minute", "APP_SERVER_SESSIONS_PER_MINUTE", sessionsPerMinute),
      ("--reads-per-second", "APP_SERVER_READS_PER_SECOND", readsPerSecond),
      ("--ipv6-client-prefix", "APP_SERVER_IPV6_CLIENT_PREFIX", ipv6ClientPrefix),
      ("--secure-cookies", "APP_SERVER_SECURE_COOKIES", secureCookies ? "true" : nil),
      ("--allow-recording", "APP_SERVER_ALLOW_RECORDING", allowRecording ? "true" : nil),
      ("--favorite-failure-rate", "FAVORITE_FAILURE_RATE", favoriteFailureRate),
      ("--log-level", "LOG_LEVEL", logLevel),
    ]
    return clientOptions.flagValues + storageOptions.flagValues
      + single.compactMap { flag, variable, value in
        value.map { FlagValue(flag: flag, variables: [variable], value: $0) }
      }
  }

  private func list(_ values: [String]) -> String? {
    values.isEmpty ? nil : values.joined(separator: ",")
  }

  /// Every flag and variable of the server, over `environment`.
  public func settings(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ConfigurationReader {
    ConfigurationReader(environment, flags: flagValues)
  }

  /// Checks the flags alone, when the command line is parsed; the environment's values are
  /// checked with the same rules in ``serverSettings(_:)``.
  public func validate() throws {
    do {
      _ = try Self.serverSettings(settings(environment: [:]))
    } catch {
      throw ValidationError(error.localizedDescription)
    }
  }

  /// The server's settings, and the log level, read and checked.
  package static func serverSettings(
    _ settings: ConfigurationReader
  ) throws -> (configuration: WebServer.Configuration, logLevel: Logger.Level) {
    let logLevel =
      try settings.value(
        "LOG_LEVEL",
        expected: "a log level (trace, debug, info, notice, warning, error or critical)"
      ) { Logger.Level(rawValue: $0.lowercased()) } ?? .info
    let actionsPerSecond =
      try settings.number("APP_SERVER_ACTIONS_PER_SECOND", expected: "a positive number") {
        $0 > 0
      } ?? 50
    let sessionsPerMinute =
      try settings.number("APP_SERVER_SESSIONS_PER_MINUTE", expected: "a positive number") {
        $0 > 0
      } ?? 30
    let readsPerSecond =
      try settings.number("APP_SERVER_READS_PER_SECOND", expected: "a positive number") {
        $0 > 0
      } ?? 50
    let idleTimeout =
      try settings.number(
        "APP_SERVER_IDLE_TIMEOUT_SECONDS", expected: "a positive number of seconds"
      ) { $0 > 0 } ?? 1800
    let configuration = WebServer.Configuration(
      host: settings.string("APP_SERVER_HOST") ?? "127.0.0.1",
      port: try settings.integer(
        "APP_SERVER_PORT", in: 0...65_535, expected: "a port in 0...65535") ?? 8080,
      sessions: .init(
        idleTimeout: .milliseconds(Int64((idleTimeout * 1000).rounded(.up))),
        maximumSessionCount: try settings.integer(
          "APP_SERVER_MAX_SESSIONS", in: 1...Int.max, expected: "a whole number, at least 1")
          ?? 1000,
        recordingLimit: try settings.boolean("APP_SERVER_ALLOW_RECORDING") == true
          ? Self.recordingLimit : nil),
      security: .init(
        allowedHosts: Set(try settings.hosts("APP_SERVER_ALLOWED_HOSTS")),
        secureCookies: try settings.boolean("APP_SERVER_SECURE_COOKIES") ?? false,
        trustedProxies: Set(try settings.hosts("APP_SERVER_TRUSTED_PROXIES")),
        sessionCreation: .init(burst: 20, perSecond: sessionsPerMinute / 60),
        actions: .init(burst: 2 * actionsPerSecond, perSecond: actionsPerSecond),
        reads: .init(burst: 2 * readsPerSecond, perSecond: readsPerSecond),
        ipv6ClientPrefix: try settings.integer(
          "APP_SERVER_IPV6_CLIENT_PREFIX", in: 16...128, expected: "a prefix length in 16...128")
          ?? 64))
    // The composition reads it (favorites are the app's, not the server's); checked here with the
    // other flags, so that a bad value stops the server before anything starts.
    _ = try settings.favoriteFailureRate()
    return (configuration, logLevel)
  }

  /// Parses `arguments`, runs the server until it is stopped (SIGINT/SIGTERM drain it), and
  /// returns the process's exit status. Errors in the command line or the environment are
  /// reported before anything listens.
  public static func main(arguments: [String], composition: ServerComposition) async -> Int32 {
    let command: ServerCommand
    do {
      // `--help`, `-h`, `--version` and `help` parse to ArgumentParser's own commands, whose
      // `run()` throws the request to print help or the version (reported below, exit 0).
      var parsed = try parseAsRoot(arguments)
      guard let server = parsed as? ServerCommand else {
        try parsed.run()
        return 0
      }
      command = server
    } catch {
      return report(error)
    }
    do {
      try await command.serve(composition: composition)
      return 0
    } catch {
      FileHandle.standardError.write(Data("app-server: \(error.localizedDescription)\n".utf8))
      // A bad flag or variable is a usage error (64), as when the command line is parsed.
      return error is any ConfigurationProblem
        ? ExitCode.validationFailure.rawValue : ExitCode.failure.rawValue
    }
  }

  private static func report(_ error: any Error) -> Int32 {
    let message = fullMessage(for: error)
    let code = exitCode(for: error).rawValue
    let handle = code == 0 ? FileHandle.standardOutput : FileHandle.standardError
    handle.write(Data((message.isEmpty ? "" : message + "\n").utf8))
    return code
  }

  package func serve(composition: ServerComposition) async throws {
    let settings = settings()
    let (configuration, level) = try Self.serverSettings(settings)
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = level
      return handler
    }
    let logger = Logger(label: "app-server")
    let clients = try composition.clients(settings, clientOptions.offline)
    let storage = try await composition.openStorage(settings, logger)
    logger.info(
      "Starting",
      metadata: [
        "offline": "\(clientOptions.offline)", "host": "\(configuration.host)",
        "database": "\(storage.description)",
      ])
    // One registry for the server's metrics and, through swift-metrics, the live clients'.
    let metrics = ServerMetrics(page: composition.app.page)
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: metrics.registry))
    do {
      try await WebServer(
        app: composition.app, configuration: configuration, logger: logger, metrics: metrics,
        visitorData: storage.visitorData, savedSessions: storage.savedSessions,
        dependencies: clients
      )
      .run { url in
        FileHandle.standardOutput.write(Data("app-server: listening on \(url)\n".utf8))
      }
    } catch {
      await storage.close()
      throw error
    }
    await storage.close()
  }
}
