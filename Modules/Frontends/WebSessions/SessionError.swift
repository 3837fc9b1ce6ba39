import WebFrontend

/// Why a session cannot do what it is asked, in the sessions' own words; the HTTP routes answer
/// each with its status (and, for the ones worth retrying, how long to wait).
///
/// Every refusal happens before the session's store sees anything, or — for a change that is not
/// saved — says the change is not kept yet, so a refused request never passes for a kept one.
public enum SessionError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The id names no live session: it never existed, expired, or was ended.
  case unknownSession
  /// The request carries no session id.
  case noSession
  /// The action was refused before the store saw it.
  case refused(ActionRefusal)
  /// The state the action produced is not saved (yet): the change is in the session and the
  /// server keeps trying to save it, but it is not kept. The reason says what the storage did.
  case notSaved(reason: String)
  /// The copy of the session that applied the action was stale: another copy (on another
  /// instance) had taken the session over, so nothing it did is kept.
  case superseded
  /// The server is shutting down; `resumable` when another instance can resume the session.
  case shuttingDown(resumable: Bool)
  /// Saved sessions cannot be read right now.
  case savedSessionsUnavailable
  /// The server holds as many sessions as it may, none of them idle.
  case tooManySessions(limit: Int)
  /// The session has as many event streams open as it may.
  case tooManyEventStreams(limit: Int)
  /// The server does not record sessions (or the app cannot be recorded).
  case recordingOff
  /// A record was asked of a session that is not being recorded.
  case notRecording

  public var description: String {
    switch self {
    case .unknownSession: "unknown or expired session"
    case .noSession: "no session"
    case .refused(let refusal): refusal.message
    case .notSaved(let reason): "not saved: \(reason)"
    case .superseded: "not saved: this session moved to another server meanwhile"
    case .shuttingDown: "the server is shutting down"
    case .savedSessionsUnavailable: "saved sessions cannot be read right now"
    case .tooManySessions(let limit): "too many sessions (the limit is \(limit))"
    case .tooManyEventStreams(let limit): "too many event streams (the limit is \(limit))"
    case .recordingOff: "this server does not record sessions"
    case .notRecording: "this session is not being recorded"
    }
  }
}
