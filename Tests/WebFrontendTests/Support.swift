import ComposableArchitecture
import EpisodesFeature
import FactClient
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import RandomNumberClient
import Testing
import WebFrontend

/// A registry whose sessions run on test doubles: incrementing ids, `clock` as the continuous
/// clock, favorites that succeed at once; every other client stays unimplemented unless
/// `configure` sets it.
@MainActor
func makeRegistry(
  configuration: SessionRegistry.Configuration = .init(),
  clock: TestClock<Duration> = TestClock(),
  configure: @escaping @Sendable (inout DependencyValues) -> Void = { _ in }
) -> SessionRegistry {
  SessionRegistry(configuration: configuration, logger: quietLogger) {
    $0.uuid = .incrementing
    $0.continuousClock = clock
    $0.favoriteClient = FavoriteClient(favorite: { _, isFavorite in isFavorite })
    configure(&$0)
  }
}

let quietLogger: Logger = {
  var logger = Logger(label: "web-frontend-tests")
  logger.logLevel = .critical
  return logger
}()

/// The application under test.
func makeApplication(_ registry: SessionRegistry) -> some ApplicationProtocol {
  WebServer.application(registry: registry, logger: quietLogger)
}

typealias SessionResponse = WebRoutes.SessionResponse

/// The id of the first counter of every session (ids come from `.incrementing`).
let firstCounter = UUID(0)
/// The first of the seed's episodes.
let firstEpisode = UUID(0)

extension TestClientProtocol {
  /// `POST /api/sessions`, expecting 201.
  func createSession(sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> SessionResponse
  {
    try await execute(uri: "/api/sessions", method: .post) { response in
      #expect(response.status == .created, sourceLocation: sourceLocation)
      return try decodeBody(response, sourceLocation: sourceLocation)
    }
  }

  /// `POST /api/sessions/{id}/actions` with a raw body.
  func post(_ body: String, to id: String) async throws -> TestResponse {
    try await execute(
      uri: "/api/sessions/\(id)/actions", method: .post,
      headers: [.contentType: "application/json"], body: ByteBuffer(string: body)
    ) { $0 }
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

  /// `GET /api/sessions/{id}/state`, expecting 200.
  func state(of id: String, sourceLocation: SourceLocation = #_sourceLocation) async throws
    -> SessionResponse
  {
    try await execute(uri: "/api/sessions/\(id)/state", method: .get) { response in
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
