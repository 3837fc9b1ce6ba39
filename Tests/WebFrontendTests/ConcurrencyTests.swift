import AppFeature
import AppWeb
import ComposableArchitecture
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import WebFrontend
import WebSessions

/// Many visitors at once, over a live server with a multi-connection client.
@MainActor
struct ConcurrencyTests {
  nonisolated static let sessionCount = 200
  nonisolated static let incrementsPerSession = 100
  /// Each session's increments are sent by this many concurrent senders.
  nonisolated static let sendersPerSession = 2
  /// The connections of HummingbirdTesting's AsyncHTTPClient (its pool's default per host).
  nonisolated static let clientConnections = 8

  /// With an archive, every acknowledged state is saved too (writes of many sessions grouped),
  /// and what is saved last for each session is its final state.
  @Test(arguments: [false, true])
  func everyActionOfEverySessionCountsExactlyOnce(archived: Bool) async throws {
    let savedSessions = SavedSessions.inMemory()
    let registry = SessionRegistry(
      app: .app, configuration: .init(maximumSessionCount: Self.sessionCount), logger: quietLogger,
      savedSessions: archived ? savedSessions : nil
    ) {
      $0.uuid = .incrementing
      $0.continuousClock = TestClock()
      $0.favoriteClient = .inMemory()
      $0.settingsClient = .inMemory()
    }
    try await makeApplication(registry).test(.ahc(.http)) { client in
      var ids: [String] = []
      for _ in 0..<Self.sessionCount {
        ids.append(try await client.createSession().id)
      }
      #expect(Set(ids).count == Self.sessionCount)

      // Every session's counter has the same id (UUID 0): an action that reached the wrong
      // session would show up as a count out of place.
      // The test client has `clientConnections` connections and gives each request 15 s,
      // waiting for a connection included: more senders than connections would only queue in the
      // client (on a loaded machine, past that deadline). So as many senders run at once as
      // there are connections, a session's senders next to each other (they race).
      let senders = ids.flatMap { id in Array(repeating: id, count: Self.sendersPerSession) }
      let seen = try await withThrowingTaskGroup(of: (String, [Int]).self) { group in
        func send(as id: String) {
          group.addTask {
            var counts: [Int] = []
            for _ in 0..<(Self.incrementsPerSession / Self.sendersPerSession) {
              let response = try await client.send(.incrementCounter(id: firstCounter), to: id)
              counts.append(response.state.counters[0].count)
            }
            return (id, counts)
          }
        }
        var waiting = senders[...]
        for id in waiting.prefix(Self.clientConnections) { send(as: id) }
        waiting = waiting.dropFirst(Self.clientConnections)
        var seen: [String: [Int]] = [:]
        for try await (id, counts) in group {
          seen[id, default: []] += counts
          if let next = waiting.popFirst() { send(as: next) }
        }
        return seen
      }

      for id in ids {
        // Each response saw its own increment: the counts are exactly 1...100, each once.
        #expect(seen[id]?.sorted() == Array(1...Self.incrementsPerSession))
        let final = try await client.state(of: id)
        #expect(final.state.counters.map(\.count) == [Self.incrementsPerSession])
        guard archived else { continue }
        let sessionID = try #require(SessionID(id))
        let saved = try #require(try await savedSessions.load(sessionID))
        #expect(saved.revision == final.revision)
        let snapshot = try JSONDecoder().decode(AppFeature.KeptState.self, from: saved.state)
        #expect(snapshot.counters.map(\.count) == [Self.incrementsPerSession])
      }
    }
  }
}
