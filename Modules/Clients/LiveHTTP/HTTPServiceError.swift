import Foundation

/// A failure to get a usable answer from an outside HTTP service.
///
/// The message names the service and the cause, so it can be shown as is:
///
/// ```
/// Open-Meteo geocoding: HTTP 503
/// Open-Meteo forecast: timed out after 10 s
/// Number trivia: cannot reach number-trivia.com:80 (Could not connect to the server.)
/// ```
public struct HTTPServiceError: Error, Hashable, Sendable, CustomStringConvertible,
  LocalizedError
{
  /// The service, as people know it, e.g. `"Open-Meteo geocoding"`.
  public var service: String
  /// What went wrong.
  public var cause: Cause

  /// Creates an error of `service`.
  public init(service: String, cause: Cause) {
    self.service = service
    self.cause = cause
  }

  /// What went wrong with a request.
  public enum Cause: Hashable, Sendable {
    /// The request's URL could not be built, e.g. from a malformed base URL.
    case invalidURL(String)
    /// No connection could be made to `host` (refused, unknown host, no network).
    case unreachable(host: String, detail: String)
    /// No complete answer arrived within the configured timeout.
    case timedOut(after: Duration)
    /// The service answered with a status outside 200–299.
    case httpStatus(Int)
    /// The service refused the request and said why (e.g. Open-Meteo's `{"error":true,"reason":…}`).
    case rejected(status: Int, reason: String)
    /// The body is not what the client expects; `path` locates the bad value, e.g. `daily.time[2]`.
    case undecodableBody(path: String, detail: String)
    /// The response body was longer than the requester accepts (``HTTPRequester/maximumBodySize``);
    /// it was not read to the end.
    case bodyTooLarge(limit: Int)
    /// Any other transport failure.
    case transport(String)
  }

  public var description: String {
    "\(self.service): \(self.cause)"
  }

  public var errorDescription: String? { self.description }
}

extension HTTPServiceError.Cause: CustomStringConvertible {
  public var description: String {
    switch self {
    case .invalidURL(let url):
      "invalid request URL \(url)"
    case .unreachable(let host, let detail):
      "cannot reach \(host) (\(detail))"
    case .timedOut(let after):
      "timed out after \(after.secondsDescription) s"
    case .httpStatus(let status):
      "HTTP \(status)"
    case .rejected(let status, let reason):
      "HTTP \(status): \(reason)"
    case .undecodableBody(let path, let detail):
      "response body does not decode at \(path.isEmpty ? "the top level" : path): \(detail)"
    case .bodyTooLarge(let limit):
      "response body is larger than \(limit) bytes"
    case .transport(let detail):
      "request failed (\(detail))"
    }
  }
}

extension Duration {
  /// `1.5`, `10`, `0.25`: seconds without trailing zeros.
  var secondsDescription: String {
    let (seconds, attoseconds) = self.components
    let milliseconds = seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    if milliseconds % 1_000 == 0 { return "\(milliseconds / 1_000)" }
    var text = String(format: "%.3f", Double(milliseconds) / 1_000)
    while text.hasSuffix("0") { text.removeLast() }
    return text
  }
}
