import AppWeb
import ComposableArchitecture
import EpisodesFeature
import FactClient
import FavoriteClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RandomNumberClient
import SettingsClient
import Testing
import WebFrontend
import WebHTTP
import WebRoutes
import WebSessions

/// A registry whose sessions run on test doubles: incrementing ids, `clock` as the continuous
/// clock, favorites that succeed at once; every other client stays unimplemented unless
/// `configure` sets it.
@MainActor
func makeRegistry(
  configuration: SessionRegistry.Configuration = .init(),
  clock: TestClock<Duration> = TestClock(),
  configure: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
) -> SessionRegistry {
  SessionRegistry(app: .app, configuration: configuration, logger: quietLogger) {
    $0.uuid = .incrementing
    $0.continuousClock = clock
    $0.favoriteClient = .inMemory()
    $0.settingsClient = .inMemory()
    configure(&$0)
  }
}

let quietLogger: Logger = {
  var logger = Logger(label: "web-frontend-tests")
  logger.logLevel = .critical
  return logger
}()

/// The application under test, with per-client limits high enough for tests that are not about
/// them (in-process requests all come from one client).
func makeApplication(
  _ registry: SessionRegistry, security: WebSecurity = relaxedSecurity
) -> some ApplicationProtocol {
  WebServer.application(
    registry: registry, configuration: .init(port: 0, security: security), logger: quietLogger)
}

/// The default policy with limits no functional test reaches.
let relaxedSecurity = WebSecurity(
  sessionCreation: .init(burst: 100_000, perSecond: 100_000),
  actions: .init(burst: 100_000, perSecond: 100_000),
  reads: .init(burst: 100_000, perSecond: 100_000))

/// A session created through the API: its id (read from the cookie, as a browser keeps it) and
/// its first state.
struct CreatedSession {
  var id: String
  var revision: Int
  var state: StateView
}

/// The id of the first counter of every session (ids come from `.incrementing`).
let firstCounter = UUID(0)
/// The first of the seed's episodes.
let firstEpisode = UUID(0)

extension TestClientProtocol {
  /// The origin of the page, as a browser names it in `Origin`.
  var pageOrigin: String { port.map { "http://localhost:\($0)" } ?? "http://localhost" }

  /// A request as the page makes it: the session cookie (if any) and, for requests that change
  /// state, the page's `Origin`.
  func call<Value>(
    _ method: HTTPRequest.Method, _ path: String, session id: String? = nil,
    headers: HTTPFields = [:], body: ByteBuffer? = nil,
    _ test: @escaping (TestResponse) async throws -> Value
  ) async throws -> Value {
    var headers = headers
    if let id { headers[.cookie] = "\(WebRouter.sessionCookieName)=\(id)" }
    if method != .get, headers[.origin] == nil { headers[.origin] = pageOrigin }
    return try await execute(
      uri: path, method: method, headers: headers, body: body, testCallback: test)
  }

  /// ``call(_:_:session:headers:body:_:)`` returning the response.
  func call(
    _ method: HTTPRequest.Method, _ path: String, session id: String? = nil,
    headers: HTTPFields = [:], body: ByteBuffer? = nil
  ) async throws -> TestResponse {
    try await call(method, path, session: id, headers: headers, body: body) { $0 }
  }

