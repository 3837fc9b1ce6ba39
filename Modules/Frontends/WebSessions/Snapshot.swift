import Foundation
import WebFrontend

/// A state of a session with its revision: the revision grows by one with every change, so a page
/// that gets snapshots from two channels (responses and events) keeps the newest.
///
/// Its JSON form (``json``), `{"revision": 3, "state": {…}, "generation": "…"}`, is written once
/// when the state changes and sent as it is in every answer and event that carries it.
public struct Snapshot: Equatable, Sendable {
  /// 1 for the state a session starts with, then one more per change.
  public let revision: Int
  /// Which run of the session this is: a new value each time the session is created or
  /// resumed from the archive (after a restart, on another server). Revisions are ordered within
  /// a generation; a page that sees a new generation takes its snapshot whatever its revision.
  /// Letters and digits only.
  public let generation: String
  /// The snapshot as JSON.
  public let json: Data
  /// Where the state is in ``json``.
  private let stateRange: Range<Int>

  /// The state as JSON (``WebAPI/stateJSON(_:)`` of the served ``WebApp``'s API): a copy of the
  /// part of ``json`` that holds it.
  public var state: Data { json.subdata(in: stateRange) }

  /// The snapshot of revision `revision` whose JSON is `written`, which ``WebAPI`` wrote
  /// between ``prefix(revision:)`` and ``suffix(generation:)``: the snapshot keeps that one
  /// buffer, and the next state copies its unchanged features from it.
  package init(revision: Int, generation: String, written: StateJSON) {
    self.revision = revision
    self.generation = generation
    self.json = written.data
    self.stateRange = written.object
  }

  /// What comes before the state in the JSON of the snapshot of `revision`.
  package static func prefix(revision: Int) -> Data {
    Data(#"{"revision":\#(revision),"state":"#.utf8)
  }

  /// What comes after the state in the JSON of a snapshot of `generation`.
  package static func suffix(generation: String) -> Data {
    Data(#","generation":"\#(generation)"}"#.utf8)
  }
}

/// What a session pushes to the page's event stream.
public enum SessionEvent: Equatable, Sendable {
  /// The state changed (an action, a timer tick, a response).
  case state(Snapshot)
  /// Nothing changed for a while; sent so that dead connections are noticed.
  case keepAlive
  /// Every state up to `revision` is saved, after a write had failed: what the page was told
  /// was "not saved" is kept now.
  case saved(revision: Int)
}
