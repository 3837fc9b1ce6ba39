import Foundation

/// Builds request URLs from a configured base URL, a path and query items.
///
/// Query names and values are percent-encoded strictly: everything but ASCII letters, digits and
/// `-._~,/:@` is encoded, including `+`, `&`, `=`, spaces and non-ASCII text (as UTF-8), which
/// `URLComponents` would leave partly unencoded.
///
/// ```swift
/// let url = try Endpoint.url(
///   base: URL(string: "https://geocoding-api.open-meteo.com")!, path: "/v1/search",
///   query: [("name", "San Francisco & co+1")], service: "Open-Meteo geocoding")
/// // https://geocoding-api.open-meteo.com/v1/search?name=San%20Francisco%20%26%20co%2B1
/// ```
public enum Endpoint {
  /// The characters left as they are in a query name or value.
  public static let queryAllowed: CharacterSet = {
    var allowed = CharacterSet()
    allowed.insert(charactersIn: "abcdefghijklmnopqrstuvwxyz")
    allowed.insert(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
    allowed.insert(charactersIn: "0123456789")
    allowed.insert(charactersIn: "-._~,/:@")
    return allowed
  }()

  /// Percent-encodes one query name or value (see ``queryAllowed``).
  public static func encodeQueryComponent(_ text: String) -> String {
    // Only fails for strings that are not valid Unicode, which a Swift String cannot be.
    text.addingPercentEncoding(withAllowedCharacters: Self.queryAllowed) ?? ""
  }

  /// `base` + `path` + `?query`, with a single `/` between base and path.
  ///
  /// `base` may carry a path prefix (`https://proxy.example/open-meteo`), which is kept.
  public static func url(
    base: URL, path: String, query: [(name: String, value: String)] = [], service: String
  ) throws(HTTPServiceError) -> URL {
    var text = base.absoluteString
    while text.hasSuffix("/") { text.removeLast() }
    if !path.isEmpty {
      text += path.hasPrefix("/") ? path : "/" + path
    }
    if !query.isEmpty {
      text += "?"
      text += query.map { name, value in
        "\(Self.encodeQueryComponent(name))=\(Self.encodeQueryComponent(value))"
      }
      .joined(separator: "&")
    }
    guard let url = URL(string: text) else {
      throw HTTPServiceError(service: service, cause: .invalidURL(text))
    }
    return url
  }
}
