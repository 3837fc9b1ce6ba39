import Foundation
import Hummingbird
import Logging
import WebFrontend
import WebHTTP
import WebSessions

// The session: create or resume, read, end; and the cookies that carry it.
extension WebRouter {
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
  static func sessionID(of request: Request) throws(SessionError) -> String {
    guard let value = cookie(sessionCookieName, in: request), !value.isEmpty else {
      throw SessionError.noSession
    }
    return String(value)
  }

  /// The visitor the request's cookie names, if it names one.
  static func visitor(of request: Request) -> VisitorID? {
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
}
