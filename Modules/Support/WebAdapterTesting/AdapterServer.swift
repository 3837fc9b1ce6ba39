import ComposableArchitecture
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import JSON
import Logging
import WebFrontend
import WebHTTP
import WebRoutes
import WebSessions

/// A feature's web adapter served alone, in process, as `preview-server` serves it: its section,
/// its routes and its view on the feature's own reducer, through the same routes, guard and
/// sessions as `app-server`. An adapter's test target drives it over HTTP (HummingbirdTesting)
/// and reads the answers as JSON, so it builds without the app and the other features.
public enum AdapterServer {
  /// Serves `preview` with `dependencies` applied to its session's store, and runs `body` with a
  /// client of it.
  public static func test<Feature>(
    _ preview: WebPreview<Feature>,
    dependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in },
    _ body: @escaping @Sendable (AdapterClient) async throws -> Void
  ) async throws {
    var logger = Logger(label: "web-adapter-tests")
    logger.logLevel = .critical
    let registry = SessionRegistry(app: WebApp(preview), logger: logger, dependencies: dependencies)
    let application = WebServer.application(
      registry: registry, configuration: .init(port: 0), logger: logger)
    try await application.test(.router) { client in
      try await body(AdapterClient(client))
    }
  }
}

/// An answer of the server: its status and its body, read as JSON when it is JSON.
public struct AdapterAnswer: Sendable, CustomStringConvertible {
  public let status: Int
  public let body: String
  public var json: JSONValue? { try? JSONValue.parse(Array(body.utf8), maximumDepth: 512) }
  /// The state of a session's snapshot (`{"revision", "state", "generation"}`).
  public var state: JSONValue? { json?["state"] }
  /// The revision of a session's snapshot.
  public var revision: Int? { json?["revision"]?.int }
  /// The message of a refusal (`{"error", "status"}`).
  public var error: String? { json?["error"]?.string }
  public var description: String { "\(status) \(body.prefix(400))" }
}

/// A browser of the adapter's page, in process: it keeps its session cookie and names the page's
/// origin on every request that changes state, as the page does.
public final class AdapterClient: @unchecked Sendable {
  private let client: any TestClientProtocol
  private var session: String?

  init(_ client: any TestClientProtocol) {
    self.client = client
  }

  /// `POST /api/session`: a new session (201) and its first snapshot.
  @discardableResult
  public func start() async throws -> AdapterAnswer {
    let answer = try await call(.post, "/api/session") { response in
      if let cookie = response.headers[values: .setCookie].first(where: {
        $0.hasPrefix("\(WebRouter.sessionCookieName)=")
      }) {
        self.session = String(
          cookie.dropFirst(WebRouter.sessionCookieName.count + 1).prefix { $0 != ";" })
      }
    }
    return answer
  }

  /// `POST /api/session/actions` with `body`, a JSON action as the page sends it.
  public func send(json body: String) async throws -> AdapterAnswer {
    try await call(
      .post, "/api/session/actions", headers: [.contentType: "application/json"], body: body)
  }

  /// `POST /api/session/actions` with `{"type": type, …fields}`.
  public func send(_ type: String, _ fields: [(String, JSONValue)] = []) async throws
    -> AdapterAnswer
  {
    try await send(json: JSONValue.object([("type", .string(type))] + fields).text)
  }

  /// `GET /api/session/state`.
  public func state() async throws -> AdapterAnswer {
    try await call(.get, "/api/session/state")
  }

  /// `GET /api/actions`: the action catalogue.
  public func catalogue() async throws -> AdapterAnswer {
    try await call(.get, "/api/actions")
  }

  /// `GET /api/state-schema`: the JSON Schema of the state.
  public func stateSchema() async throws -> AdapterAnswer {
    try await call(.get, "/api/state-schema")
  }

  /// Reads the state until `predicate` holds (effects finish asynchronously), at most `tries`
  /// times; the last state read otherwise. What the state becomes is asserted, not how long it
  /// takes.
  public func state(
    until predicate: (JSONValue) -> Bool, tries: Int = 2_000
  ) async throws -> JSONValue? {
    var last: JSONValue?
    for _ in 0..<tries {
      last = try await state().state
      if let last, predicate(last) { return last }
      try await Task.sleep(for: .milliseconds(5))
    }
    return last
  }

  private func call(
    _ method: HTTPRequest.Method, _ path: String, headers: HTTPFields = [:], body: String? = nil,
    inspect: @escaping (TestResponse) -> Void = { _ in }
  ) async throws -> AdapterAnswer {
    var headers = headers
    if let session { headers[.cookie] = "\(WebRouter.sessionCookieName)=\(session)" }
    if method != .get { headers[.origin] = "http://localhost" }
    return try await client.execute(
      uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) }
    ) { response in
      inspect(response)
      return AdapterAnswer(
        status: Int(response.status.code), body: String(buffer: response.body))
    }
  }
}

/// What every web adapter promises, checked the same way for each: its catalogue is its routes,
/// its state has the keys its schema requires and no other, an action of an unknown type is a 400 that changes
/// nothing, and no action of its catalogue, sent without fields, is answered with a 5xx or
/// changes the state when refused.
public enum AdapterContract {
  /// The problems found; empty when the adapter keeps every promise.
  public static func problems<Feature>(
    of preview: WebPreview<Feature>,
    dependencies: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
  ) async throws -> [String] {
    let found = LockIsolated<[String]>([])
    let note = { @Sendable (problem: String) in found.withValue { $0.append(problem) } }
    try await AdapterServer.test(preview, dependencies: dependencies) { client in
      let started = try await client.start()
      guard started.status == 201, let state = started.state else {
        return note("POST /api/session answered \(started)")
      }
      let catalogue = try await client.catalogue()
      var types: Set<String> = []
      if case .array(let entries) = catalogue.json {
        types = Set(entries.compactMap { $0["type"]?.string })
      }
      let routes = Set(Feature.routes.map(\.description.type))
      if types != routes {
        note("the catalogue lists \(types.sorted()), the adapter's routes are \(routes.sorted())")
      }
      let schema = try await client.stateSchema()
      // Every key of the state is in the schema, and every key the schema requires is in the
      // state (an optional field without a value is left out).
      let schemaKeys = Set(schema.json?["properties"]?.object?.keys.map { $0 } ?? [])
      var required: Set<String> = []
      if case .array(let names) = schema.json?["required"] {
        required = Set(names.compactMap(\.string))
      }
      let stateKeys = Set(state.object?.keys.map { $0 } ?? [])
      if schemaKeys.isEmpty || !stateKeys.isSubset(of: schemaKeys)
        || !required.isSubset(of: stateKeys)
      {
        note(
          "the state has keys \(stateKeys.sorted()); its schema names \(schemaKeys.sorted()) "
            + "and requires \(required.sorted())")
      }
      let unknown = try await client.send("no.such.action")
      if unknown.status != 400 { note("an unknown action type was answered \(unknown)") }
      for type in routes.sorted() {
        let before = try await client.state()
        let answer = try await client.send(type)
        if answer.status >= 500 { note("\(type) without fields was answered \(answer)") }
        if answer.status >= 400 {
          let after = try await client.state()
          if after.revision != before.revision {
            note("\(type) was refused (\(answer.status)) and the state changed")
          }
        } else if answer.status != 200 {
          note("\(type) without fields was answered \(answer)")
        }
      }
    }
    return found.value
  }
}
