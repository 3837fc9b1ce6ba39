import ComposableArchitecture
import ComposableRecording
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebSessions

/// A visitor's recording of their own session (`--allow-recording`), through the routes.
/// `GET /api/session/recording`'s answer.
struct RecordingStatusBody: Decodable, Equatable {
  var recording: Bool
  var steps: Int
  var limit: Int?
  var full: Bool
}

func recordingStatus(_ response: TestResponse) throws -> RecordingStatusBody {
  try JSONDecoder().decode(RecordingStatusBody.self, from: Data(buffer: response.body))
}

@MainActor
@Suite struct RecordingRouteTests {
  func recordingRegistry(limit: Int = 100) -> SessionRegistry {
    makeRegistry(configuration: .init(recordingLimit: limit))
  }

  @Test func aVisitorRecordsTheirSessionAndDownloadsItAndItsTest() async throws {
    try await makeApplication(recordingRegistry()).test(.router) { client in
      let session = try await client.createSession()
      let idle = try await client.call(.get, "/api/session/recording", session: session.id)
      #expect(
        try recordingStatus(idle) == .init(recording: false, steps: 0, limit: nil, full: false))
      #expect(
        try await client.call(.get, "/api/session/recording/record", session: session.id).status
          == .notFound)

      let started = try await client.call(.post, "/api/session/recording", session: session.id)
      #expect(started.status == .created)
      try await client.send(.incrementCounter(id: firstCounter), to: session.id)
      try await client.send(.incrementCounter(id: firstCounter), to: session.id)
      let status = try await client.call(.get, "/api/session/recording", session: session.id)
      #expect(
        try recordingStatus(status) == .init(recording: true, steps: 2, limit: 100, full: false))

      let download = try await client.call(
        .get, "/api/session/recording/record", session: session.id)
      #expect(download.status == .ok)
      #expect(download.headers[.contentType] == "application/x-ndjson; charset=utf-8")
      #expect(download.headers[.contentDisposition] == #"attachment; filename="session.jsonl""#)
      let record = try RecordFile.read(String(buffer: download.body))
      #expect(record.feature == "AppFeature" && record.steps.count == 2)
      #expect(record.steps.allSatisfy { $0.origin == .user })
      // Nothing of the session's credentials is in it.
      #expect(!String(buffer: download.body).contains(session.id))

      let test = try await client.call(.get, "/api/session/recording/test", session: session.id)
      #expect(test.status == .ok)
      #expect(test.headers[.contentType] == "text/x-swift; charset=utf-8")
      let source = String(buffer: test.body)
      #expect(source.contains("struct RecordedSessionTests {"))
      #expect(
        source.contains(
          "await store.send(.counterList(.counters(.element(id: id1, action: .incrementButtonTapped)))) {\n      $0.counterList.counters[id: id1]?.count = 2"
        ))

      let stopped = try await client.call(.delete, "/api/session/recording", session: session.id)
      #expect(stopped.status == .noContent)
      #expect(
        try await client.call(.get, "/api/session/recording/record", session: session.id).status
          == .notFound)
    }
  }

  /// A viewer that has some steps asks for the ones after them: the same lines as the whole
  /// record's, numbered on.
  @Test func theStepsAfterTheFirstNAreTheRecordsOwnLines() async throws {
    try await makeApplication(recordingRegistry()).test(.router) { client in
      let session = try await client.createSession()
      #expect(
        try await client.call(.get, "/api/session/recording/steps", session: session.id).status
          == .notFound)
      _ = try await client.call(.post, "/api/session/recording", session: session.id)
      try await client.send(.incrementCounter(id: firstCounter), to: session.id)
      try await client.send(.changeSetting(.displayName("Ada")), to: session.id)
      try await client.send(.decrementCounter(id: firstCounter), to: session.id)
      let record = String(
        buffer: try await client.call(
          .get, "/api/session/recording/record", session: session.id
        ).body)
      let stepLines = record.split(separator: "\n").filter { $0.hasPrefix(#"{"step""#) }
      #expect(stepLines.count == 3)

      func steps(after: String) async throws -> (HTTPResponse.Status, [Substring]) {
        let response = try await client.call(
          .get, "/api/session/recording/steps?after=\(after)", session: session.id)
        return (response.status, String(buffer: response.body).split(separator: "\n"))
      }
      #expect(try await steps(after: "0") == (.ok, stepLines))
      #expect(try await steps(after: "1") == (.ok, Array(stepLines[1...])))
      #expect(try await steps(after: "3") == (.ok, []))
      #expect(try await steps(after: "99") == (.ok, []))
      let all = try await client.call(.get, "/api/session/recording/steps", session: session.id)
      #expect(String(buffer: all.body).split(separator: "\n") == stepLines)
      #expect(all.headers[.contentType] == "application/x-ndjson; charset=utf-8")
      for bad in ["-1", "two", "1e3", "99999999999"] {
        let (status, body) = try await steps(after: bad)
        #expect(status == .badRequest, "\(bad)")
        #expect(body.joined().contains("after must be a number of steps"), "\(bad)")
      }
    }
  }

  @Test func anotherVisitorGetsNothingOfASessionsRecording() async throws {
    try await makeApplication(recordingRegistry()).test(.router) { client in
      let recorded = try await client.createSession()
      _ = try await client.call(.post, "/api/session/recording", session: recorded.id)
      try await client.send(.incrementCounter(id: firstCounter), to: recorded.id)
      let other = try await client.createSession()
      let response = try await client.call(.get, "/api/session/recording/record", session: other.id)
      #expect(response.status == .notFound)
      #expect(String(buffer: response.body).contains("this session is not being recorded"))
      let noCookie = try await client.call(.get, "/api/session/recording/record")
      #expect(noCookie.status == .notFound)
      #expect(String(buffer: noCookie.body).contains("no session"))
    }
  }

  @Test func aRecordingKeepsAtMostItsLimit() async throws {
    try await makeApplication(recordingRegistry(limit: 3)).test(.router) { client in
      let session = try await client.createSession()
      _ = try await client.call(.post, "/api/session/recording", session: session.id)
      for _ in 0..<5 {
        try await client.send(.incrementCounter(id: firstCounter), to: session.id)
      }
      let status = try await client.call(.get, "/api/session/recording", session: session.id)
      #expect(try recordingStatus(status) == .init(recording: true, steps: 3, limit: 3, full: true))
      let record = try RecordFile.read(
        String(
          buffer: try await client.call(
            .get, "/api/session/recording/record", session: session.id
          ).body))
      #expect(record.steps.count == 3 && record.isFull)
    }
  }

  @Test func aRecordTakenWhileATimerRunsEndsItsTestBySkippingWhatTheTimerDoesLater() async throws {
    try await makeApplication(recordingRegistry()).test(.router) { client in
      let session = try await client.createSession()
      _ = try await client.call(.post, "/api/session/recording", session: session.id)
      try await client.send(.toggleTimer(id: firstCounter), to: session.id)
      let record = try RecordFile.read(
        String(
          buffer: try await client.call(
            .get, "/api/session/recording/record", session: session.id
          ).body))
      #expect(record.effectsInFlight == 1)
      let source = String(
        buffer: try await client.call(.get, "/api/session/recording/test", session: session.id)
          .body)
      #expect(source.hasSuffix("await store.skipInFlightEffects(strict: false)\n  }\n}\n"))
    }
  }

  @Test func aSessionThatEndsTakesItsRecordingWithIt() async throws {
    try await makeApplication(recordingRegistry()).test(.router) { client in
      let session = try await client.createSession()
      _ = try await client.call(.post, "/api/session/recording", session: session.id)
      #expect(
        try await client.call(.delete, "/api/session", session: session.id).status == .noContent)
      let response = try await client.call(
        .get, "/api/session/recording/record", session: session.id)
      #expect(response.status == .notFound)
      #expect(String(buffer: response.body).contains("unknown or expired session"))
    }
  }
}
