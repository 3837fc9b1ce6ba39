import Foundation
import Hummingbird

/// A request the API refuses, answered with its status and a JSON body
/// `{"error": "<message>", "status": <code>}`.
///
/// Every refusal happens before the session's store sees anything, so a refused request changes
/// nothing.
public struct APIError: HTTPResponseError, Equatable, Sendable, CustomStringConvertible {
  /// The HTTP status, always 4xx or 503.
  public var status: HTTPResponse.Status
  /// What was wrong, for the person calling the API.
  public var message: String
  /// Extra headers, e.g. `Retry-After` on 503.
  public var headers: HTTPFields

  /// Creates a refusal.
  public init(_ status: HTTPResponse.Status, _ message: String, headers: HTTPFields = [:]) {
    self.status = status
    self.message = message
    self.headers = headers
  }

  public var description: String { "\(status.code) \(message)" }

  /// The JSON body of an error response.
  public struct Body: Codable, Equatable, Sendable {
    /// What was wrong.
    public var error: String
    /// The HTTP status code, repeated for convenience.
    public var status: Int
  }

  public func response(from request: Request, context: some RequestContext) throws -> Response {
    var headers = self.headers
    headers[.contentType] = "application/json; charset=utf-8"
    headers[.cacheControl] = "no-store"
    let body = (try? JSONEncoder().encode(Body(error: message, status: status.code))) ?? Data()
    return Response(
      status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
  }
}

extension APIError {
  /// The cookie names no live session: it never existed, expired, or was ended.
  package static var unknownSession: Self {
    APIError(.notFound, "unknown or expired session; create one with POST /api/session")
  }

  /// The state an action produced is not saved (yet): the change is in the session, and the
  /// server keeps trying to save it, but a 2xx would claim it is kept.
  package static func notSaved(_ reason: String) -> Self {
    APIError(
      .serviceUnavailable,
      "not saved: \(reason). The change is kept on this server and saved as soon as the storage takes writes again; a restart of this server before then would lose it.",
      headers: [.retryAfter: "5"])
  }

  /// The copy of the session that applied the action was stale: another copy (on another
  /// instance) had taken the session over, so nothing it did is kept. It is dropped; the next
  /// request resumes what the storage holds.
  package static var superseded: Self {
    APIError(
      .serviceUnavailable,
      "not saved: this session moved to another server meanwhile, and this change was made on an out-of-date copy; try again",
      headers: [.retryAfter: "1"])
  }

  /// Recording routes on a server started without `--allow-recording` (or an app that cannot be
  /// recorded).
  package static var recordingOff: Self {
    APIError(.notFound, "this server does not record sessions (start it with --allow-recording)")
  }

  /// A record asked of a session that is not being recorded.
  package static var notRecording: Self {
    APIError(
      .notFound,
      "this session is not being recorded; start recording with POST /api/session/recording")
  }

  /// The request carries no session cookie.
  package static var noSession: Self {
    APIError(.notFound, "no session; create one with POST /api/session")
  }
}
