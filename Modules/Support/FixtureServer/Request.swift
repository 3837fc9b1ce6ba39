import Foundation

extension FixtureServer {
  /// One request the server received, as it arrived on the wire.
  public struct Request: Hashable, Sendable {
    /// The method, e.g. `GET`.
    public var method: String
    /// The exact request target of the request line, e.g. `/v1/search?name=Z%C3%BCrich`.
    public var target: String
    /// The headers, in the order received.
    public var headers: [Header]
    /// The body (empty for a GET).
    public var body: Data

    /// Creates a request.
    public init(method: String, target: String, headers: [Header] = [], body: Data = Data()) {
      self.method = method
      self.target = target
      self.headers = headers
      self.body = body
    }

    /// The target up to the `?`, still percent-encoded, e.g. `/v1/search`.
    public var path: String {
      String(self.target.prefix { $0 != "?" })
    }

    /// The target after the `?`, still percent-encoded, or `nil` when there is no `?`.
    public var query: String? {
      guard let index = self.target.firstIndex(of: "?") else { return nil }
      return String(self.target[self.target.index(after: index)...])
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? {
      self.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
  }

  /// An HTTP header field.
  public struct Header: Hashable, Sendable {
    /// The field name, e.g. `Content-Type`.
    public var name: String
    /// The field value.
    public var value: String

    /// Creates a header field.
    public init(_ name: String, _ value: String) {
      self.name = name
      self.value = value
    }
  }
}
