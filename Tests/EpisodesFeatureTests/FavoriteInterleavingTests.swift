import ComposableArchitecture
import EpisodesFeature
import FavoriteClient
import Foundation
import Testing

/// The promise "the list shows what the service holds", checked over random interleavings.
///
/// A visitor taps rows and screens (also while a save is in flight), opens and closes screens,
/// dismisses alerts and loads the saved favorites at random moments, while a service answers
/// after a random real-time delay and fails at random; its reads of the saved favorites are
/// made when asked and answered after a delay, so they may be older than a save that answers
/// first. Once nothing is in flight and the alerts are dismissed (as the front ends make a
/// visitor do: an alert takes every key), each row must show what the service holds. A failing
/// seed is printed with the visitor's last steps; `FAVORITE_INTERLEAVING_SEED=N` runs that seed.
@MainActor
struct FavoriteInterleavingTests {
  /// The service: saves after a delay unless it fails. A failed save keeps nothing; a save
  /// whose task is cancelled before it is applied keeps nothing, as a storage write that had not
  /// committed.
  final class Service: Sendable {
    let held = LockIsolated<Set<UUID>>([])
    let chance: LockIsolated<Splitmix>
    let failureRate: Double

    init(seed: UInt64, failureRate: Double) {
      self.chance = LockIsolated(Splitmix(seed: seed ^ 0x5eed))
      self.failureRate = failureRate
    }

    private func roll(_ range: UInt64) -> UInt64 { chance.withValue { $0.next() % range } }

    func favorite(_ id: UUID, _ isFavorite: Bool) async throws -> Bool {
      let fails = Double(roll(1000)) / 1000 < failureRate
      try await Task.sleep(for: .milliseconds(Int(roll(12))))
      if fails { throw FavoriteError() }
      try Task.checkCancellation()
      held.withValue { if isFavorite { $0.insert(id) } else { $0.remove(id) } }
      // Answering takes time too: a later save may be applied before this answer arrives.
      try? await Task.sleep(for: .milliseconds(Int(roll(4))))
      return isFavorite
    }

    func favorites() async throws -> Set<UUID> {
      let read = held.value
      try await Task.sleep(for: .milliseconds(Int(roll(15))))
      return read
    }
  }

  struct Splitmix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
      state &+= 0x9E37_79B9_7F4A_7C15
      var z = state
      z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
      z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
      return z ^ (z >> 31)
    }
  }

  nonisolated static var seeds: [UInt64] {
    if let seed = ProcessInfo.processInfo.environment["FAVORITE_INTERLEAVING_SEED"].flatMap(
      UInt64.init)
    {
      return [seed]
    }
    return Array(1...64)
  }

  @Test(arguments: seeds)
  func theListShowsWhatTheServiceHolds(seed: UInt64) async throws {
    let service = Service(seed: seed, failureRate: seed % 2 == 0 ? 0.3 : 0.05)
    let store = Store(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { try await service.favorite($0, $1) }
      $0.favoriteClient.favorites = { try await service.favorites() }
    }
    var chance = Splitmix(seed: seed)
    func roll(_ range: Int) -> Int { Int(chance.next() % UInt64(range)) }
    let ids = Array(store.episodes.map(\.id).prefix(3))
    var done: [String] = []
    for _ in 0..<60 {
      let choice = roll(100)
      if let row = store.episodes.first(where: { Self.alert(of: $0) }) {
        // An alert takes every key until it is dismissed.
        done.append("dismiss on row \(row.title)")
        store.send(.episodes(.element(id: row.id, action: .favorite(.alert(.dismiss)))))
      } else if let top = store.path.ids.last, let screen = store.path[id: top] {
        // A screen covers the list: only its button, its alert and closing it can be used.
        if Self.alert(of: screen) {
          done.append("dismiss on screen \(screen.title)")
          store.send(.path(.element(id: top, action: .favorite(.alert(.dismiss)))))
        } else if choice < 55 {
          done.append("tap screen \(screen.title)")
          store.send(.path(.element(id: top, action: .favorite(.buttonTapped))))
        } else {
          done.append("close screen \(screen.title)")
          store.send(.path(.popFrom(id: top)))
        }
      } else if choice < 55 {
        let id = ids[roll(ids.count)]
        done.append("tap row \(store.episodes[id: id]!.title)")
        store.send(.episodes(.element(id: id, action: .favorite(.buttonTapped))))
      } else if choice < 90 {
        let id = ids[roll(ids.count)]
        done.append("open \(store.episodes[id: id]!.title)")
        store.send(.episodeTapped(id))
      } else {
        done.append("load favorites")
        store.send(.task)
      }
      try await Task.sleep(for: .milliseconds(roll(8)))
    }
    // The visitor closes every screen and dismisses every alert, once nothing is in flight.
    var settled = false
    for _ in 0..<1000 {
      if !store.episodes.contains(where: { Self.saving($0) }) {
        if let top = store.path.ids.last {
          store.send(.path(.popFrom(id: top)))
        } else if let row = store.episodes.first(where: { Self.alert(of: $0) }) {
          store.send(.episodes(.element(id: row.id, action: .favorite(.alert(.dismiss)))))
        } else if Self.loaded(store) {
          settled = true
          break
        }
      }
      try await Task.sleep(for: .milliseconds(10))
    }
    #expect(settled, "seed \(seed): still saving after 10 s")
    let held = service.held.value
    for episode in store.episodes {
      #expect(
        Self.shows(episode) == held.contains(episode.id),
        """
        seed \(seed): \(episode.title) shows \(Self.shows(episode)), the service holds \
        \(held.contains(episode.id)); the last steps: \(done.suffix(12))
        """
      )
    }
  }

  // What the checker reads of a row or a screen.
  static func shows(_ row: Episode.State) -> Bool { row.favoriting.isFavorite }
  static func saving(_ row: Episode.State) -> Bool { row.favoriting.isSaving }
  static func alert(of row: Episode.State) -> Bool { row.favoriting.alert != nil }
  static func alert(of screen: EpisodeDetail.State) -> Bool { screen.favoriting.alert != nil }
  static func loaded(_ store: StoreOf<Episodes>) -> Bool { store.chosenWhileLoading == nil }
}
