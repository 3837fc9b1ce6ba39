import Foundation

extension FixtureServer {
  /// A canned answer.
  ///
  /// ```swift
  /// .json(#"{"results":[]}"#)
  /// .status(503)
  /// .text("42 is the answer.").delayed(by: .seconds(30))
  /// ```
  public struct Response: Sendable {
    /// The status code.
    public var status: Int
    /// The headers; `Content-Length` is always set from ``body``.
    public var headers: [Header]
    /// The body.
    public var body: Data
    /// How long the server waits after reading the request before it answers.
    public var delay: Duration?

    /// Creates a response.
    public init(
      status: Int = 200, headers: [Header] = [], body: Data = Data(), delay: Duration? = nil
    ) {
      self.status = status
      self.headers = headers
      self.body = body
      self.delay = delay
    }

    /// A JSON body (`Content-Type: application/json`).
    public static func json(_ text: String, status: Int = 200) -> Self {
      Self(
        status: status, headers: [Header("Content-Type", "application/json")],
        body: Data(text.utf8))
    }

    /// A JSON body read from a file, e.g. a test resource.
    public static func json(contentsOf url: URL, status: Int = 200) throws -> Self {
      Self(
        status: status, headers: [Header("Content-Type", "application/json")],
        body: try Data(contentsOf: url))
    }

    /// A plain-text body (`Content-Type: text/plain; charset=utf-8`).
    public static func text(_ text: String, status: Int = 200) -> Self {
      Self(
        status: status, headers: [Header("Content-Type", "text/plain; charset=utf-8")],
        body: Data(text.utf8))
    }

    /// A status with an optional plain-text body.
    public static func status(_ status: Int, body: String = "") -> Self {
      .text(body, status: status)
    }

    /// 404 with the body `not found`, what ``FixtureServer/start(host:routes:)`` answers for
    /// unknown paths.
    public static let notFound = Self.status(404, body: "not found")

    /// The same response, sent after `delay`.
    public func delayed(by delay: Duration) -> Self {
      var response = self
      response.delay = delay
      return response
    }
  }
}
