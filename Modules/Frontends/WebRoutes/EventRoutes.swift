import Foundation
import Hummingbird
import Logging
import WebFrontend
import WebHTTP
import WebSessions

// The session's event stream.
extension WebRouter {
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
