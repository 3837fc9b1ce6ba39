import Foundation
import Hummingbird
import Logging
import WebFrontend
import WebHTTP
import WebSessions

// One user action: the body read within its limit, decoded, sent.
extension WebRouter {
  /// One user action sent to the session: checked, sent, answered with the state after it once
  /// it is saved.
  package static let actions = RouteGroup(
    "actions", [("/api/session/actions", [.post])]
  ) { routes, environment in
    let (registry, limits, metrics) = (
      environment.registry, environment.limits, environment.metrics
    )
    routes.on("/api/session/actions", .post) { request, context in
      let id = try sessionID(of: request)
      try limits.admitAction(request, context: context)
      // An unknown session is reported before the body is even read.
      try await registry.resume(id, visitor: visitor(of: request), logger: context.logger)
      guard registry.contains(id) else { throw SessionError.unknownSession }
      try requireJSON(request)
      let body = try await readBody(request)
      let action: UserAction
      do throws(APIError) {
        action = try decodeAction(body, app: registry.app, logger: context.logger)
      } catch {
        metrics.action("invalid", result: ServerMetrics.reason(Int(error.status.code)))
        throw error
      }
      let snapshot: Snapshot
      do throws(SessionError) {
        snapshot = try await registry.perform(action, in: id, visitor: visitor(of: request))
      } catch {
        let refusal = APIError(error)
        metrics.action(action.type, result: ServerMetrics.reason(Int(refusal.status.code)))
        throw refusal
      }
      metrics.action(action.type, result: "ok")
      return json(snapshot)
    }
  }

  /// Only `application/json` bodies (UTF-8, the only charset JSON has) are read.
  static func requireJSON(_ request: Request) throws(APIError) {
    guard isJSONInUTF8(request.headers[.contentType] ?? "") else {
      throw APIError(
        .unsupportedMediaType, "the body must be application/json in UTF-8 (Content-Type)")
    }
  }

  /// Whether a Content-Type names JSON in UTF-8: the media type `application/json` in any case,
  /// with no charset parameter or `charset=utf-8` (quoted or not, any case); parameters are
  /// separated by `;` with optional spaces and tabs around them.
  ///
  /// Written over the bytes: Foundation's `trimmingCharacters(in:)` cost as much per request
  /// as the rest of the route's checks together.
  package static func isJSONInUTF8(_ contentType: String) -> Bool {
    if contentType == "application/json" { return true }
    let parts = contentType.utf8.split(separator: UInt8(ascii: ";")).map(trimmedLowercased)
    guard parts.first == Array("application/json".utf8) else { return false }
    return parts.dropFirst().allSatisfy { parameter in
      !parameter.starts(with: "charset=".utf8) || parameter == Array("charset=utf-8".utf8)
        || parameter == Array(#"charset="utf-8""#.utf8)
    }
  }

  /// `bytes` without leading and trailing spaces and tabs, ASCII letters in lower case.
  static func trimmedLowercased(_ bytes: Substring.UTF8View) -> [UInt8] {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return bytes[first...last].map { byte in
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
  }

  /// The action in `body`, refused with 400 and the decoding failure's message.
  static func decodeAction(_ body: ByteBuffer, app: WebApp, logger: Logger)
    throws(APIError) -> UserAction
  {
    do {
      return try app.decodeAction(body.readableBytesView)
    } catch {
      logger.notice("Refused action", metadata: ["reason": "\(error.message.prefix(200))"])
      throw APIError(.badRequest, error.message)
    }
  }

  /// The body, refused with 413 beyond ``maximumBodySize``.
  static func readBody(_ request: Request) async throws(APIError) -> ByteBuffer {
    if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBodySize {
      throw tooLarge
    }
    do {
      return try await request.body.collect(upTo: maximumBodySize)
    } catch {
      throw tooLarge
    }
  }

  static var tooLarge: APIError {
    APIError(.contentTooLarge, "the request body is larger than \(maximumBodySize) bytes")
  }
}