  /// `POST /api/session`, expecting 201 and a session cookie.
  func createSession(sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> CreatedSession
  {
    let response = try await call(.post, "/api/session")
    #expect(
      response.status == .created, "\(String(buffer: response.body))",
      sourceLocation: sourceLocation)
    let snapshot: SessionResponse = try decodeBody(response, sourceLocation: sourceLocation)
    let cookie = try #require(
      response.headers[values: .setCookie].first { $0.hasPrefix("session=") },
      sourceLocation: sourceLocation)
    let id = String(cookie.dropFirst("session=".count).prefix { $0 != ";" })
    return CreatedSession(id: id, revision: snapshot.revision, state: snapshot.state)
  }

  /// `POST /api/session/actions` with a raw JSON body.
  func post(_ body: String, to id: String) async throws -> TestResponse {
    try await call(
      .post, "/api/session/actions", session: id,
      headers: [.contentType: "application/json"], body: ByteBuffer(string: body))
  }

  /// Sends an action, expecting 200, and returns the state after it.
  @discardableResult
  func send(
    _ action: UserAction, to id: String, sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> SessionResponse {
    let body = String(decoding: try JSONEncoder().encode(action), as: UTF8.self)
    let response = try await post(body, to: id)
    #expect(
      response.status == .ok, "\(String(buffer: response.body))", sourceLocation: sourceLocation)
    return try decodeBody(response, sourceLocation: sourceLocation)
  }

  /// `GET /api/session/state`, expecting 200.
  func state(of id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> SessionResponse
  {
    try await call(.get, "/api/session/state", session: id) { response in
      #expect(response.status == .ok, sourceLocation: sourceLocation)
      return try decodeBody(response, sourceLocation: sourceLocation)
    }
  }

  /// Polls the state until `predicate` holds (effects finish asynchronously); fails after many
  /// attempts. Asserts what the state becomes, not how long it takes.
  @discardableResult
  func waitForState(
    of id: String,
    sourceLocation: SourceLocation = #_sourceLocation,
    until predicate: (StateView) -> Bool
  ) async throws -> StateView {
    for _ in 0..<2_000 {
      let state = try await state(of: id, sourceLocation: sourceLocation).state
      if predicate(state) { return state }
      try await Task.sleep(for: .milliseconds(5))
    }
    let last = try await state(of: id).state
    Issue.record(
      "state never satisfied the condition; last: \(last)", sourceLocation: sourceLocation)
    return last
  }
}

func decodeBody<Value: Decodable>(
  _ response: TestResponse, as _: Value.Type = Value.self,
  sourceLocation: SourceLocation = #_sourceLocation
) throws -> Value {
  do {
    return try JSONDecoder().decode(Value.self, from: Data(response.body.readableBytesView))
  } catch {
    Issue.record(
      "undecodable body (\(response.status)): \(String(buffer: response.body))",
      sourceLocation: sourceLocation)
    throw error
  }
}

/// Waits on the main actor until `condition` holds, failing after many attempts.
@MainActor
func waitUntil(
  sourceLocation: SourceLocation = #_sourceLocation,
  _ condition: @MainActor () async -> Bool
) async throws {
  for _ in 0..<2_000 {
    if await condition() { return }
    try await Task.sleep(for: .milliseconds(5))
  }
  Issue.record("condition never held", sourceLocation: sourceLocation)
}

/// Waits until something sleeps on `clock` (a timer, a debounce), so that advancing the clock
/// reaches it.
@MainActor
func waitForSleeper(
  on clock: TestClock<Duration>, sourceLocation: SourceLocation = #_sourceLocation
) async throws {
  try await waitUntil(sourceLocation: sourceLocation) {
    (try? await clock.checkSuspension()) == nil
  }
}

/// A response body fixture from `Fixtures/<name>.json`.
func fixtureData(_ name: String) throws -> Data {
  let url = try #require(
    Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
  return try Data(contentsOf: url)
}

/// New ids `UUID(seed)`, `UUID(seed + 1)`, …: a registry's sessions get ids of their own range, so
/// that two registries (two instances) never hand out the same counter id.
func countingUUIDs(from seed: Int) -> UUIDGenerator {
  let ids = LockIsolated(seed)
  return UUIDGenerator {
    ids.withValue { id in
      defer { id += 1 }
      return UUID(id)
    }
  }
}

/// A random number generator that gives the same numbers for the same seed (SplitMix64), so that
/// a failing schedule can be run again.
struct SeededGenerator: RandomNumberGenerator {
  private var state: UInt64

  init(seed: UInt64) {
    state = seed
  }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
