import Foundation
import Hummingbird
import Logging
import WebFrontend
import WebHTTP
import WebSessions

// What a process supervisor and a balancer ask.
extension WebRouter {
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
}
