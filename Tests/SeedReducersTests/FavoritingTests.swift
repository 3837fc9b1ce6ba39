import ComposableArchitecture
import Foundation
import Testing

@MainActor
struct FavoritingTests {
  private static let failedAlert = AlertState<FavoritingAction.Alert> {
    TextState("Favoriting failed.")
  }

  // MARK: The reusable component

  @Test func tapTogglesAtOnceAndTheResponseConfirms() async {
    let store = TestStore(initialState: FavoritingState(alert: nil, id: 1, isFavorite: false)) {
      Favoriting(favorite: { id, isFavorite in
        #expect(id == 1)
        return isFavorite
      })
    }
    await store.send(.buttonTapped) { $0.isFavorite = true }
    await store.receive(\.response.success, true)
    await store.send(.buttonTapped) { $0.isFavorite = false }
    await store.receive(\.response.success, false)
  }

  @Test func responseOverridesTheOptimisticToggle() async {
    let store = TestStore(initialState: FavoritingState(alert: nil, id: 1, isFavorite: false)) {
      Favoriting(favorite: { _, _ in false })
    }
    await store.send(.buttonTapped) { $0.isFavorite = true }
    await store.receive(\.response.success, false) { $0.isFavorite = false }
  }

  @Test func failureShowsAnAlertAndDismissingItRollsBack() async {
    let store = TestStore(initialState: FavoritingState(alert: nil, id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, _ in throw FavoriteError() })
    }
    await store.send(.buttonTapped) { $0.isFavorite = true }
    await store.receive(\.response.failure) { $0.alert = Self.failedAlert }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
      $0.isFavorite = false
    }
  }

  @Test func secondTapCancelsTheRequestInFlight() async {
    let store = TestStore(initialState: FavoritingState(alert: nil, id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, isFavorite in
        // Favoriting never answers unless it is cancelled; unfavoriting answers at once.
        if isFavorite { try await Task.never() }
        return isFavorite
      })
    }
    await store.send(.buttonTapped) { $0.isFavorite = true }
    await store.send(.buttonTapped) { $0.isFavorite = false }
    // Only the second request answers; the first one, still in flight, would fail the exhaustive
    // store at the end of the test had `cancelInFlight` not cancelled it.
    await store.receive(\.response.success, false)
  }

  // MARK: Episodes (Scope + forEach)

  private static let functions = Episode.State(id: UUID(0), isFavorite: false, title: "Functions")
  private static let sideEffects = Episode.State(
    id: UUID(1), isFavorite: false, title: "Side Effects")

  @Test func favoritingAnEpisodeChangesOnlyThatEpisode() async {
    let store = TestStore(
      initialState: Episodes.State(episodes: [Self.functions, Self.sideEffects])
    ) {
      Episodes(favorite: { id, isFavorite in
        #expect(id == UUID(1))
        return isFavorite
      })
    }
    await store.send(\.episode[id: UUID(1)].favorite.buttonTapped) {
      $0.episodes[id: UUID(1)]?.isFavorite = true
    }
    await store.receive(\.episode[id: UUID(1)].favorite.response.success, true)
  }

  @Test func episodeFailureShowsTheAlertOnThatEpisodeAndDismissingRollsBack() async {
    let store = TestStore(
      initialState: Episodes.State(episodes: [Self.functions, Self.sideEffects])
    ) {
      Episodes(favorite: { _, _ in throw FavoriteError() })
    }
    await store.send(.episode(.element(id: UUID(0), action: .favorite(.buttonTapped)))) {
      $0.episodes[id: UUID(0)]?.isFavorite = true
    }
    await store.receive(\.episode[id: UUID(0)].favorite.response.failure) {
      $0.episodes[id: UUID(0)]?.alert = Self.failedAlert
    }
    await store.send(.episode(.element(id: UUID(0), action: .favorite(.alert(.dismiss))))) {
      $0.episodes[id: UUID(0)]?.alert = nil
      $0.episodes[id: UUID(0)]?.isFavorite = false
    }
  }

  @Test func favoritingOneEpisodeDoesNotCancelAnother() async {
    // The first episode's request waits for the test to open the gate.
    let gate = AsyncStream.makeStream(of: Void.self)
    let store = TestStore(
      initialState: Episodes.State(episodes: [Self.functions, Self.sideEffects])
    ) {
      Episodes(favorite: { id, isFavorite in
        if id == UUID(0) {
          for await _ in gate.stream { break }
        }
        return isFavorite
      })
    }
    await store.send(\.episode[id: UUID(0)].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.isFavorite = true
    }
    await store.send(\.episode[id: UUID(1)].favorite.buttonTapped) {
      $0.episodes[id: UUID(1)]?.isFavorite = true
    }
    await store.receive(\.episode[id: UUID(1)].favorite.response.success, true)
    // Both episodes' cancel ids are `CancelID(id:)` of their own id: the second tap must have left
    // the first request running, so it still answers once the gate opens.
    gate.continuation.yield()
    await store.receive(\.episode[id: UUID(0)].favorite.response.success, true)
  }
}
