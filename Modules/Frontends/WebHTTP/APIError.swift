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
