import ComposableArchitecture
import ComposableRecording
import Foundation
import Hummingbird
import Logging
import SessionTestWriter
import WebFrontend
import WebHTTP
import WebSessions

/// The HTTP routes of the web front end: the page and the JSON API over the visitor's session.
///
/// | route | answer |
/// |---|---|
/// | `GET /`, `/app.js`, `/app.css`, `/counters.js`, … | the page's files (``WebPage``) |
/// | `GET /<section>` (`/counters`, …), `/<section>/…` for a section with inner addresses (`/episodes/<id>…`) | the page, at the address of a section or of a screen inside it |
/// | `GET /healthz` | 200 while the process runs |
/// | `GET /readyz` | 200 while it accepts sessions and saves them, 503 while it drains, its saves fail or its storage does not answer |
/// | `GET /api/actions` | the action catalogue: every action `type` and its fields |
/// | `POST /api/session` | 200 ``Snapshot`` of the session the cookie names, if it lives; else 201 ``Snapshot`` and the session cookie: a new session |
/// | `GET /api/session/state` | 200 ``Snapshot`` |
/// | `POST /api/session/actions` | 200 ``Snapshot`` after one ``UserAction`` |
/// | `GET /api/session/events` | Server-Sent Events: `event: state` with a ``Snapshot`` |
/// | `DELETE /api/session` | 204, the session and its effects end, the cookie is cleared |
/// | `GET`, `POST`, `DELETE /api/session/recording` | whether the session is recorded; start recording it (over); stop and forget the recording — only on a server started with `--allow-recording`, else 404 |
/// | `GET /api/session/recording/record`, `/api/session/recording/test` | the session's record (JSON Lines), or the `TestStore` test written from it, as a download |
/// | `GET /api/session/recording/steps?after=N` | the record's step lines after the first N (JSON Lines; N defaults to 0), for a viewer that has those |
///
/// The session id is the visitor's only credential, so it travels only in an `HttpOnly;
/// SameSite=Strict` cookie (``sessionCookieName``) — never in a URL, a body or a log line.
/// Refusals are ``APIError``s: a JSON body `{"error": "…", "status": 4xx}`. `docs/server.md`
/// describes the forms in full.
///
/// ```swift
/// let registry = await SessionRegistry { $0.weatherClient = .previewValue }
/// let router = WebRouter.router(registry: registry)
/// let app = Application(router: router)
/// ```
public enum WebRouter {
  /// The largest request body accepted, in bytes (16 KiB).
  public static let maximumBodySize = 16 * 1024
  /// The name of the cookie that carries the session id.
  public static let sessionCookieName = "session"
  /// The name of the cookie that names the visitor (``VisitorID``), the owner of kept data.
  public static let visitorCookieName = "visitor"
  /// How long the visitor cookie lives: 400 days, the longest browsers keep one.
  package static let visitorCookieMaxAge = 400 * 24 * 60 * 60

  /// The routes in named groups, each with the paths and methods it serves, for a server of
  /// `page` (``WebApp/page``; `nil`: the routes every server has). The router is built from these
  /// groups, and everything that needs to know the routes reads ``routes(page:)``, made from the
  /// same groups: the request guard (a known path with another method is 405) and the metrics
  /// (one duration series per route and method).
  package static func groups(page: WebPage?) -> [RouteGroup] {
    (page.map { [pageGroup($0)] } ?? []) + [
      probes, catalogue, session, actions, events, recording,
    ]
  }

  /// The routes and the methods each accepts, from ``groups(page:)``.
  package static func routes(page: WebPage? = nil) -> [String: [HTTPRequest.Method]] {
    table(groups(page: page))
  }

  private static func table(_ groups: [RouteGroup]) -> [String: [HTTPRequest.Method]] {
    groups.reduce(into: [:]) { table, group in table.merge(group.routes) { first, _ in first } }
  }

  /// Every method some route accepts (`HEAD` wherever `GET` is), for the `Allow` header of an
  /// answer to a method no route knows: `GET, HEAD, POST, DELETE`. The page's addresses add none
  /// (they are `GET`).
  package static let allowedMethods: String = {
    var methods = Set(routes().values.joined())
    if methods.contains(.get) { methods.insert(.head) }
    let order: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options]
    return order.filter(methods.contains).map(\.rawValue).joined(separator: ", ")
  }()

  /// Builds the router over `registry`: the guard and the request log first, then every group.
  ///
  /// - Parameters:
  ///   - metrics: what requests are recorded into and `GET /metrics` exposes, with the
  ///     registry's counts; a new set for the registry's page by default.
  ///   - security: the hosts, origins, cookie flags and per-client limits to enforce.
  ///   - logger: logs refusals at `notice` level; every request's lines carry its request id.
  public static func router(
    registry: SessionRegistry,
    metrics: ServerMetrics? = nil,
    security: WebSecurity = WebSecurity(),
    logger: Logger = Logger(label: "web-frontend")
  ) -> Router<WebRequestContext> {
    let router = Router(context: WebRequestContext.self)
    let metrics = metrics ?? ServerMetrics(page: registry.app.page)
    let routeGroups = groups(page: registry.app.page)
    let routeTable = table(routeGroups)
    router.addMiddleware {
      RequestGuard(security: security, routes: routeTable, observer: metrics)
      LogRequestsMiddleware(.debug)
      SessionRefusals()
    }
    let environment = RouteEnvironment(
      registry: registry, security: security, limits: ClientLimits(security: security),
      metrics: metrics)
    for group in routeGroups {
      group.install(RouteGroup.Installer(router: router, group: group), environment)
    }
    return router
  }

  static func json(
    _ value: some Encodable, status: HTTPResponse.Status = .ok, cache: String = "no-store"
  ) throws -> Response {
    json(data: try JSONEncoder().encode(value), status: status, cache: cache)
  }

  /// A snapshot's JSON, as written when its state changed.
  static func json(_ snapshot: Snapshot, status: HTTPResponse.Status = .ok) -> Response {
    json(data: snapshot.json, status: status, cache: "no-store")
  }

  static func json(data: Data, status: HTTPResponse.Status, cache: String) -> Response {
    Response(
      status: status,
      headers: [.contentType: "application/json; charset=utf-8", .cacheControl: cache],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }
}
