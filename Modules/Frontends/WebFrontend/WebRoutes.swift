import Foundation
import Hummingbird
import Logging

/// The HTTP routes of the web front end: the page and the JSON API over sessions.
///
/// | route | answer |
/// |---|---|
/// | `GET /` | the page (HTML, CSS and JS in one document) |
/// | `POST /api/sessions` | 201 ``SessionResponse``: a new session's id and state |
/// | `GET /api/sessions/{id}/state` | 200 ``SessionResponse`` |
/// | `POST /api/sessions/{id}/actions` | 200 ``SessionResponse`` after one ``UserAction`` |
/// | `GET /api/sessions/{id}/events` | Server-Sent Events: `event: state` with a ``Snapshot`` |
/// | `DELETE /api/sessions/{id}` | 204, the session and its effects end |
///
/// Refusals are ``APIError``s: a JSON body `{"error": "…", "status": 4xx}`. `docs/server.md`
/// describes the forms in full.
///
/// ```swift
/// let registry = await SessionRegistry { $0.weatherClient = .previewValue }
/// let router = WebRoutes.router(registry: registry)
/// let app = Application(router: router)
/// ```
public enum WebRoutes {
  /// The largest request body accepted, in bytes (16 KiB).
  public static let maximumBodySize = 16 * 1024

  /// A session and its state: the answer of every successful session request.
  public struct SessionResponse: Codable, Equatable, Sendable {
    /// The session's id, to put in the URLs of later requests.
    public var id: String
    /// The revision of ``state``: it grows with every change of the session's state.
    public var revision: Int
    /// The state after the request.
    public var state: StateView

    init(id: String, snapshot: Snapshot) {
      self.id = id
      self.revision = snapshot.revision
      self.state = snapshot.state
    }
  }

  /// Builds the router over `registry`.
  ///
  /// - Parameter logger: logs each request at `debug` and refusals at `notice` level.
  public static func router(
    registry: SessionRegistry,
    logger: Logger = Logger(label: "web-frontend")
  ) -> Router<BasicRequestContext> {
    let router = Router()
    router.addMiddleware {
      LogRequestsMiddleware(.debug)
    }

    router.get("/") { _, _ in
      Response(
        status: .ok,
        headers: [
          .contentType: "text/html; charset=utf-8", .cacheControl: "no-cache",
          .contentSecurityPolicy:
            "default-src 'self'; style-src 'unsafe-inline'; script-src 'unsafe-inline'",
        ],
        body: ResponseBody(byteBuffer: ByteBuffer(string: WebPage.html)))
    }

    router.get("/healthz") { _, _ in "ok\n" }

    router.post("/api/sessions") { _, _ in
      let (id, snapshot) = try await registry.create()
      return try json(SessionResponse(id: id.rawValue, snapshot: snapshot), status: .created)
    }

    router.get("/api/sessions/:id/state") { _, context in
      let id = try context.parameters.require("id")
      let snapshot = try await registry.snapshot(of: id)
      return try json(SessionResponse(id: id, snapshot: snapshot))
    }

    router.post("/api/sessions/:id/actions") { request, context in
      let id = try context.parameters.require("id")
      // An unknown session is reported before the body is even read.
      guard await registry.contains(id) else { throw APIError.unknownSession(id) }
      let body = try await readBody(request)
      let action = try decodeAction(body, logger: logger)
      let snapshot = try await registry.perform(action, in: id)
      return try json(SessionResponse(id: id, snapshot: snapshot))
    }

    router.get("/api/sessions/:id/events") { _, context in
      let id = try context.parameters.require("id")
      let events = try await registry.subscribe(to: id)
      return Response(
        status: .ok,
        headers: [
          .contentType: "text/event-stream", .cacheControl: "no-store",
        ],
        body: ResponseBody { writer in
          try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
          for await event in events {
            try await writer.write(ByteBuffer(bytes: ServerSentEvents.encode(event)))
          }
          try await writer.finish(nil)
        })
    }

    router.delete("/api/sessions/:id") { _, context in
      let id = try context.parameters.require("id")
      try await registry.end(id)
      return Response(status: .noContent)
    }

    router.on("/api/**", method: .get) { request, _ -> Response in
      throw APIError(.notFound, "no such API route: GET \(request.uri.path)")
    }
    router.on("/api/**", method: .post) { request, _ -> Response in
      throw APIError(.notFound, "no such API route: POST \(request.uri.path)")
    }
    return router
  }

  /// The action in `body`, refused with 400 and the decoding failure's message.
  private static func decodeAction(_ body: Data, logger: Logger) throws(APIError) -> UserAction {
    do {
      return try UserAction.decode(body)
    } catch {
      logger.notice("Refused action", metadata: ["reason": "\(error.message)"])
      throw APIError(.badRequest, error.message)
    }
  }

  /// The body, refused with 413 beyond ``maximumBodySize``.
  private static func readBody(_ request: Request) async throws(APIError) -> Data {
    if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBodySize {
      throw tooLarge
    }
    do {
      let buffer = try await request.body.collect(upTo: maximumBodySize)
      return Data(buffer.readableBytesView)
    } catch {
      throw tooLarge
    }
  }

  private static var tooLarge: APIError {
    APIError(.contentTooLarge, "the request body is larger than \(maximumBodySize) bytes")
  }

  private static func json(
    _ value: some Encodable, status: HTTPResponse.Status = .ok
  ) throws -> Response {
    let data = try JSONEncoder().encode(value)
    return Response(
      status: status,
      headers: [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }
}

/// The wire form of the event stream (`text/event-stream`).
enum ServerSentEvents {
  /// `event: state` + `data: {"revision": n, "state": <StateView>}`, or a comment line for
  /// keep-alive.
  static func encode(_ event: SessionEvent) -> Data {
    switch event {
    case .state(let snapshot):
      let json = (try? JSONEncoder().encode(snapshot)) ?? Data("{}".utf8)
      return Data("event: state\ndata: ".utf8) + json + Data("\n\n".utf8)
    case .keepAlive:
      return Data(": keep-alive\n\n".utf8)
    }
  }
}
