import AppFeature
import ComposableArchitecture
import Foundation
import Testing

@testable import WebFrontend
@testable import WebSessions

/// The archive's writer groups the states of sessions that change while a write is on its way
/// into the next write, and the deadlines of waiting requests are watched by one task.
struct SessionSaverTests {
  /// What a new session saves.
  static let kept = withDependencies {
    $0.uuid = .incrementing
  } operation: {
    AppFeature.State().kept
  }

  /// A save that records each batch (session → revision) and holds the first one until
  /// `release` is called.
  final class GatedSavedSessions: Sendable {
    let batches = LockIsolated<[[SessionID: Int]]>([])
    let written = LockIsolated<[SessionID: [Int]]>([:])
    private let gate = AsyncStream<Void>.makeStream()

    func save(_ entries: [SessionID: SavedSessions.SavedSession]) async throws -> Set<SessionID> {
      let isFirst = batches.withValue { batches in
        batches.append(entries.mapValues(\.revision))
        return batches.count == 1
      }
      if isFirst {
        for await _ in gate.stream { break }
      }
      return []
    }

    func release() {
      gate.continuation.yield()
    }

    func pending(_ id: SessionID, revision: Int) -> SessionSaver.Pending {
      SessionSaver.Pending(
        visitor: VisitorID(), holder: "copy", revision: revision,
        kept: AnyKeptState(SessionSaverTests.kept),
        written: { [written] revision, outcome in
          guard case .saved = outcome else {
            Issue.record("not saved: \(outcome)")
            return
          }
          written.withValue { $0[id, default: []].append(revision) }
        })
    }
  }

  @Test func statesHandedWhileAWriteIsOnItsWayAreWrittenTogetherNewestOnly() async throws {
    let savedSessions = GatedSavedSessions()
    let writer = SessionSaver()
    let (a, b, c) = (SessionID(), SessionID(), SessionID())
    writer.enqueue(a, savedSessions.pending(a, revision: 1), save: savedSessions.save)
    try await waitUntil { savedSessions.batches.value.count == 1 }
    // While the first write hangs, three states of two sessions arrive (and a stale one).
    writer.enqueue(b, savedSessions.pending(b, revision: 1), save: savedSessions.save)
    writer.enqueue(c, savedSessions.pending(c, revision: 4), save: savedSessions.save)
    writer.enqueue(b, savedSessions.pending(b, revision: 2), save: savedSessions.save)
    writer.enqueue(b, savedSessions.pending(b, revision: 1), save: savedSessions.save)
    savedSessions.release()
    try await waitUntil { savedSessions.written.value.count == 3 }
    #expect(savedSessions.batches.value == [[a: 1], [b: 2, c: 4]])
    #expect(savedSessions.written.value == [a: [1], b: [2], c: [4]])
    // With nothing on its way, the next state is written at once, alone.
    writer.enqueue(a, savedSessions.pending(a, revision: 2), save: savedSessions.save)
    try await waitUntil { savedSessions.written.value[a] == [1, 2] }
    #expect(savedSessions.batches.value.last == [a: 2])
  }

  @Test func aFailedWriteIsReportedToEverySessionInIt() async throws {
    let failures = LockIsolated<[SessionID: String]>([:])
    let writer = SessionSaver()
    let ids = [SessionID(), SessionID()]
    for id in ids {
      writer.enqueue(
        id,
        SessionSaver.Pending(
          visitor: VisitorID(), holder: "copy", revision: 1,
          kept: AnyKeptState(SessionSaverTests.kept),
          written: { _, outcome in
            failures.withValue { $0[id] = "\(outcome)" }
          }),
        save: { _ in throw SaveRefused() })
    }
    try await waitUntil { failures.value.count == 2 }
    #expect(
      failures.value.values.allSatisfy {
        $0 == "\(SessionSaver.Outcome.failed(SaveRefused()))"
      })
  }

  @Test func anEarlierDeadlineFiresWithoutWaitingForALaterOne() async throws {
    let timeouts = Timeouts()
    let fired = LockIsolated<[String]>([])
    let late = timeouts.add(after: .seconds(3_600)) { fired.withValue { $0.append("late") } }
    _ = timeouts.add(after: .milliseconds(20)) { fired.withValue { $0.append("early") } }
    let removed = timeouts.add(after: .milliseconds(10)) {
      fired.withValue { $0.append("removed") }
    }
    timeouts.remove(removed)
    try await waitUntil { fired.value == ["early"] }
    #expect(timeouts.count == 1)
    timeouts.remove(late)
    #expect(timeouts.count == 0)
    // A deadline registered after the watch ended starts a new one.
    _ = timeouts.add(after: .milliseconds(10)) { fired.withValue { $0.append("again") } }
    try await waitUntil { fired.value == ["early", "again"] }
  }
}
