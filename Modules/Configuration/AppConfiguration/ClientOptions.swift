import ArgumentParser
import Foundation

/// The flags both executables share: where the live services are and how long to wait for them. Each flag replaces an environment variable (see ``variables``), and
/// both are validated by ``ConfigurationReader``, so `app-cli` and `app-server` accept the same names
/// and report a bad value with the same message.
public struct ClientOptions: ParsableArguments, Sendable {
  @Flag(
    help: """
      Run without a network: places from an embedded gazetteer, forecasts estimated from a \
      climate model (labelled "offline estimate"), facts computed from the number, random \
      numbers from the system.
      """)
  public var offline = false

  @Option(
    help: ArgumentHelp(
      "Base URL of the geocoding service. [env: WEATHER_GEOCODING_BASE_URL]", valueName: "url"))
  public var geocodingURL: String?

  @Option(
    help: ArgumentHelp(
      "Base URL of the forecast service. [env: WEATHER_FORECAST_BASE_URL]", valueName: "url"))
  public var forecastURL: String?

  @Option(
    help: ArgumentHelp(
      "Base URL of the number-trivia service. [env: FACT_BASE_URL]", valueName: "url"))
  public var factURL: String?

  @Option(
    help: ArgumentHelp(
      "Random numbers from 'system' (works offline) or 'http'. [env: RANDOM_NUMBER_SOURCE] (default: system)",
      valueName: "source"))
  public var randomSource: String?

  @Option(
    help: ArgumentHelp(
      "Base URL of the random-number service. [env: RANDOM_NUMBER_BASE_URL]", valueName: "url"))
  public var randomURL: String?

  @Option(
    help: ArgumentHelp(
      "Timeout of each request to a service, in seconds; replaces every client's own. [env: HTTP_TIMEOUT_SECONDS] (default: 10)",
      valueName: "seconds"))
  public var timeout: String?

  public init() {}

  /// The variables each flag replaces; `--timeout` also replaces each client's own timeout.
  private static var variables: [(flag: String, variables: [String], value: KeyPath<Self, String?>)]
  {
    [
      ("--geocoding-url", ["WEATHER_GEOCODING_BASE_URL"], \.geocodingURL),
      ("--forecast-url", ["WEATHER_FORECAST_BASE_URL"], \.forecastURL),
      ("--fact-url", ["FACT_BASE_URL"], \.factURL),
      ("--random-source", ["RANDOM_NUMBER_SOURCE"], \.randomSource),
      ("--random-url", ["RANDOM_NUMBER_BASE_URL"], \.randomURL),
      (
        "--timeout",
        [
          "HTTP_TIMEOUT_SECONDS", "WEATHER_TIMEOUT_SECONDS", "FACT_TIMEOUT_SECONDS",
          "RANDOM_NUMBER_TIMEOUT_SECONDS",
        ], \.timeout
      ),
    ]
  }

  /// The flags given, as values for the variables they replace.
  public var flagValues: [FlagValue] {
    Self.variables.compactMap { entry in
      self[keyPath: entry.value].map {
        FlagValue(flag: entry.flag, variables: entry.variables, value: $0)
      }
    }
  }

  /// These flags over `environment`.
  public func settings(
    environment: [String: String] = ProcessInfo.processInfo.environment
  ) -> ConfigurationReader {
    ConfigurationReader(environment, flags: flagValues)
  }

  /// Checks the flags alone, when the command line is parsed; the environment's values are
  /// checked when they are read, with the same messages.
  public func validate() throws {
    let flags = settings(environment: [:])
    do {
      for variable in [
        "WEATHER_GEOCODING_BASE_URL", "WEATHER_FORECAST_BASE_URL", "FACT_BASE_URL",
        "RANDOM_NUMBER_BASE_URL",
      ] {
        _ = try flags.url(variable, default: URL(fileURLWithPath: "/"))
      }
      _ = try flags.seconds("HTTP_TIMEOUT_SECONDS", default: .zero)
      _ = try flags.value("RANDOM_NUMBER_SOURCE", expected: "one of system, http") {
        ["system", "http"].contains($0.lowercased()) ? $0 : nil
      }
    } catch {
      throw ValidationError(error.localizedDescription)
    }
  }
}

/// The executable whose data ``StorageOptions`` keep: names its default file in the help.
public protocol StorageOwner {
  /// The default SQLite file's name, e.g. `app.sqlite`.
  static var defaultFileName: String { get }
}

/// The flags of where data is kept, for the commands that keep any (the interactive app and the
/// server; one-shot commands keep nothing and do not offer them). Each replaces an environment
/// variable, as ``ClientOptions``' flags do.
public struct StorageOptions<Owner: StorageOwner>: ParsableArguments, Sendable {
  @Option(
    help: ArgumentHelp(
      "The SQLite file data is kept in (':memory:' keeps nothing). [env: APP_DATABASE] (default: $XDG_DATA_HOME/composable-app/\(Owner.defaultFileName), or ~/.local/share/composable-app/\(Owner.defaultFileName))",
      valueName: "path"))
  public var database: String?

  @Option(
    help: ArgumentHelp(
      "A PostgreSQL database instead of the SQLite file, for several processes sharing one: postgres://user:password@host:port/database[?sslmode=disable|prefer|require&connect_timeout=seconds]. [env: DATABASE_URL]",
      valueName: "url"))
  public var databaseURL: String?

  public init() {}

  /// The flags given, as values for the variables they replace.
  public var flagValues: [FlagValue] {
    [
      database.map { FlagValue(flag: "--database", variables: ["APP_DATABASE"], value: $0) },
      databaseURL.map { FlagValue(flag: "--database-url", variables: ["DATABASE_URL"], value: $0) },
    ].compactMap { $0 }
  }

  public func validate() throws {
    if database?.isEmpty == true || databaseURL?.isEmpty == true {
      throw ValidationError("--database and --database-url must not be empty.")
    }
    do {
      _ = try ConfigurationReader([:], flags: flagValues).storage()
    } catch {
      throw ValidationError(error.localizedDescription)
    }
  }
}

/// Where data is kept, as the settings name it.
public enum StorageSetting: Hashable, Sendable {
  /// One SQLite file: the path given (`--database`/`APP_DATABASE`), or the executable's default
  /// when `nil`.
  case sqlite(path: String?)
  /// A PostgreSQL database (`--database-url`/`DATABASE_URL`).
  case postgres(url: String)
}

/// Two settings given together that exclude each other.
public struct ConflictingOptionsError: ConfigurationProblem, Hashable {
  public var message: String
  public var errorDescription: String? { message }
}

extension ConfigurationReader {
  /// The storage the settings choose; a PostgreSQL URL together with an SQLite file is refused.
  public func storage() throws -> StorageSetting {
    let path = string("APP_DATABASE")
    guard let url = string("DATABASE_URL") else { return .sqlite(path: path) }
    if path != nil {
      throw ConflictingOptionsError(
        message:
          "Both a PostgreSQL URL (--database-url/DATABASE_URL) and an SQLite file (--database/APP_DATABASE) are given; keep one."
      )
    }
    return .postgres(url: url)
  }
}
