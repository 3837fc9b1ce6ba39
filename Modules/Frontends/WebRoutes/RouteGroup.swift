import HTTPTypes
import Hummingbird
import WebHTTP
import WebSessions

/// What the routes of a group work with: the sessions, the security rules, the per-client limits
/// and the metrics.
package struct RouteEnvironment: Sendable {
  package let registry: SessionRegistry
  package let security: WebSecurity
  package let limits: ClientLimits
  package let metrics: ServerMetrics
}

/// A named group of routes: the paths it serves with the methods each accepts, and how it adds its
/// handlers to a router.
///
/// The declared paths are the route table (``WebRouter/routes``) that the request guard and the
/// metrics read; a handler for a path or a method its group does not declare stops the process
/// when the router is built (at start, and in every test that builds one), so the table and the
/// router cannot drift apart.
package struct RouteGroup: Sendable {
  /// What the group is for, in the message of a handler it does not declare.
  package let name: String
  /// The paths the group serves and the methods each accepts.
  package let routes: [String: [HTTPRequest.Method]]
  /// Path patterns (`/episodes/**`) the group serves besides, with their methods: matched by the
  /// router, not listed in the table (the guard lets an unlisted path through to the router,
  /// which answers 404 for what no pattern matches).
  package let patterns: [String: [HTTPRequest.Method]]
  package let install: @Sendable (Installer, RouteEnvironment) -> Void

  package init(
    _ name: String,
    _ routes: [(String, [HTTPRequest.Method])],
    patterns: [(String, [HTTPRequest.Method])] = [],
    install: @escaping @Sendable (Installer, RouteEnvironment) -> Void
  ) {
    self.name = name
    self.routes = Dictionary(routes, uniquingKeysWith: { first, _ in first })
    self.patterns = Dictionary(patterns, uniquingKeysWith: { first, _ in first })
    self.install = install
  }

  /// Adds the handlers of one group to the router, each checked against what the group declares.
  package struct Installer {
    let router: Router<WebRequestContext>
    let group: RouteGroup

    /// Serves `method` on `path`, a path the group declares with that method.
    func on(
      _ path: String, _ method: HTTPRequest.Method,
      use handler:
        @escaping @Sendable (Request, WebRequestContext) async throws ->
        some ResponseGenerator
    ) {
      serve(path, method, declared: group.routes, use: handler)
    }

    /// Serves `method` on the paths `pattern` matches, a pattern the group declares.
    func onPattern(
      _ pattern: String, _ method: HTTPRequest.Method,
      use handler:
        @escaping @Sendable (Request, WebRequestContext) async throws ->
        some ResponseGenerator
    ) {
      serve(pattern, method, declared: group.patterns, use: handler)
    }

    private func serve(
      _ path: String, _ method: HTTPRequest.Method, declared: [String: [HTTPRequest.Method]],
      use handler:
        @escaping @Sendable (Request, WebRequestContext) async throws ->
        some ResponseGenerator
    ) {
      precondition(
        declared[path]?.contains(method) == true,
        "route group '\(group.name)' serves \(method) \(path), which it does not declare")
      router.on(RouterPath(path), method: method, use: handler)
    }
  }
}
