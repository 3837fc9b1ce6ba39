import Hummingbird
import WebFrontend
import WebHTTP
import WebSessions

extension APIError {
  /// The answer to a refused action: 400 when it is malformed, 422 when it names something the
  /// state does not have, 409 when it does not fit the state now.
  package init(_ refusal: ActionRefusal) {
    switch refusal.kind {
    case .malformed: self.init(.badRequest, refusal.message)
    case .invalid: self.init(.unprocessableContent, refusal.message)
    case .conflict: self.init(.conflict, refusal.message)
    }
  }

  /// The answer to what a session refused: 404 for a session that is not there (or not
  /// recorded), 503 with `Retry-After` for what is worth trying again, 429 for too many streams.
  package init(_ error: SessionError) {
    switch error {
    case .unknownSession:
      self.init(.notFound, "unknown or expired session; create one with POST /api/session")
    case .noSession:
      self.init(.notFound, "no session; create one with POST /api/session")
    case .refused(let refusal):
      self.init(refusal)
    case .notSaved(let reason):
      self.init(
        .serviceUnavailable,
        "not saved: \(reason). The change is kept on this server and saved as soon as the storage takes writes again; a restart of this server before then would lose it.",
        headers: [.retryAfter: "5"])
    case .superseded:
      // The stale copy is dropped; the next request resumes what the storage holds.
      self.init(
        .serviceUnavailable,
        "not saved: this session moved to another server meanwhile, and this change was made on an out-of-date copy; try again",
        headers: [.retryAfter: "1"])
    case .shuttingDown(let resumable):
      // Draining: the visitor's next try reaches another instance, which resumes the session.
      self.init(
        .serviceUnavailable,
        resumable ? "the server is shutting down; try again" : "the server is shutting down")
    case .savedSessionsUnavailable:
      self.init(
        .serviceUnavailable, "saved sessions cannot be read right now; try again",
        headers: [.retryAfter: "5"])
    case .tooManySessions(let limit):
      self.init(
        .serviceUnavailable, "too many sessions (the limit is \(limit)); try again later",
        headers: [.retryAfter: "60"])
    case .tooManyEventStreams(let limit):
      self.init(.tooManyRequests, "this session already has \(limit) event streams open")
    case .recordingOff:
      self.init(.notFound, "this server does not record sessions (start it with --allow-recording)")
    case .notRecording:
      self.init(
        .notFound,
        "this session is not being recorded; start recording with POST /api/session/recording")
    }
  }
}

/// Answers what a session refused as the HTTP refusal it stands for, for ``RequestGuard`` to
/// write: sessions know nothing of HTTP, so their errors are mapped here, between the two.
package struct SessionRefusals: RouterMiddleware {
  package typealias Context = WebRequestContext

  package func handle(
    _ request: Request, context: Context, next: (Request, Context) async throws -> Response
  ) async throws -> Response {
    do {
      return try await next(request, context)
    } catch let error as SessionError {
      throw APIError(error)
    }
  }
}
