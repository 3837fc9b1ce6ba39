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

  // MARK: - The groups

  /// The page's files, and the page at its own addresses: each section's (`/counters`,
  /// `/search`, …) and, for a section with inner addresses, the addresses below it
  /// (`/episodes/<id>/<id>…`), so that the browser's Back, Forward, reload and a shared link work;
  /// the page turns the address into actions.
  package static func pageGroup(_ page: WebPage) -> RouteGroup {
    RouteGroup(
      "page", (page.files.keys + page.addresses).map { ($0, [.get]) },
      patterns: page.innerAddressPatterns.map { ($0, [.get]) }
    ) { routes, _ in
      for file in page.files.values {
        routes.on(file.path, .get) { request, _ in file.response(to: request) }
      }
      guard let document = page.files["/"] else { return }
      for address in page.addresses {
        routes.on(address, .get) { request, _ in document.response(to: request) }
      }
      for pattern in page.innerAddressPatterns {
        routes.onPattern(pattern, .get) { request, _ in document.response(to: request) }
      }
    }
  }

  /// What a process supervisor and a balancer ask: alive, ready, metrics.
  package static let probes = RouteGroup(
    "probes", [("/healthz", [.get]), ("/readyz", [.get]), ("/metrics", [.get])]
  ) { routes, environment in
    let (registry, metrics) = (environment.registry, environment.metrics)
    routes.on("/healthz", .get) { _, _ in "ok\n" }

    routes.on("/readyz", .get) { _, _ -> Response in
      guard registry.isAcceptingSessions else {
        throw APIError(.serviceUnavailable, "the server is draining")
      }
      // A balancer should send visitors elsewhere while this instance cannot save their changes.
      if let problem = await registry.savingProblem() {
        throw APIError(.serviceUnavailable, problem)
      }
      return Response(
        status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: "ready\n")))
    }

    routes.on("/metrics", .get) { _, _ in
      Response(
        status: .ok,
        headers: [
          .contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store",
        ],
        body: ResponseBody(
          byteBuffer: ByteBuffer(
            string: metrics.exposition(of: registry.counts))))
    }
  }

  /// What the API accepts and what its state looks like: the action catalogue and the state's
  /// JSON Schema.
  package static let catalogue = RouteGroup(
    "catalogue", [("/api/actions", [.get]), ("/api/state-schema", [.get])]
  ) { routes, environment in
    let app = environment.registry.app
    routes.on("/api/actions", .get) { _, _ in
      try json(app.catalogue, cache: "public, max-age=300")
    }

    let schema = app.schema
    routes.on("/api/state-schema", .get) { _, _ in
      Response(
        status: .ok,
        headers: [
          .contentType: "application/schema+json", .cacheControl: "public, max-age=300",
        ],
        body: ResponseBody(byteBuffer: ByteBuffer(bytes: schema)))
    }
  }

  /// The visitor's session: open (or resume) it, read its state, end it.
  package static let session = RouteGroup(
    "session", [("/api/session", [.post, .delete]), ("/api/session/state", [.get])]
  ) { routes, environment in
    let (registry, security, limits) = (
      environment.registry, environment.security, environment.limits
    )
    routes.on("/api/session", .post) { request, context in
      // The browser's session, when its cookie names one that lives (or can be resumed), is
      // answered as it is: a page opens with this one request, whether or not it has a session.
      if let id = try? sessionID(of: request) {
        try await registry.resume(
          id, visitor: visitor(of: request), confirmingCurrent: true,
          logger: context.logger)
        if let snapshot = try? registry.snapshot(of: id) { return json(snapshot) }
      }
      let client = try limits.admitSessionCreation(request, context: context)
      // A visitor keeps its id; a missing or malformed one is replaced by a new one.
      let visitor = visitor(of: request) ?? VisitorID()
      let (id, snapshot) = try await registry.create(
        for: visitor, network: client.network,
        logger: context.logger)
      var response = json(snapshot, status: .created)
      // The cookie lives as long as the saved session may: a browser that restarts, or a
      // visitor who comes back after the session expired, resumes it.
      let lifetime = Int(registry.configuration.savedSessionLifetime.components.seconds)
      response.setCookie(sessionCookie(id.rawValue, security: security, maxAge: lifetime))
      response.setCookie(visitorCookie(visitor, security: security))
      return response
    }

    routes.on("/api/session/state", .get) { request, context in
      let id = try sessionID(of: request)
      try limits.admitRead(request, context: context)
      try await registry.resume(
        id, visitor: visitor(of: request), confirmingCurrent: true,
        logger: context.logger)
      return json(try registry.snapshot(of: id))
    }

    routes.on("/api/session", .delete) { request, context in
      let id = try sessionID(of: request)
      try registry.end(id, logger: context.logger)
      var response = Response(status: .noContent)
      response.setCookie(sessionCookie("", security: security, maxAge: 0))
      return response
    }
  }

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

  /// The session's event stream: its state now, then every change (Server-Sent Events).
  package static let events = RouteGroup(
    "events", [("/api/session/events", [.get])]
  ) { routes, environment in
    let (registry, limits, metrics) = (
      environment.registry, environment.limits, environment.metrics
    )
    routes.on("/api/session/events", .get) { request, context in
      let id = try sessionID(of: request)
      let stream = try limits.openEventStream(request, context: context)
      let events: AsyncStream<SessionEvent>
      let end: @Sendable () -> Void
      do {
        try await registry.resume(
          id, visitor: visitor(of: request), confirmingCurrent: true, logger: context.logger)
        (events, end) = try registry.subscribe(to: id)
      } catch {
        stream.close()
        throw error
      }
      return Response(
        status: .ok,
        headers: [
          .contentType: "text/event-stream", .cacheControl: "no-store",
          // The connection closes when the stream ends (below): said, so that no client puts
          // it back in its pool for a next request that would find it closed.
          .connection: "close",
        ],
        body: ResponseBody { writer in
          metrics.eventStreamsOpen.increment()
          defer {
            metrics.eventStreamsOpen.decrement()
            stream.close()
            end()
          }
          // A client that goes away is noticed when its side of the connection closes (a
          // browser's reload, a closed tab, a balancer passing either on), not when a later
          // write to it fails — which could be a keep-alive half a minute on: the stream ends
          // at once, and its slots in the limits are free.
          try await request.body.consumeWithInboundCloseHandler { _ in
            try await writer.write(ByteBuffer(string: "retry: 3000\n\n"))
            for await event in events {
              try await writer.write(ByteBuffer(bytes: ServerSentEvents.encode(event)))
            }
            // Inside: the connection is closed once this closure returns.
            try await writer.finish(nil)
          } onInboundClosed: {
            end()
          }
        })
    }
  }

  /// The visitor's recording of their own session (`docs/recording.md`): on a server started
  /// with `--allow-recording`, for an app that can be recorded; elsewhere every route answers
  /// 404. A session's recording is reached only with its own cookie, kept in memory (at most
  /// ``SessionRegistry/Configuration/recordingLimit`` steps) and gone with the session.
  package static let recording = RouteGroup(
    "recording",
    [
      ("/api/session/recording", [.get, .post, .delete]),
      ("/api/session/recording/record", [.get]), ("/api/session/recording/test", [.get]),
      ("/api/session/recording/steps", [.get]),
    ]
  ) { routes, environment in
    let (registry, limits) = (environment.registry, environment.limits)
    let allowed = registry.allowsRecording
    /// The session of a recording request, on a server that records.
    @Sendable func recordedSession(_ request: Request, _ context: WebRequestContext, read: Bool)
      async throws -> String
    {
      guard allowed else { throw SessionError.recordingOff }
      let id = try sessionID(of: request)
      if read {
        try limits.admitRead(request, context: context)
      } else {
        try limits.admitAction(request, context: context)
      }
      try await registry.resume(id, visitor: visitor(of: request), logger: context.logger)
      return id
    }
    routes.on("/api/session/recording", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      return try json(try await registry.recordingStatus(of: id))
    }
    routes.on("/api/session/recording", .post) { request, context in
      let id = try await recordedSession(request, context, read: false)
      return try json(try await registry.startRecording(in: id), status: .created)
    }
    routes.on("/api/session/recording", .delete) { request, context in
      let id = try await recordedSession(request, context, read: false)
      try await registry.stopRecording(in: id)
      return Response(status: .noContent)
    }
    routes.on("/api/session/recording/record", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      let record = try await registry.record(of: id).record
      return download(
        RecordFile.write(record), type: "application/x-ndjson; charset=utf-8",
        name: "session.jsonl")
    }
    routes.on("/api/session/recording/steps", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      let after = request.uri.queryParameters.get("after").map { String($0) } ?? "0"
      guard let count = Int(after), count >= 0, after.count <= 9 else {
        throw APIError(
          .badRequest, "after must be a number of steps (0 or more), not \"\(after.prefix(40))\"")
      }
      let lines = try await registry.recordSteps(of: id, after: count)
      return Response(
        status: .ok,
        headers: [.contentType: "application/x-ndjson; charset=utf-8", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: lines)))
    }
    routes.on("/api/session/recording/test", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      let recorded = try await registry.record(of: id)
      let writer = SessionTestWriter(
        suiteName: "RecordedSessionTests", testName: "recordedSession",
        testableImports: recorded.testImports,
        source: SessionTestWriter.source(recordFile: "session.jsonl", recorded.record))
      let source: String
      do throws(SessionTestWriter.Failure) {
        source = try writer.write(recorded.record)
      } catch {
        throw APIError(.unprocessableContent, error.description)
      }
      return download(
        source, type: "text/x-swift; charset=utf-8", name: "RecordedSessionTests.swift")
    }
  }

  /// A text the browser saves as a file.
  private static func download(_ text: String, type: String, name: String) -> Response {
    Response(
      status: .ok,
      headers: [
        .contentType: type, .cacheControl: "no-store",
        .contentDisposition: "attachment; filename=\"\(name)\"",
      ],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }

  /// The session cookie: `HttpOnly`, `SameSite=Strict`, only sent to the API, `Secure` when the
  /// server is told it is served over TLS; with `maxAge` (seconds) it outlives the browser
  /// session.
  package static func sessionCookie(_ value: String, security: WebSecurity, maxAge: Int? = nil)
    -> Cookie
  {
    Cookie(
      name: sessionCookieName, value: value, maxAge: maxAge, path: "/api/session",
      secure: security.secureCookies, httpOnly: true, sameSite: .strict)
  }

  /// The visitor cookie: like the session cookie, but it outlives the browser session (it is
  /// renewed with every new session).
  package static func visitorCookie(_ visitor: VisitorID, security: WebSecurity) -> Cookie {
    Cookie(
      name: visitorCookieName, value: visitor.rawValue, maxAge: visitorCookieMaxAge,
      path: "/api/session", secure: security.secureCookies, httpOnly: true, sameSite: .strict)
  }

  /// The session id of the request's cookie; 404 without one.
  private static func sessionID(of request: Request) throws(SessionError) -> String {
    guard let value = cookie(sessionCookieName, in: request), !value.isEmpty else {
      throw SessionError.noSession
    }
    return String(value)
  }

  /// The visitor the request's cookie names, if it names one.
  private static func visitor(of request: Request) -> VisitorID? {
    cookie(visitorCookieName, in: request).flatMap { VisitorID(String($0)) }
  }

  /// The value of the first cookie called `name` in the request's `Cookie` headers: the pairs
  /// are separated by `;`, spaces and tabs before a name are skipped, and the value is everything
  /// after the first `=` up to the next `;` — as Hummingbird's `request.cookies[name]` reads it,
  /// without building every cookie of the request for one (every action reads the session's).
  package static func cookie(_ name: String, in request: Request) -> Substring? {
    for header in request.headers[values: .cookie] {
      for pair in header.split(separator: ";", omittingEmptySubsequences: false) {
        let trimmed = pair.drop { $0 == " " || $0 == "\t" }
        guard let equals = trimmed.firstIndex(of: "="), trimmed[..<equals] == name else { continue }
        return trimmed[trimmed.index(after: equals)...]
      }
    }
    return nil
  }

  /// Only `application/json` bodies (UTF-8, the only charset JSON has) are read.
  private static func requireJSON(_ request: Request) throws(APIError) {
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
  private static func trimmedLowercased(_ bytes: Substring.UTF8View) -> [UInt8] {
    let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
    guard let first = bytes.firstIndex(where: { !isSpace($0) }),
      let last = bytes.lastIndex(where: { !isSpace($0) })
    else { return [] }
    return bytes[first...last].map { byte in
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
  }

  /// The action in `body`, refused with 400 and the decoding failure's message.
  private static func decodeAction(_ body: ByteBuffer, app: WebApp, logger: Logger)
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
  private static func readBody(_ request: Request) async throws(APIError) -> ByteBuffer {
    if let length = request.headers[.contentLength].flatMap(Int.init), length > maximumBodySize {
      throw tooLarge
    }
    do {
      return try await request.body.collect(upTo: maximumBodySize)
    } catch {
      throw tooLarge
    }
  }

  private static var tooLarge: APIError {
    APIError(.contentTooLarge, "the request body is larger than \(maximumBodySize) bytes")
  }

  private static func json(
    _ value: some Encodable, status: HTTPResponse.Status = .ok, cache: String = "no-store"
  ) throws -> Response {
    json(data: try JSONEncoder().encode(value), status: status, cache: cache)
  }

  /// A snapshot's JSON, as written when its state changed.
  private static func json(_ snapshot: Snapshot, status: HTTPResponse.Status = .ok) -> Response {
    json(data: snapshot.json, status: status, cache: "no-store")
  }

  private static func json(data: Data, status: HTTPResponse.Status, cache: String) -> Response {
    Response(
      status: status,
      headers: [.contentType: "application/json; charset=utf-8", .cacheControl: cache],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
  }
}

/// The wire form of the event stream (`text/event-stream`).
package enum ServerSentEvents {
  /// `event: state` + `data: {"revision": n, "state": {…}, "generation": "…"}`, or a comment line for
  /// keep-alive.
  package static func encode(_ event: SessionEvent) -> Data {
    switch event {
    case .state(let snapshot):
      return Data("event: state\ndata: ".utf8) + snapshot.json + Data("\n\n".utf8)
    case .keepAlive:
      return Data(": keep-alive\n\n".utf8)
    case .saved(let revision):
      return Data("event: saved\ndata: {\"revision\":\(revision)}\n\n".utf8)
    }
  }
}
