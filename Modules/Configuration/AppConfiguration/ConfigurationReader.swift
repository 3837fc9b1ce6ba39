import Configuration
import Foundation

/// A flag or an environment variable that stops an executable before it starts: a usage error,
/// reported in one line with exit status 64 by both executables.
public protocol ConfigurationProblem: LocalizedError, Sendable {}

/// A setting — a flag or an environment variable — whose value cannot be used.
///
/// Both executables report it the same way, naming what the user typed:
///
/// ```
/// --timeout="soon" is not valid: expected a positive number of seconds, e.g. 10 or 0.5
/// APP_SERVER_PORT="70000" is not valid: expected a port in 0...65535
/// ```
public struct ConfigurationError: ConfigurationProblem, Hashable, CustomStringConvertible {
  /// The flag (`--timeout`) or variable (`HTTP_TIMEOUT_SECONDS`) the value came from.
  public var name: String
  /// The value it had.
  public var value: String
  /// What a valid value looks like.
  public var expected: String

  /// Creates the error for the setting `name`.
  public init(name: String, value: String, expected: String) {
    self.name = name
    self.value = value
    self.expected = expected
  }

  public var description: String {
    "\(self.name)=\"\(self.value)\" is not valid: expected \(self.expected)"
  }

  public var errorDescription: String? { self.description }
}

/// A flag given on the command line, and the variables whose value it replaces.
///
/// `--timeout` replaces `HTTP_TIMEOUT_SECONDS` and each client's own timeout variable, so a flag
/// always wins over the environment.
public struct FlagValue: Hashable, Sendable {
  /// The flag as typed, e.g. `--timeout`.
  public var flag: String
  /// The variables it stands for, e.g. `["HTTP_TIMEOUT_SECONDS", "FACT_TIMEOUT_SECONDS"]`.
  public var variables: [String]
  /// The value given.
  public var value: String

  public init(flag: String, variables: [String], value: String) {
    self.flag = flag
    self.variables = variables
    self.value = value
  }
}

/// Reads typed settings: a flag, else an environment variable, else the default. An unset or
/// empty setting gives the default; a set but invalid one throws ``ConfigurationError`` naming
/// the flag or the variable it came from.
///
/// The look-up goes through swift-configuration: flags are an in-memory provider placed before
/// the environment's, so they win; `DATABASE_URL` is marked secret there.
///
/// ```swift
/// let settings = ConfigurationReader(flags: [FlagValue(flag: "--fact-url", variables: ["FACT_BASE_URL"], value: "http://127.0.0.1:8080")])
/// let baseURL = try settings.url("FACT_BASE_URL", default: URL(string: "http://number-trivia.com")!)
/// ```
public struct ConfigurationReader: Sendable {
  /// The flag that stands for each variable.
  private let flagsByVariable: [String: FlagValue]
  private let reader: ConfigReader

  /// Variables whose values never appear in configuration access logs.
  public static let secretVariables: Set<String> = ["DATABASE_URL"]

  /// Reads `flags` first, then `environment` (by default, the process's environment).
  public init(
    _ environment: [String: String] = ProcessInfo.processInfo.environment,
    flags: [FlagValue] = []
  ) {
    var flagsByVariable: [String: FlagValue] = [:]
    for flag in flags {
      for variable in flag.variables { flagsByVariable[variable] = flag }
    }
    self.flagsByVariable = flagsByVariable
    let flagProvider = InMemoryProvider(
      name: "flags",
      values: Dictionary(
        flagsByVariable.map { variable, flag in
          (
            AbsoluteConfigKey(Self.key(variable).components),
            ConfigValue(
              .string(flag.value), isSecret: Self.secretVariables.contains(variable))
          )
        }, uniquingKeysWith: { first, _ in first }))
    let environmentProvider = EnvironmentVariablesProvider(
      environmentVariables: environment,
      secretsSpecifier: .specific(Self.secretVariables))
    self.reader = ConfigReader(providers: [flagProvider, environmentProvider])
  }

  /// The configuration key of a variable: `APP_SERVER_PORT` is `app.server.port`, which the
  /// environment provider spells back as `APP_SERVER_PORT`.
  private static func key(_ variable: String) -> ConfigKey {
    ConfigKey(variable.lowercased().split(separator: "_").map(String.init))
  }

  /// Where a variable's value comes from: its flag's name when a flag stands for it.
  public func source(of variable: String) -> String {
    flagsByVariable[variable]?.flag ?? variable
  }

  /// The trimmed value of `variable` (or of its flag), or `nil` when it is unset or empty.
  public func string(_ variable: String) -> String? {
    let isSecret = Self.secretVariables.contains(variable)
    guard
      let value = reader.string(forKey: Self.key(variable), isSecret: isSecret)?
        .trimmingCharacters(in: .whitespaces),
      !value.isEmpty
    else { return nil }
    return value
  }

