import ComposableArchitecture
import ComposableRecording
import Foundation
import Hummingbird
import Logging
import SessionTestWriter
import WebFrontend
import WebHTTP
import WebSessions

// Recording a session, its record and the test written from it.
extension WebRouter {
  /// The visitor's recording of their own session (`docs/recording.md`): on a server started
  /// with `--allow-recording`, for an app that can be recorded; elsewhere every route answers
  /// 404. A session's recording is reached only with its own cookie, kept in memory (at most
  /// ``SessionRegistry/Configuration/recordingLimit`` steps) and gone with the session.
  package static let recording = RouteGroup(
    "recording",
    [
      ("/api/session/recording", [.get, .post, .delete]),
      ("/api/session/recording/record", [.get]), ("/api/session/recording/test", [.get]),
      ("/api/session/recording/steps", [.get]),
    ]
  ) { routes, environment in
    let (registry, limits) = (environment.registry, environment.limits)
    let allowed = registry.allowsRecording
    /// The session of a recording request, on a server that records.
    @Sendable func recordedSession(_ request: Request, _ context: WebRequestContext, read: Bool)
      async throws -> String
    {
      guard allowed else { throw SessionError.recordingOff }
      let id = try sessionID(of: request)
      if read {
        try limits.admitRead(request, context: context)
      } else {
        try limits.admitAction(request, context: context)
      }
      try await registry.resume(id, visitor: visitor(of: request), logger: context.logger)
      return id
    }
    routes.on("/api/session/recording", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      return try json(try await registry.recordingStatus(of: id))
    }
    routes.on("/api/session/recording", .post) { request, context in
      let id = try await recordedSession(request, context, read: false)
      return try json(try await registry.startRecording(in: id), status: .created)
    }
    routes.on("/api/session/recording", .delete) { request, context in
      let id = try await recordedSession(request, context, read: false)
      try await registry.stopRecording(in: id)
      return Response(status: .noContent)
    }
    routes.on("/api/session/recording/record", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      let record = try await registry.record(of: id).record
      return download(
        RecordFile.write(record), type: "application/x-ndjson; charset=utf-8",
        name: "session.jsonl")
    }
    routes.on("/api/session/recording/steps", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      let after = request.uri.queryParameters.get("after").map { String($0) } ?? "0"
      guard let count = Int(after), count >= 0, after.count <= 9 else {
        throw APIError(
          .badRequest, "after must be a number of steps (0 or more), not \"\(after.prefix(40))\"")
      }
      let lines = try await registry.recordSteps(of: id, after: count)
      return Response(
        status: .ok,
        headers: [.contentType: "application/x-ndjson; charset=utf-8", .cacheControl: "no-store"],
        body: ResponseBody(byteBuffer: ByteBuffer(string: lines)))
    }
    routes.on("/api/session/recording/test", .get) { request, context in
      let id = try await recordedSession(request, context, read: true)
      let recorded = try await registry.record(of: id)
      let writer = SessionTestWriter(
        suiteName: "RecordedSessionTests", testName: "recordedSession",
        testableImports: recorded.testImports,
        source: SessionTestWriter.source(recordFile: "session.jsonl", recorded.record))
      let source: String
      do throws(SessionTestWriter.Failure) {
        source = try writer.write(recorded.record)
      } catch {
        throw APIError(.unprocessableContent, error.description)
      }
      return download(
        source, type: "text/x-swift; charset=utf-8", name: "RecordedSessionTests.swift")
    }
  }

  /// A text the browser saves as a file.
  static func download(_ text: String, type: String, name: String) -> Response {
    Response(
      status: .ok,
      headers: [
        .contentType: type, .cacheControl: "no-store",
        .contentDisposition: "attachment; filename=\"\(name)\"",
      ],
      body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
  }
}
