import AppConfiguration
import Foundation
import RandomNumberClient

extension RandomNumberClient {
  /// Where the live client takes its numbers from.
  ///
  /// Build it in code (an executable's flags), or from the environment:
  ///
  /// | variable | default |
  /// |---|---|
  /// | `RANDOM_NUMBER_SOURCE` | `system` (or `http`) |
  /// | `RANDOM_NUMBER_BASE_URL` | `http://www.randomnumberapi.com` |
  /// | `RANDOM_NUMBER_TIMEOUT_SECONDS` | `HTTP_TIMEOUT_SECONDS`, else 10 |
  ///
  /// ```swift
  /// let client = RandomNumberClient.live(configuration: .init(source: .http))
  /// ```
  public struct Configuration: Hashable, Sendable {
    /// Where numbers come from.
    public enum Source: String, CaseIterable, Hashable, Sendable {
      /// The system's secure generator (`SystemRandomNumberGenerator`); works offline.
      case system
      /// The random-number HTTP service at ``Configuration/baseURL``.
      case http
    }

    /// Where numbers come from.
    public var source: Source
    /// The base of the HTTP service; requests go to `<base>/api/v1.0/random`. Used by `.http`.
    public var baseURL: URL
    /// The longest one request may take. Used by `.http`.
    public var timeout: Duration

    /// The public random-number service.
    public static let defaultBaseURL = URL(string: "http://www.randomnumberapi.com")!
    /// The timeout when none is configured.
    public static let defaultTimeout = Duration.seconds(10)

    /// Creates a configuration; by default, numbers come from the system's generator.
    public init(
      source: Source = .system,
      baseURL: URL = Self.defaultBaseURL,
      timeout: Duration = Self.defaultTimeout
    ) {
      self.source = source
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
        source: try environment.choice("RANDOM_NUMBER_SOURCE", default: Source.system),
        baseURL: try environment.url("RANDOM_NUMBER_BASE_URL", default: Self.defaultBaseURL),
        timeout: try environment.timeout(
          "RANDOM_NUMBER_TIMEOUT_SECONDS", default: Self.defaultTimeout)
      )
    }
  }
}
