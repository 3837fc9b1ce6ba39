import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// The first and last word on every request: refuses what the server does not serve (wrong
/// `Host`, cross-site state changes, unknown methods and routes), turns every refusal into the
/// JSON error form, and puts the security headers on every answer.
package struct RequestGuard: RouterMiddleware {
  package typealias Context = WebRequestContext

  package let security: WebSecurity
  /// The routes and the methods each accepts: a known path with another method is 405.
  package let routes: [String: [HTTPRequest.Method]]
  /// Where each request's duration and each refusal are recorded.
  package let observer: any RequestObserver

  package init(
    security: WebSecurity, routes: [String: [HTTPRequest.Method]], observer: any RequestObserver
  ) {
    self.security = security
    self.routes = routes
    self.observer = observer
  }

  package func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    let start = ContinuousClock.now
    let response = try await answer(request, context: context, next: next)
    observer.answered(
      path: request.uri.path, method: request.method.rawValue, status: response.status.code,
      after: start.duration(to: .now))
    return response
  }

  private func answer(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    var response: Response
    do {
      try check(request)
      response = try await next(request, context)
    } catch let error as APIError {
      response = try error.response(from: request, context: context)
    } catch let error as HTTPError {
      let refusal = APIError(
        error.status,
        error.status == .notFound
          ? "no such route: \(Self.describe(request))" : error.status.reasonPhrase,
        headers: error.headers)
      response = try refusal.response(from: request, context: context)
    }
    for (name, value) in Self.headers where response.headers[name] == nil {
      response.headers[name] = value
    }
    return response
  }

  private static let host = HTTPField.Name("Host")!

  /// The security headers of every answer; the page's own CSP replaces the default one.
  package static let headers: [(HTTPField.Name, String)] = [
    (.contentSecurityPolicy, "default-src 'none'; frame-ancestors 'none'"),
    (.xContentTypeOptions, "nosniff"),
    (.xFrameOptions, "DENY"),
    (.referrerPolicy, "no-referrer"),
    (.crossOriginOpenerPolicy, "same-origin"),
  ]

  private func check(_ request: Request) throws(APIError) {
    // The first Host header is the request's authority; another one is left among the headers.
    if request.headers[Self.host] != nil {
      throw APIError(.badRequest, "a request has one Host header")
    }
    // An absolute-form target's authority is the request's, whatever Host says (RFC 9112
    // §3.2.2); RequestLineHandler hands the target on.
    var authority = request.head.authority
    if let target = request.headers[.absoluteTarget] {
      authority = try RequestLineHandler.authority(ofAbsoluteTarget: target).get()
    }
    guard let authority, security.allows(authority: authority) else {
      throw APIError(.misdirectedRequest, "this server does not answer to that Host")
    }
    let path = request.uri.path
    if let methods = routes[path] {
      guard methods.contains(request.method) else {
        throw APIError(
          .methodNotAllowed,
          "\(Self.describe(request)) is not allowed; \(path) accepts \(methods.map(\.rawValue).joined(separator: ", "))",
          headers: [.allow: methods.map(\.rawValue).joined(separator: ", ")])
      }
    } else if path.hasPrefix("/api/") || path == "/api" {
      throw APIError(.notFound, "no such API route: \(Self.describe(request))")
    }
    if Self.changesState(request.method) {
      try checkOrigin(request, authority: authority)
    }
  }

  /// A state-changing request must come from the page itself: browsers say so with
  /// `Sec-Fetch-Site: same-origin` and an `Origin` equal to the server's; other clients send
  /// that `Origin` themselves.
  private func checkOrigin(_ request: Request, authority: String) throws(APIError) {
    if let site = request.headers[.secFetchSite], site != "same-origin" {
      throw APIError(.forbidden, "cross-site request refused (Sec-Fetch-Site: \(site.prefix(16)))")
    }
    guard let origin = request.headers[.origin] else {
      throw APIError(
        .forbidden,
        "a request that changes state needs an Origin header naming this server, e.g. Origin: http://\(authority.prefix(64))"
      )
    }
    guard Self.isOrigin(origin, of: authority) else {
      throw APIError(.forbidden, "cross-site request refused (Origin is not this server)")
    }
  }

  /// Whether `origin` is `http://` or `https://` and then `authority`, in any ASCII case —
  /// compared in place, without the lower-cased copies a request would otherwise pay for.
  package static func isOrigin(_ origin: String, of authority: String) -> Bool {
    let origin = origin.utf8
    let folded = { (byte: UInt8) in
      (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
    }
    for scheme in ["http://", "https://"] {
      let schemeLength = scheme.utf8.count
      guard origin.count == schemeLength + authority.utf8.count else { continue }
      if origin.prefix(schemeLength).lazy.map(folded).elementsEqual(scheme.utf8),
        origin.dropFirst(schemeLength).lazy.map(folded).elementsEqual(
          authority.utf8.lazy.map(folded))
      {
        return true
      }
    }
    return false
  }

  private static func changesState(_ method: HTTPRequest.Method) -> Bool {
    ![.get, .head, .options].contains(method)
  }

  /// `METHOD /path`, bounded so that an error never echoes much of the input.
  package static func describe(_ request: Request) -> String {
    let path = request.uri.path
    let shown = path.count > 100 ? path.prefix(100) + "…" : Substring(path)
    return "\(request.method.rawValue.prefix(16)) \(shown)"
  }
}

extension HTTPField.Name {
  package static let xFrameOptions = Self("X-Frame-Options")!
  package static let referrerPolicy = Self("Referrer-Policy")!
  package static let crossOriginOpenerPolicy = Self("Cross-Origin-Opener-Policy")!
}

/// What ``RequestGuard`` reports of every answer it lets out, refusals included: the server's
/// metrics keep durations by route and count refusals by status.
package protocol RequestObserver: Sendable {
  func answered(path: String, method: String, status: Int, after duration: Duration)
}
