import Foundation
import Hummingbird
import Logging
import WebFrontend
import WebHTTP
import WebSessions

// The page and the action catalogue.
extension WebRouter {
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
}
