import ArgumentParser
import Foundation
import LiveHTTP
import Logging

/// The command line of `app-server`: every option can also come from the environment; a flag
/// wins over its variable, and an unset variable keeps the default.
struct AppServer: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-server",
    abstract: "Serves the Composable App as a web page, one store per visitor.",
    discussion: """
      Open the printed URL in a browser. The live clients also read their own variables \
      (WEATHER_GEOCODING_BASE_URL, WEATHER_FORECAST_BASE_URL, FACT_BASE_URL, \
      RANDOM_NUMBER_SOURCE, RANDOM_NUMBER_BASE_URL, HTTP_TIMEOUT_SECONDS, …; see docs/clients.md); \
      the options below override them. See docs/server.md for the API.
      """)

  @Option(help: "The address to listen on. [env: APP_SERVER_HOST] (default: 127.0.0.1)")
  var host: String?

  @Option(help: "The port to listen on; 0 picks a free one. [env: APP_SERVER_PORT] (default: 8080)")
  var port: Int?

  @Option(
    name: .customLong("idle-timeout"),
    help:
      "Seconds a session lives without a request. [env: APP_SERVER_IDLE_TIMEOUT_SECONDS] (default: 1800)"
  )
  var idleTimeout: Double?

  @Option(
    name: .customLong("max-sessions"),
    help:
      "The most sessions at once; a new one replaces the least recently used idle session, or is refused with 503 when none is idle. [env: APP_SERVER_MAX_SESSIONS] (default: 1000)"
  )
  var maxSessions: Int?

  @Option(
    name: .customLong("allowed-host"),
    help:
      "A host name the server answers to besides localhost, 127.0.0.1 and ::1 (repeatable); requests for other names get 421. [env: APP_SERVER_ALLOWED_HOSTS, comma-separated]"
  )
  var allowedHosts: [String] = []

  @Option(
    name: .customLong("trusted-proxy"),
    help:
      "The IP address of a proxy whose X-Forwarded-For names the client for the per-client limits (repeatable). [env: APP_SERVER_TRUSTED_PROXIES, comma-separated]"
  )
  var trustedProxies: [String] = []

  @Option(
    name: .customLong("actions-per-second"),
    help:
      "The actions one client may send per second in the long run (twice as many at once); more get 429. [env: APP_SERVER_ACTIONS_PER_SECOND] (default: 50)"
  )
  var actionsPerSecond: Double?

  @Option(
    name: .customLong("sessions-per-minute"),
    help:
      "The sessions one client may create per minute in the long run (20 at once); more get 429. [env: APP_SERVER_SESSIONS_PER_MINUTE] (default: 30)"
  )
  var sessionsPerMinute: Double?

  @Flag(
    name: .customLong("secure-cookies"),
    help:
      "Mark the session cookie Secure: the server is reached over TLS (directly or through a proxy). [env: APP_SERVER_SECURE_COOKIES=true]"
  )
  var secureCookies = false

  @Option(name: .customLong("geocoding-base-url"), help: "Open-Meteo geocoding base URL.")
  var geocodingBaseURL: String?

  @Option(name: .customLong("forecast-base-url"), help: "Open-Meteo forecast base URL.")
  var forecastBaseURL: String?

  @Option(name: .customLong("fact-base-url"), help: "Number-trivia base URL.")
  var factBaseURL: String?

  @Option(
    name: .customLong("random-number-source"),
    help: "Where random numbers come from: system or http.")
  var randomNumberSource: String?

  @Option(name: .customLong("random-number-base-url"), help: "Random-number service base URL.")
  var randomNumberBaseURL: String?

  @Option(
    name: .customLong("database"),
    help: ArgumentHelp(
      "The SQLite file visitors' favorites and settings are kept in (':memory:' keeps nothing). [env: APP_DATABASE] (default: $XDG_DATA_HOME/composable-app/app-server.sqlite, or ~/.local/share/…)",
      valueName: "path"))
  var database: String?

  @Option(
    name: .customLong("database-url"),
    help: ArgumentHelp(
      "A PostgreSQL database instead of the SQLite file, for several servers sharing one: postgres://user:password@host:port/database[?sslmode=disable|prefer|require&connect_timeout=seconds]. [env: DATABASE_URL]",
      valueName: "url"))
  var databaseURL: String?

  @Option(
    name: .customLong("favorite-failure-rate"),
    help:
      "A demonstration: favorites are saved by the seed's simulated service (a second's wait, failing this often, 0...1, kept for the session only) instead of the database. [env: FAVORITE_FAILURE_RATE]"
  )
  var favoriteFailureRate: Double?

  @Flag(
    help: """
      Run without a network: places from an embedded gazetteer, forecasts estimated from a \
      climate model (labelled "offline estimate"), computed facts, the system's random numbers.
      """)
  var offline = false

  @Option(
    name: .customLong("log-level"),
    help: "trace, debug, info, notice, warning, error or critical. [env: LOG_LEVEL] (default: info)"
  )
  var logLevel: String?

  /// The environment the defaults come from.
  var environment: EnvironmentReader { EnvironmentReader() }

  func validate() throws {
    for (flag, value) in [
      ("--geocoding-base-url", geocodingBaseURL), ("--forecast-base-url", forecastBaseURL),
      ("--fact-base-url", factBaseURL), ("--random-number-base-url", randomNumberBaseURL),
    ] {
      if let value, HTTPBaseURL.validated(value) == nil {
        throw ValidationError("\(flag) '\(value)' is not an absolute http or https URL")
      }
    }
    if let port, !(0...65_535).contains(port) {
      throw ValidationError("--port must be in 0...65535")
    }
    if let idleTimeout, !(idleTimeout > 0) {
      throw ValidationError("--idle-timeout must be a positive number of seconds")
    }
    if let maxSessions, maxSessions < 1 {
      throw ValidationError("--max-sessions must be at least 1")
    }
    if let actionsPerSecond, !(actionsPerSecond > 0) {
      throw ValidationError("--actions-per-second must be a positive number")
    }
    if let sessionsPerMinute, !(sessionsPerMinute > 0) {
      throw ValidationError("--sessions-per-minute must be a positive number")
    }
    if let favoriteFailureRate, !(0...1).contains(favoriteFailureRate) {
      throw ValidationError("--favorite-failure-rate must be between 0 and 1")
    }
    if let logLevel, Logger.Level(rawValue: logLevel) == nil {
      throw ValidationError("--log-level '\(logLevel)' is not a log level")
    }
  }

  /// A flag, else an environment variable, else the default; a variable that does not parse is
  /// an error rather than silently ignored.
  ///
  /// `isValid` checks a value from the environment as `validate()` checks the flag, with
  /// `expected` saying what was wanted: a variable out of range stops the server as a flag would.
  func resolved<Value: LosslessStringConvertible>(
    _ flag: Value?, _ variable: String, default defaultValue: Value,
    valid isValid: (Value) -> Bool = { _ in true }, expected: String = "valid"
  ) throws -> Value {
    try resolved(flag, variable, valid: isValid, expected: expected) ?? defaultValue
  }

  /// A flag, else an environment variable, else nil: for a setting that is off unless given.
  func resolved<Value: LosslessStringConvertible>(
    _ flag: Value?, _ variable: String,
    valid isValid: (Value) -> Bool = { _ in true }, expected: String = "valid"
  ) throws -> Value? {
    if let flag { return flag }
    guard let text = environment.string(variable) else { return nil }
    guard let value = Value(text), isValid(value) else {
      throw ValidationError("\(variable)='\(text)' is not \(expected)")
    }
    return value
  }
}