  /// The value of `variable` parsed by `parse`, or `nil` when unset; a value that does not parse
  /// throws, saying what was `expected`.
  public func value<Value>(
    _ variable: String, expected: String, _ parse: (String) -> Value?
  ) throws(ConfigurationError) -> Value? {
    guard let text = string(variable) else { return nil }
    guard let value = parse(text) else {
      throw ConfigurationError(name: source(of: variable), value: text, expected: expected)
    }
    return value
  }

  /// An absolute `http`/`https` URL without query or fragment.
  public func url(_ variable: String, default defaultValue: URL) throws(ConfigurationError) -> URL {
    try value(
      variable, expected: "an absolute http or https URL without query, e.g. https://example.com",
      HTTPBaseURL.validated) ?? defaultValue
  }

  /// A positive number of seconds, e.g. `10` or `0.5`.
  public func seconds(
    _ variable: String, default defaultValue: Duration
  ) throws(ConfigurationError) -> Duration {
    try value(variable, expected: "a positive number of seconds, e.g. 10 or 0.5") { text in
      guard let seconds = Double(text), seconds.isFinite, seconds > 0 else { return nil }
      return Duration.milliseconds(Int64((seconds * 1_000).rounded(.up)))
    } ?? defaultValue
  }

  /// A client's request timeout: its own variable (e.g. `FACT_TIMEOUT_SECONDS`), else
  /// `HTTP_TIMEOUT_SECONDS`, the timeout of every live client, else `defaultValue`. Both variables
  /// are validated when set.
  public func timeout(
    _ clientVariable: String, default defaultValue: Duration
  ) throws(ConfigurationError) -> Duration {
    let shared = try seconds("HTTP_TIMEOUT_SECONDS", default: defaultValue)
    return try seconds(clientVariable, default: shared)
  }

  /// One of the raw values of `Value`, case-insensitively.
  public func choice<Value: RawRepresentable & CaseIterable>(
    _ variable: String, default defaultValue: Value
  ) throws(ConfigurationError) -> Value where Value.RawValue == String {
    try value(
      variable, expected: "one of " + Value.allCases.map(\.rawValue).joined(separator: ", ")
    ) { text in
      Value.allCases.first { $0.rawValue.lowercased() == text.lowercased() }
    } ?? defaultValue
  }

  /// A whole number in `range`.
  public func integer(
    _ variable: String, in range: ClosedRange<Int>, expected: String
  ) throws(ConfigurationError) -> Int? {
    try value(variable, expected: expected) { text in
      Int(text).flatMap { range.contains($0) ? $0 : nil }
    }
  }

  /// A finite number for which `isValid` holds.
  public func number(
    _ variable: String, expected: String, where isValid: (Double) -> Bool = { _ in true }
  ) throws(ConfigurationError) -> Double? {
    try value(variable, expected: expected) { text in
      Double(text).flatMap { $0.isFinite && isValid($0) ? $0 : nil }
    }
  }

  /// `true`/`false` (also `1`/`0`, `yes`/`no`).
  public func boolean(_ variable: String) throws(ConfigurationError) -> Bool? {
    try value(variable, expected: "true or false") { text in
      switch text.lowercased() {
      case "true", "1", "yes": true
      case "false", "0", "no": false
      default: nil
      }
    }
  }

  /// A comma-separated list of host names or addresses (a repeated flag gives the same list).
  public func hosts(_ variable: String) throws(ConfigurationError) -> [String] {
    try value(variable, expected: "host names or addresses, separated by commas") { text in
      let entries = text.split(separator: ",", omittingEmptySubsequences: false).map {
        $0.trimmingCharacters(in: .whitespaces)
      }
      let isPlain = entries.allSatisfy {
        !$0.isEmpty && !$0.contains(where: { $0.isWhitespace || $0 == "/" })
      }
      return isPlain ? entries : nil
    } ?? []
  }
}

/// Validation of base URLs given in code, flags or the environment.
public enum HTTPBaseURL {
  /// `text` as a URL if it is an absolute `http`/`https` URL with a host and no query or
  /// fragment; otherwise `nil`.
  public static func validated(_ text: String) -> URL? {
    guard
      let components = URLComponents(string: text),
      let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
      let host = components.host, !host.isEmpty,
      components.query == nil, components.fragment == nil,
      let url = components.url
    else { return nil }
    return url
  }
}

extension ConfigurationReader {
  /// `FAVORITE_FAILURE_RATE` (`--favorite-failure-rate`), a demonstration of the seed's faults:
  /// when set, favorites are saved by the seed's simulated service (a second's wait, failing this
  /// often, kept for the session only) instead of the visitor's storage.
  public func favoriteFailureRate() throws(ConfigurationError) -> Double? {
    try number("FAVORITE_FAILURE_RATE", expected: "a number between 0 and 1") {
      (0...1).contains($0)
    }
  }
}
