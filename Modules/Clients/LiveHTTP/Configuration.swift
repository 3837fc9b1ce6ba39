import Foundation

/// An environment variable whose value the live clients cannot use.
///
/// ```
/// Configuration: WEATHER_FORECAST_BASE_URL="api.open-meteo.com" is not valid: expected an absolute http or https URL
/// ```
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The variable's name.
  public var variable: String
  /// The value it had.
  public var value: String
  /// What a valid value looks like.
  public var expected: String

  /// Creates the error for `variable`.
  public init(variable: String, value: String, expected: String) {
    self.variable = variable
    self.value = value
    self.expected = expected
  }

  public var description: String {
    "Configuration: \(self.variable)=\"\(self.value)\" is not valid: expected \(self.expected)"
  }

  public var errorDescription: String? { self.description }
}

/// Reads typed settings from environment variables. An unset or empty variable gives the
/// default; a set but invalid one throws ``ConfigurationError``.
///
/// ```swift
/// let environment = EnvironmentReader(ProcessInfo.processInfo.environment)
/// let baseURL = try environment.url("FACT_BASE_URL", default: URL(string: "http://number-trivia.com")!)
/// ```
public struct EnvironmentReader: Sendable {
  /// The variables, by name.
  public var variables: [String: String]

  /// Reads from `variables` (by default, the process's environment).
  public init(_ variables: [String: String] = ProcessInfo.processInfo.environment) {
    self.variables = variables
  }

  /// The trimmed value of `name`, or `nil` when it is unset or empty.
  public func string(_ name: String) -> String? {
    guard let value = self.variables[name]?.trimmingCharacters(in: .whitespaces), !value.isEmpty
    else { return nil }
    return value
  }

  /// An absolute `http`/`https` URL without query or fragment.
  public func url(_ name: String, default defaultValue: URL) throws(ConfigurationError) -> URL {
    guard let text = self.string(name) else { return defaultValue }
    guard let url = HTTPBaseURL.validated(text) else {
      throw ConfigurationError(
        variable: name, value: text,
        expected: "an absolute http or https URL without query, e.g. https://example.com")
    }
    return url
  }

  /// A positive number of seconds, e.g. `10` or `0.5`.
  public func seconds(
    _ name: String, default defaultValue: Duration
  ) throws(ConfigurationError) -> Duration {
    guard let text = self.string(name) else { return defaultValue }
    guard let seconds = Double(text), seconds.isFinite, seconds > 0 else {
      throw ConfigurationError(
        variable: name, value: text, expected: "a positive number of seconds, e.g. 10 or 0.5")
    }
    return .milliseconds(Int64((seconds * 1_000).rounded(.up)))
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
    _ name: String, default defaultValue: Value
  ) throws(ConfigurationError) -> Value where Value.RawValue == String {
    guard let text = self.string(name) else { return defaultValue }
    guard let value = Value.allCases.first(where: { $0.rawValue.lowercased() == text.lowercased() })
    else {
      throw ConfigurationError(
        variable: name, value: text,
        expected: "one of " + Value.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return value
  }
}

/// Validation of base URLs given in code or in the environment.
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
