import AppConfiguration
import FactClient
import Foundation

extension FactClient {
  /// Where and how the live client reaches the number-trivia service.
  ///
  /// Build it in code (an executable's flags), or from the environment:
  ///
  /// | variable | default |
  /// |---|---|
  /// | `FACT_BASE_URL` | `http://number-trivia.com` |
  /// | `FACT_TIMEOUT_SECONDS` | `HTTP_TIMEOUT_SECONDS`, else 10 |
  ///
  /// ```swift
  /// let client = FactClient.live(configuration: .init(timeout: .seconds(3)))
  /// ```
  public struct Configuration: Hashable, Sendable {
    /// The base of the service; requests go to `<base>/<number>/trivia`.
    public var baseURL: URL
    /// The longest one request may take.
    public var timeout: Duration

    /// The public number-trivia service (plain http, as it is published).
    public static let defaultBaseURL = URL(string: "http://number-trivia.com")!
    /// The timeout when none is configured.
    public static let defaultTimeout = Duration.seconds(10)

    /// Creates a configuration; every parameter has the public service's default.
    public init(baseURL: URL = Self.defaultBaseURL, timeout: Duration = Self.defaultTimeout) {
      self.baseURL = baseURL
      self.timeout = timeout
    }

    /// Reads the configuration from environment variables (see the table above); unset
    /// variables keep their defaults.
    ///
    /// - Throws: ``ConfigurationError`` naming the first variable that is set but invalid.
    public init(
      environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws(ConfigurationError) {
      try self.init(settings: ConfigurationReader(environment))
    }

    /// Reads the configuration from `settings`: the variables above, or the flags that replace
    /// them; unset ones keep their defaults.
    ///
    /// - Throws: ``ConfigurationError`` naming the first flag or variable that is set but
    ///   invalid.
    public init(settings environment: ConfigurationReader) throws(ConfigurationError) {
      self.init(
        baseURL: try environment.url("FACT_BASE_URL", default: Self.defaultBaseURL),
        timeout: try environment.timeout("FACT_TIMEOUT_SECONDS", default: Self.defaultTimeout)
      )
    }
  }
}
