import AppWeb
import ComposableArchitecture
import FavoriteClient
import Foundation
import SettingsClient
import Synchronization
import Testing

@testable import WebFrontend
@testable import WebHTTP
@testable import WebSessions

/// One copy of a session at a time: when a session moves between instances that both keep
/// running (a balancer whose health checks flap), the copy left behind may never acknowledge a
/// change — nor show a state older than one acknowledged — once another copy has taken the
/// session over.
///
/// Instances here are registries sharing one archive, as instances share one database; requests
/// go through the registry's operations in the order a route calls them.
struct OneCopyTests {
  /// An instance: a registry over the shared archive, with its own counter ids.
  static func instance(_ savedSessions: SavedSessions, seed: Int) -> SessionRegistry {
    let uuid = countingUUIDs(from: seed)
    return SessionRegistry(
      app: .app, configuration: .init(saveTimeout: .seconds(30)), logger: quietLogger,
      savedSessions: savedSessions,
      dependencies: {
        $0.uuid = uuid
        $0.favoriteClient = .inMemory()
        $0.settingsClient = .inMemory()
      })
  }

  /// The first counter's id and count in a snapshot.
  static func firstCounter(_ snapshot: Snapshot) throws -> (id: UUID, count: Int) {
    let state = try JSONSerialization.jsonObject(with: snapshot.state) as? [String: Any]
    let counter = try #require((state?["counters"] as? [[String: Any]])?.first)
    let id = try #require((counter["id"] as? String).flatMap(UUID.init(uuidString:)))
    return (id, try #require(counter["count"] as? Int))
  }

  /// What the actions route does: resume if needed, then perform.
  static func increment(
    _ id: SessionID, visitor: VisitorID, counter: UUID, on instance: SessionRegistry
  ) async throws(SessionError) -> Snapshot {
    try await instance.resume(id.rawValue, visitor: visitor)
    return try await instance.perform(
      .incrementCounter(id: counter), in: id.rawValue, visitor: visitor)
  }

  /// What the state route does.
  static func read(
    _ id: SessionID, visitor: VisitorID, on instance: SessionRegistry
  ) async throws(SessionError) -> Snapshot {
    try await instance.resume(id.rawValue, visitor: visitor, confirmingCurrent: true)
    return try instance.snapshot(of: id.rawValue)
  }

  @Test func aCopyLeftBehindNeverAcknowledgesAfterTheSessionMovedAndCameBack() async throws {
    let savedSessions = SavedSessions.inMemory()
    let (a, b) = (Self.instance(savedSessions, seed: 0), Self.instance(savedSessions, seed: 100))
    let visitor = VisitorID()
    let (id, first) = try await a.create(for: visitor)
    let counter = try Self.firstCounter(first).id
    #expect(
      try Self.firstCounter(await Self.increment(id, visitor: visitor, counter: counter, on: a))
        .count == 1)
    // The balancer moves the visitor to b while a keeps running: b resumes (and claims) it.
    #expect(
      try Self.firstCounter(await Self.increment(id, visitor: visitor, counter: counter, on: b))
        .count == 2)
    #expect(
      try Self.firstCounter(await Self.increment(id, visitor: visitor, counter: counter, on: b))
        .count == 3)
    // Back on a, whose copy still shows 1: its save is refused, the copy is dropped, the
    // session resumed from the archive, and the action applied to that state.
    let back = try await Self.increment(id, visitor: visitor, counter: counter, on: a)
    #expect(try Self.firstCounter(back).count == 4)
    // b's copy is now the stale one: a read there does not show 3, it resumes what a saved.
    #expect(try Self.firstCounter(await Self.read(id, visitor: visitor, on: b)).count == 4)
    // And a, which b took over again by that read, finds its copy stale on its next read.
    #expect(try Self.firstCounter(await Self.read(id, visitor: visitor, on: a)).count == 4)
    #expect(try await savedSessions.load(id)?.revision == back.revision)
  }

  @Test func aStaleCopyThatExpiresDoesNotDeleteWhatTheNewCopySaved() async throws {
    let savedSessions = SavedSessions.inMemory()
    let clock = ContinuousClock.now
    let (a, b) = (Self.instance(savedSessions, seed: 0), Self.instance(savedSessions, seed: 100))
    let visitor = VisitorID()
    let (id, first) = try await a.create(for: visitor, now: clock)
    let counter = try Self.firstCounter(first).id
    _ = try await Self.increment(id, visitor: visitor, counter: counter, on: a)
    _ = try await Self.increment(id, visitor: visitor, counter: counter, on: b)
    // a's copy idles past the timeout and is ended: nothing it does may touch b's row.
    #expect(a.expireIdleSessions(now: clock.advanced(by: .seconds(3_600))) == 1)
    try await waitUntil { a.count == 0 }
    try await Task.sleep(for: .milliseconds(50))
    #expect(try await savedSessions.load(id)?.holder == b.holder(of: id))
    #expect(try Self.firstCounter(await Self.read(id, visitor: visitor, on: b)).count == 2)
  }

  /// The promise under random interleavings: visitors increment (one action in flight each)
  /// through a "balancer" that moves them between instances that keep running, while instances
  /// are killed and replaced, their sessions expire, and the archive has outages. Checked per session: every 2xx shows
  /// at least one more than the previous 2xx; every read shows at least the highest count
  /// acknowledged before it; at the end the count is at least the highest acknowledged and at
  /// most what was sent.
  ///
  /// The same schedule against an archive that keeps the last write of any copy (the rule
  /// before copies were told apart) must break the promise: the checker can fail.
  @Test(arguments: [1, 2, 3, 4, 5])
  func randomMovesKillsAndOutagesLoseNothingAcknowledged(seed: UInt64) async throws {
    let fenced = try await Self.runSchedule(seed: seed, lastWriteWins: false)
    #expect(fenced.violations == [], "seed \(seed)")
    #expect(fenced.moves > 0 && fenced.acknowledged > 0, "seed \(seed): \(fenced)")
    let unfenced = try await Self.runSchedule(seed: seed, lastWriteWins: true)
    #expect(!unfenced.violations.isEmpty, "seed \(seed): the checker found nothing to refuse")
  }

  struct Outcome: CustomStringConvertible {
    var violations: [String] = []
    var moves = 0
    var acknowledged = 0
    var description: String {
      "\(acknowledged) acknowledged, \(moves) moves, \(violations.count) violations"
    }
  }

  /// A shared archive with outages and, for the control run, the old rule.
  final class FaultySavedSessions: Sendable {
    let stored = SavedSessions.inMemory()
    let isDown = Atomic<Bool>(false)
    let lastWriteWins: Bool
    /// The old rule's rows: a revision newer than the saved one wins, whoever wrote it.
    let unfenced = Mutex<[SessionID: SavedSessions.SavedSession]>([:])

    init(lastWriteWins: Bool) { self.lastWriteWins = lastWriteWins }

    struct Down: Error {}

    var savedSessions: SavedSessions {
      SavedSessions(
        load: { [self] id in
          if isDown.load(ordering: .relaxed) { throw Down() }
          return lastWriteWins ? unfenced.withLock { $0[id] } : try await stored.load(id)
        },
        claim: { [self] id, visitor, holder in
          if isDown.load(ordering: .relaxed) { throw Down() }
          await Task.yield()
          guard lastWriteWins else { return try await stored.claim(id, visitor, holder) }
          return unfenced.withLock { $0[id].flatMap { $0.visitor == visitor ? $0 : nil } }
        },
        save: { [self] entries in
          await Task.yield()
          if isDown.load(ordering: .relaxed) { throw Down() }
          guard lastWriteWins else { return try await stored.save(entries) }
          unfenced.withLock { rows in
            for (id, entry) in entries where (rows[id]?.revision ?? 0) < entry.revision {
              rows[id] = entry
            }
          }
          return []
        },
        delete: { [self] id, holder in
          guard lastWriteWins else { return try await stored.delete(id, holder) }
          unfenced.withLock { _ = $0.removeValue(forKey: id) }
        },
        prune: { _ in 0 })
    }
  }

  /// One visitor: its session, and what it saw acknowledged.
  final class Visitor: Sendable {
    let visitor: VisitorID
    let session: SessionID
    let counter: UUID
    /// The instance the balancer sends this visitor to.
    let home: Atomic<Int>
    let seen = Mutex(Seen())

    struct Seen {
      var acknowledged = 0
      var sent = 0
      var log: [String] = []
    }

    init(visitor: VisitorID, session: SessionID, counter: UUID, home: Int) {
      self.visitor = visitor
      self.session = session
      self.counter = counter
      self.home = Atomic(home)
    }

    /// Records an answer and returns a violation of the promise, if it is one.
    func check(_ what: String, count: Int, isAcknowledgement: Bool, on instance: Int) -> String? {
      seen.withLock { seen in
        seen.log.append("\(what) on \(instance): \(count)")
        let floor = seen.acknowledged + (isAcknowledgement ? 1 : 0)
        defer { if isAcknowledgement { seen.acknowledged = max(seen.acknowledged, count) } }
        guard count >= floor else {
          return "\(what) on \(instance) showed \(count), below \(floor): "
            + seen.log.suffix(8).joined(separator: ", ")
        }
        return nil
      }
    }
  }

  static func runSchedule(seed: UInt64, lastWriteWins: Bool) async throws -> Outcome {
    let faulty = FaultySavedSessions(lastWriteWins: lastWriteWins)
    let savedSessions = faulty.savedSessions
    let instanceCount = 2
    let instances = LockIsolated<[SessionRegistry]>(
      (0..<instanceCount).map { Self.instance(savedSessions, seed: $0 * 1_000) })
    let generations = LockIsolated(instanceCount)
    @Sendable func instance(_ index: Int) -> SessionRegistry { instances.value[index] }

    var created: [Visitor] = []
    for index in 0..<8 {
      let home = index % instanceCount
      let visitor = VisitorID()
      let (id, snapshot) = try await instance(home).create(for: visitor)
      created.append(
        Visitor(
          visitor: visitor, session: id, counter: try firstCounter(snapshot).id, home: home))
    }
    let visitors = created
    let outcome = LockIsolated(Outcome())
    // First a move there and back for every session, in order (the interleaving the random part
    // may or may not produce): on the old rule this alone breaks the promise.
    for visitor in visitors {
      for step in 0..<3 {
        let home = visitor.home.load(ordering: .relaxed)
        visitor.seen.withLock { $0.sent += 1 }
        // A 503 (the save not confirmed in time: in a full test run every test store's jobs
        // share the main thread with these) acknowledges nothing, and the checker counts only
        // what was acknowledged.
        if let snapshot = try? await Self.increment(
          visitor.session, visitor: visitor.visitor, counter: visitor.counter,
          on: instance(home))
        {
          outcome.withValue { $0.acknowledged += 1 }
          if let violation = visitor.check(
            "increment", count: try firstCounter(snapshot).count, isAcknowledgement: true,
            on: home)
          {
            outcome.withValue { $0.violations.append(violation) }
          }
        }
        if step < 2 {
          visitor.home.store((home + 1) % instanceCount, ordering: .relaxed)
          outcome.withValue { $0.moves += 1 }
        }
      }
    }
    let visitorsDone = LockIsolated(0)
    await withTaskGroup(of: Void.self) { group in
      for (index, visitor) in visitors.enumerated() {
        group.addTask {
          var random = SeededGenerator(seed: seed &* 1_000 &+ UInt64(index))
          for _ in 0..<40 {
            let home = visitor.home.load(ordering: .relaxed)
            let registry = instance(home)
            let violation: String?
            if Int.random(in: 0..<5, using: &random) == 0 {
              guard
                let snapshot = try? await Self.read(
                  visitor.session, visitor: visitor.visitor, on: registry),
                let count = try? firstCounter(snapshot).count
              else { continue }
              violation = visitor.check(
                "read", count: count, isAcknowledgement: false, on: home)
            } else {
              visitor.seen.withLock { $0.sent += 1 }
              guard
                let snapshot = try? await Self.increment(
                  visitor.session, visitor: visitor.visitor, counter: visitor.counter,
                  on: registry),
                let count = try? firstCounter(snapshot).count
              else { continue }
              outcome.withValue { $0.acknowledged += 1 }
              violation = visitor.check(
                "increment", count: count, isAcknowledgement: true, on: home)
            }
            if let violation { outcome.withValue { $0.violations.append(violation) } }
            if Bool.random(using: &random) { await Task.yield() }
          }
          visitorsDone.withValue { $0 += 1 }
        }
      }
      // The faults, while any visitor runs.
      group.addTask {
        var random = SeededGenerator(seed: seed)
        while visitorsDone.value < visitors.count {
          switch Int.random(in: 0..<10, using: &random) {
          case 0..<6:
            // A health check flaps: some visitors go to the other instance (and later back).
            for visitor in visitors where Bool.random(using: &random) {
              let home = visitor.home.load(ordering: .relaxed)
              visitor.home.store((home + 1) % instanceCount, ordering: .relaxed)
              outcome.withValue { $0.moves += 1 }
            }
          case 6..<8:
            // An instance is killed and started again: its copies are gone.
            let victim = Int.random(in: 0..<instanceCount, using: &random)
            let next = generations.withValue { generation in
              generation += 1
              return generation
            }
            let old = instances.withValue { instances in
              defer { instances[victim] = Self.instance(savedSessions, seed: next * 1_000) }
              return instances[victim]
            }
            old.endAll()
          case 8:
            // An instance's sessions all go idle past the timeout: they end in memory and keep
            // what they saved (their visitors' next requests resume them).
            let victim = Int.random(in: 0..<instanceCount, using: &random)
            instance(victim).expireIdleSessions(now: .now.advanced(by: .seconds(3_600)))
          default:
            // The database goes away for a moment.
            faulty.isDown.store(true, ordering: .relaxed)
            for _ in 0..<Int.random(in: 1...20, using: &random) { await Task.yield() }
            faulty.isDown.store(false, ordering: .relaxed)
          }
          for _ in 0..<Int.random(in: 1...30, using: &random) { await Task.yield() }
        }
      }
    }
    // Everything over: each session shows at least what was acknowledged, at most what was sent.
    var result = outcome.value
    for visitor in visitors {
      let home = visitor.home.load(ordering: .relaxed)
      // The storage is up again; a read may still be refused while the machine is starved
      // (a 503 "cannot be read right now"): it is asked again, as a page would.
      var snapshot: Snapshot?
      for _ in 0..<100 {
        snapshot = try? await Self.read(
          visitor.session, visitor: visitor.visitor, on: instance(home))
        if snapshot != nil { break }
        try await Task.sleep(for: .milliseconds(50))
      }
      guard let snapshot else {
        result.violations.append("the session could not be read at the end")
        continue
      }
      let count = try firstCounter(snapshot).count
      let seen = visitor.seen.withLock { $0 }
      if count < seen.acknowledged || count > seen.sent {
        result.violations.append(
          "final count \(count), acknowledged \(seen.acknowledged), sent \(seen.sent)")
      }
    }
    for registry in instances.value { registry.endAll() }
    return result
  }
}
