import AppFeature
import ComposableArchitecture
import Foundation
import Testing

@testable import WebFrontend
@testable import WebSessions

/// The archive's writer groups the states of sessions that change while a write is on its way
/// into the next write, and the deadlines of waiting requests are watched by one task.
struct ArchiveWriterTests {
  /// What a new session saves.
  static let snapshot = withDependencies {
    $0.uuid = .incrementing
  } operation: {
    AppFeature.State().snapshot
  }

  /// A save that records each batch (session → revision) and holds the first one until
  /// `release` is called.
  final class GatedArchive: Sendable {
    let batches = LockIsolated<[[SessionID: Int]]>([])
    let written = LockIsolated<[SessionID: [Int]]>([:])
    private let gate = AsyncStream<Void>.makeStream()

    func save(_ entries: [SessionID: SessionArchive.SavedSession]) async throws -> Set<SessionID> {
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

    func pending(_ id: SessionID, revision: Int) -> ArchiveWriter.Pending {
      ArchiveWriter.Pending(
        visitor: VisitorID(), holder: "copy", revision: revision,
        kept: KeptState(ArchiveWriterTests.snapshot),
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
    let archive = GatedArchive()
    let writer = ArchiveWriter()
    let (a, b, c) = (SessionID(), SessionID(), SessionID())
    writer.enqueue(a, archive.pending(a, revision: 1), save: archive.save)
    try await waitUntil { archive.batches.value.count == 1 }
    // While the first write hangs, three states of two sessions arrive (and a stale one).
    writer.enqueue(b, archive.pending(b, revision: 1), save: archive.save)
    writer.enqueue(c, archive.pending(c, revision: 4), save: archive.save)
    writer.enqueue(b, archive.pending(b, revision: 2), save: archive.save)
    writer.enqueue(b, archive.pending(b, revision: 1), save: archive.save)
    archive.release()
    try await waitUntil { archive.written.value.count == 3 }
    #expect(archive.batches.value == [[a: 1], [b: 2, c: 4]])
    #expect(archive.written.value == [a: [1], b: [2], c: [4]])
    // With nothing on its way, the next state is written at once, alone.
    writer.enqueue(a, archive.pending(a, revision: 2), save: archive.save)
    try await waitUntil { archive.written.value[a] == [1, 2] }
    #expect(archive.batches.value.last == [a: 2])
  }

  @Test func aFailedWriteIsReportedToEverySessionInIt() async throws {
    let failures = LockIsolated<[SessionID: String]>([:])
    let writer = ArchiveWriter()
    let ids = [SessionID(), SessionID()]
    for id in ids {
      writer.enqueue(
        id,
        ArchiveWriter.Pending(
          visitor: VisitorID(), holder: "copy", revision: 1,
          kept: KeptState(ArchiveWriterTests.snapshot),
          written: { _, outcome in
            failures.withValue { $0[id] = "\(outcome)" }
          }),
        save: { _ in throw ArchiveDown() })
    }
    try await waitUntil { failures.value.count == 2 }
    #expect(
      failures.value.values.allSatisfy {
        $0 == "\(ArchiveWriter.Outcome.failed(ArchiveDown()))"
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
