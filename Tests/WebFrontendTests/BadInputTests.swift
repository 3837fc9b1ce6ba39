import AppFeature
import ComposableArchitecture
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebHTTP
import WebRoutes

/// Every way a request can be wrong: a 4xx with a JSON message, and nothing changes.
@MainActor
struct BadInputTests {
  struct Case: CustomTestStringConvertible, Sendable {
    let name: String
    let body: String
    let status: HTTPResponse.Status
    let message: String
    var testDescription: String { name }
  }

  nonisolated static let invalidBodies: [Case] = [
    Case(
      name: "malformed JSON", body: #"{"type": "counter.add""#, status: .badRequest,
      message: "the body is not valid JSON"),
    Case(
      name: "empty body", body: "", status: .badRequest, message: "the body is not valid JSON"),
    Case(
      name: "not an object", body: #"["counter.add"]"#, status: .badRequest,
      message: #"the body must be a JSON object with a "type" field"#),
    Case(
      name: "missing type", body: #"{"id": "00000000-0000-0000-0000-000000000000"}"#,
      status: .badRequest, message: "missing field 'type' (a string naming the action)"),
    Case(
      name: "type of the wrong type", body: #"{"type": 7}"#, status: .badRequest,
      message: "field 'type' must be a string naming the action"),
    Case(
      name: "unknown action type", body: #"{"type": "counter.explode"}"#, status: .badRequest,
      message: "unknown action type 'counter.explode'; expected one of: tab.select, counter.add"),
    Case(
      name: "an effect response cannot be injected",
      body: #"{"type": "searchResponse", "results": []}"#, status: .badRequest,
      message: "unknown action type 'searchResponse'"),
    Case(
      name: "timer ticks cannot be injected",
      body: #"{"type": "counter.timerTicked", "id": "00000000-0000-0000-0000-000000000000"}"#,
      status: .badRequest, message: "unknown action type 'counter.timerTicked'"),
    Case(
      name: "missing id", body: #"{"type": "counter.increment"}"#, status: .badRequest,
      message: "missing field 'id' (a counter id, a UUID string) for 'counter.increment'"),
    Case(
      name: "id of the wrong type", body: #"{"type": "counter.increment", "id": 0}"#,
      status: .badRequest,
      message: "field 'id' must be a counter id, a UUID string for 'counter.increment'"),
    Case(
      name: "id that is not a UUID", body: #"{"type": "episode.favorite", "id": "first"}"#,
      status: .badRequest,
      message: "field 'id' must be an episode id, a UUID string for 'episode.favorite'"),
    Case(
      name: "query of the wrong type", body: #"{"type": "search.query", "query": ["Seoul"]}"#,
      status: .badRequest, message: "field 'query' must be a string for 'search.query'"),
    Case(
      name: "query too long",
      body: #"{"type": "search.query", "query": "\#(String(repeating: "a", count: 201))"}"#,
      status: .badRequest, message: "field 'query' is too long: at most 200 characters"),
    Case(
      name: "search result id of the wrong type", body: #"{"type": "search.select", "id": "123"}"#,
      status: .badRequest,
      message: "field 'id' must be the integer id of a search result for 'search.select'"),
    Case(
      name: "unknown tab", body: #"{"type": "tab.select", "tab": "admin"}"#, status: .badRequest,
      message:
        "field 'tab' must be one of "
        + AppFeature.Tab.allCases.map(\.rawValue).joined(separator: ", ")
        + ", not 'admin' for 'tab.select'"
    ),
    Case(
      name: "unknown setting",
      body: #"{"type": "settings.set", "field": "isAdmin", "value": true}"#,
      status: .badRequest, message: "unknown setting 'isAdmin'; expected one of: digest"),
    Case(
      name: "setting value of the wrong type",
      body: #"{"type": "settings.set", "field": "protectMyPosts", "value": "yes"}"#,
      status: .badRequest, message: "field 'value' must be true or false for 'settings.set'"),
    Case(
      name: "setting value missing", body: #"{"type": "settings.set", "field": "displayName"}"#,
      status: .badRequest, message: "missing field 'value' (a string) for 'settings.set'"),
    Case(
      name: "digest out of range",
      body: #"{"type": "settings.set", "field": "digest", "value": "hourly"}"#,
      status: .badRequest,
      message: "field 'value' must be one of daily, weekly, off, not 'hourly' for 'settings.set'"),
    Case(
      name: "counter that does not exist",
      body: #"{"type": "counter.increment", "id": "00000000-0000-0000-0000-0000000000FF"}"#,
      status: .unprocessableContent,
      message: "no counter with id 00000000-0000-0000-0000-0000000000FF"),
    Case(
      name: "removing a counter that does not exist",
      body: #"{"type": "counter.remove", "id": "00000000-0000-0000-0000-0000000000FF"}"#,
      status: .unprocessableContent,
      message: "no counter with id 00000000-0000-0000-0000-0000000000FF"),
    Case(
      name: "episode that does not exist",
      body: #"{"type": "episode.favorite", "id": "00000000-0000-0000-0000-0000000000FF"}"#,
      status: .unprocessableContent,
      message: "no episode with id 00000000-0000-0000-0000-0000000000FF"),
    Case(
      name: "search result that is not on screen", body: #"{"type": "search.select", "id": 123}"#,
      status: .unprocessableContent, message: "no search result with id 123 in the current results"),
    Case(
      name: "dismissing an alert that is not shown",
      body: #"{"type": "episode.dismissAlert", "id": "00000000-0000-0000-0000-000000000000"}"#,
      status: .conflict,
      message: "episode 00000000-0000-0000-0000-000000000000 has no alert to dismiss"),
    Case(
      name: "confirming a removal nobody asked for", body: #"{"type": "counter.confirmRemove"}"#,
      status: .conflict, message: "no removal confirmation is shown"),
    Case(
      name: "confirming a reset nobody asked for", body: #"{"type": "settings.confirmReset"}"#,
      status: .conflict, message: "no reset confirmation is shown"),
    Case(
      name: "cancelling a reset nobody asked for", body: #"{"type": "settings.cancelReset"}"#,
      status: .conflict, message: "no reset confirmation is shown"),
    Case(
      name: "opening an episode that does not exist",
      body: #"{"type": "episode.open", "id": "00000000-0000-0000-0000-0000000000FF"}"#,
      status: .unprocessableContent,
      message: "no episode with id 00000000-0000-0000-0000-0000000000FF"),
    Case(
      name: "favoriting on a screen that is not open", body: #"{"type": "screen.favorite"}"#,
      status: .conflict, message: "no episode screen is open"),
    Case(
      name: "closing a screen that is not open", body: #"{"type": "screen.close"}"#,
      status: .conflict, message: "no episode screen is open"),
    Case(
      name: "popping a screen that is not open", body: #"{"type": "screen.pop"}"#,
      status: .conflict, message: "no episode screen is open"),
    Case(
      name: "dismissing a screen alert that is not shown",
      body: #"{"type": "screen.dismissAlert"}"#,
      status: .conflict, message: "the episode screen has no alert to dismiss"),
  ]

  @Test(arguments: invalidBodies)
  func invalidActionIsRefusedAndChangesNothing(_ invalid: Case) async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let response = try await client.post(invalid.body, to: session.id)
      #expect(response.status == invalid.status)
      #expect(response.headers[.contentType] == "application/json; charset=utf-8")
      let error = try decodeBody(response, as: APIError.Body.self)
      #expect(error.error.hasPrefix(invalid.message), "\(error.error)")
      #expect(error.status == invalid.status.code)
      let after = try await client.state(of: session.id)
      #expect(after.state == session.state)
      #expect(after.revision == session.revision)
    }
  }

  @Test func anOversizedBodyIsRefused() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let padding = String(repeating: " ", count: WebRouter.maximumBodySize)
      let response = try await client.post(#"{"type": "counter.add"\#(padding)}"#, to: session.id)
      #expect(response.status == .contentTooLarge)
      let error = try decodeBody(response, as: APIError.Body.self)
      #expect(error.error == "the request body is larger than 16384 bytes")
      let after = try await client.state(of: session.id)
      #expect(after.state.counters.count == 1)
      #expect(after.revision == session.revision)
    }
  }

  @Test(arguments: [
    "0123456789abcdef0123456789abcdef",  // well-formed, never issued
    "not-a-session",
    "0123456789ABCDEF0123456789ABCDEF",  // ids are lowercase
  ])
  func anUnknownSessionIs404(_ id: String) async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      _ = try await client.createSession()
      for (uri, method) in [
        ("/api/session/state", HTTPRequest.Method.get),
        ("/api/session/events", .get),
        ("/api/session", .delete),
      ] {
        try await client.call(method, uri, session: id) { response in
          #expect(response.status == .notFound)
          let error = try decodeBody(response, as: APIError.Body.self)
          #expect(error.error.hasPrefix("unknown or expired session"))
        }
      }
      let response = try await client.post(#"{"type": "counter.add"}"#, to: id)
      #expect(response.status == .notFound)
    }
  }

  @Test func anUnknownAPIRouteIs404WithAMessage() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      try await client.execute(uri: "/api/nothing/here", method: .get) { response in
        #expect(response.status == .notFound)
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(error.error == "no such API route: GET /api/nothing/here")
      }
    }
  }

  @Test func sessionsBeyondTheCapAreRefusedWith503() async throws {
    let registry = makeRegistry(configuration: .init(maximumSessionCount: 2))
    try await makeApplication(registry).test(.router) { client in
      let first = try await client.createSession()
      _ = try await client.createSession()
      try await client.call(.post, "/api/session") { response in
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "60")
        let error = try decodeBody(response, as: APIError.Body.self)
        #expect(error.error == "too many sessions (the limit is 2); try again later")
      }
      // The existing sessions are untouched, and ending one makes room.
      #expect(try await client.state(of: first.id).state == first.state)
      try await client.call(.delete, "/api/session", session: first.id) { _ in }
      _ = try await client.createSession()
    }
  }
}
