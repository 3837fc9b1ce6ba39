import ComposableArchitecture
import EpisodesFeature
import FavoriteClient
import FavoritingFeature
import Foundation
import Testing

@MainActor
struct EpisodesTests {
  @Test func theTaskMarksTheSavedFavorites() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient = .inMemory([UUID(1), UUID(4), UUID(99)])  // 99: no such row
    }
    await store.send(.task)
    await store.receive(\.favoritesResponse.success) {
      $0.episodes[id: UUID(1)]?.$isFavorite.withLock { $0 = true }
      $0.episodes[id: UUID(4)]?.$isFavorite.withLock { $0 = true }
    }
  }

  @Test func aFailedLoadIsShownAndTheRowsStay() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorites = { throw FavoriteError() }
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.task)
    await store.receive(\.favoritesResponse.failure) {
      $0.loadError = "Favorites could not be loaded (Favoriting failed.)."
    }
    // Favoriting still works, and a later load that succeeds clears the error.
    await store.send(\.episodes[id: UUID(0)].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.$isFavorite.withLock { $0 = true }
      $0.episodes[id: UUID(0)]?.isSaving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success) {
      $0.episodes[id: UUID(0)]?.isSaving = false
    }
    store.dependencies.favoriteClient.favorites = { [UUID(0)] }
    await store.send(.task)
    await store.receive(\.favoritesResponse.success) { $0.loadError = nil }
  }

  @Test func favoritingOneRowOfSeveral() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(\.episodes[id: UUID(2)].favorite.buttonTapped) {
      $0.episodes[id: UUID(2)]?.$isFavorite.withLock { $0 = true }
      $0.episodes[id: UUID(2)]?.isSaving = true
    }
    await store.receive(\.episodes[id: UUID(2)].favorite.response.success) {
      $0.episodes[id: UUID(2)]?.isSaving = false
    }
    #expect(store.state.episodes.filter(\.isFavorite).map(\.title) == ["Algebraic Data Types"])
  }

  @Test func failureOnOneRowShowsItsAlertAndRollsBackOnDismiss() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { id, isFavorite in
        guard id == UUID(4) else { return isFavorite }
        throw FavoriteError()
      }
    }
    await store.send(\.episodes[id: UUID(0)].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.$isFavorite.withLock { $0 = true }
      $0.episodes[id: UUID(0)]?.isSaving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success) {
      $0.episodes[id: UUID(0)]?.isSaving = false
    }
    await store.send(\.episodes[id: UUID(4)].favorite.buttonTapped) {
      $0.episodes[id: UUID(4)]?.$isFavorite.withLock { $0 = true }
      $0.episodes[id: UUID(4)]?.isSaving = true
    }
    await store.receive(\.episodes[id: UUID(4)].favorite.response.failure) {
      $0.episodes[id: UUID(4)]?.isSaving = false
      $0.episodes[id: UUID(4)]?.alert = AlertState { TextState("Favoriting failed.") }
    }
    await store.send(\.episodes[id: UUID(4)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(4)]?.alert = nil
      $0.episodes[id: UUID(4)]?.$isFavorite.withLock { $0 = false }
    }
    #expect(store.state.episodes[id: UUID(0)]?.isFavorite == true)
  }

  @Test func tappingAnEpisodePushesItsScreenSharingTheRowsFavorite() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.episodeTapped(UUID(1))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(1)]!)
    }
    // The favorite button of the screen changes the row too: one shared value.
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.path[id: 0]?.$isFavorite.withLock { $0 = true }
      $0.path[id: 0]?.isSaving = true
    }
    #expect(store.state.episodes[id: UUID(1)]?.isFavorite == true)
    await store.receive(\.path[id: 0].favorite.response.success) {
      $0.path[id: 0]?.isSaving = false
    }
    // And the row's button changes the screen.
    await store.send(\.episodes[id: UUID(1)].favorite.buttonTapped) {
      $0.episodes[id: UUID(1)]?.$isFavorite.withLock { $0 = false }
      $0.episodes[id: UUID(1)]?.isSaving = true
    }
    #expect(store.state.path[id: 0]?.isFavorite == false)
    await store.receive(\.episodes[id: UUID(1)].favorite.response.success) {
      $0.episodes[id: UUID(1)]?.isSaving = false
    }
  }

  @Test func theScreenClosesItselfWithDismiss() async {
    let store = TestStore(initialState: Episodes.State()) { Episodes() }
    await store.send(.episodeTapped(UUID(3))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(3)]!)
    }
    await store.send(\.path[id: 0].closeButtonTapped)
    await store.receive(\.path.popFrom) {
      $0.path = StackState()
    }
  }

  @Test func aFailureOnTheScreenAlertsThereAndRollsBackBoth() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
    }
    await store.send(.episodeTapped(UUID(0))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(0)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.path[id: 0]?.$isFavorite.withLock { $0 = true }
      $0.path[id: 0]?.isSaving = true
    }
    await store.receive(\.path[id: 0].favorite.response.failure) {
      $0.path[id: 0]?.isSaving = false
      $0.path[id: 0]?.alert = AlertState { TextState("Favoriting failed.") }
    }
    #expect(store.state.episodes[id: UUID(0)]?.alert == nil, "the alert is the screen's")
    await store.send(\.path[id: 0].favorite.alert.dismiss) {
      $0.path[id: 0]?.alert = nil
      $0.path[id: 0]?.$isFavorite.withLock { $0 = false }
    }
    #expect(store.state.episodes[id: UUID(0)]?.isFavorite == false)
  }

  /// A screen closed while its favorite's save is in flight takes the save with it, but not the
  /// choice, which its row shares: the row saves it again, and the service holds what the list
  /// shows.
  @Test func aSaveInFlightWhenItsScreenClosesIsFinishedByTheRow() async {
    let clock = TestClock()
    let saved = LockIsolated<[Bool]>([])
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        saved.withValue { $0.append(isFavorite) }
        return isFavorite
      }
    }
    await store.send(.episodeTapped(UUID(2))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(2)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.path[id: 0]?.$isFavorite.withLock { $0 = true }
      $0.path[id: 0]?.isSaving = true
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
    await store.receive(\.episodes[id: UUID(2)].favorite.save) {
      $0.episodes[id: UUID(2)]?.isSaving = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes[id: UUID(2)].favorite.response.success, true) {
      $0.episodes[id: UUID(2)]?.isSaving = false
    }
    #expect(saved.value == [true], "the screen's save was cancelled; the row's was made")
    #expect(store.state.episodes[id: UUID(2)]?.isFavorite == true)
  }

  /// The same when the service fails: the row shows the failure and OK rolls the choice back.
  @Test func aSaveThatFailsAfterItsScreenClosedAlertsOnTheRow() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      // The screen's save never answers (it is cancelled with the screen); the row's fails.
      let calls = LockIsolated(0)
      $0.favoriteClient.favorite = { _, _ in
        calls.withValue { $0 += 1 }
        if calls.value == 1 { try await Task.never() }
        throw FavoriteError()
      }
    }
    await store.send(.episodeTapped(UUID(1))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(1)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.path[id: 0]?.$isFavorite.withLock { $0 = true }
      $0.path[id: 0]?.isSaving = true
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
    await store.receive(\.episodes[id: UUID(1)].favorite.save) {
      $0.episodes[id: UUID(1)]?.isSaving = true
    }
    await store.receive(\.episodes[id: UUID(1)].favorite.response.failure) {
      $0.episodes[id: UUID(1)]?.isSaving = false
      $0.episodes[id: UUID(1)]?.alert = AlertState { TextState("Favoriting failed.") }
    }
    await store.send(\.episodes[id: UUID(1)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(1)]?.alert = nil
      $0.episodes[id: UUID(1)]?.$isFavorite.withLock { $0 = false }
    }
  }

  /// A screen closed while its failure alert is up rolls the choice back, as OK would have: the
  /// alert goes with the screen, and the list must not keep a choice the service refused.
  @Test func aScreenClosedWithItsFailureAlertUpRollsTheChoiceBack() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
    }
    await store.send(.episodeTapped(UUID(3))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(3)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.path[id: 0]?.$isFavorite.withLock { $0 = true }
      $0.path[id: 0]?.isSaving = true
    }
    await store.receive(\.path[id: 0].favorite.response.failure) {
      $0.path[id: 0]?.isSaving = false
      $0.path[id: 0]?.alert = AlertState { TextState("Favoriting failed.") }
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
      $0.episodes[id: UUID(3)]?.$isFavorite.withLock { $0 = false }
    }
  }

  /// A screen with nothing unfinished closes without a save.
  @Test func aScreenWithNothingInFlightClosesWithoutASave() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.episodeTapped(UUID(3))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(3)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.path[id: 0]?.$isFavorite.withLock { $0 = true }
      $0.path[id: 0]?.isSaving = true
    }
    await store.receive(\.path[id: 0].favorite.response.success, true) {
      $0.path[id: 0]?.isSaving = false
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
  }

  @Test func theMocksAreNewReferencesEachTime() {
    let first = IdentifiedArrayOf<Episode.State>.mocks
    let second = IdentifiedArrayOf<Episode.State>.mocks
    first[id: UUID(0)]?.$isFavorite.withLock { $0 = true }
    #expect(second[id: UUID(0)]?.isFavorite == false)
  }

  @Test func simulatedClientWaitsThenFailsOnALowRoll() async throws {
    let clock = TestClock()
    let client = withDependencies {
      $0.continuousClock = clock
      $0.withRandomNumberGenerator = WithRandomNumberGenerator(LowRolls())
    } operation: {
      FavoriteClient.simulated(failureRate: 0.25)
    }
    let task = Task { try await client.favorite(episodeID: UUID(0), isFavorite: true) }
    await clock.advance(by: .seconds(1))
    await #expect(throws: FavoriteError.self) { try await task.value }
  }
}

/// A generator whose doubles are all near zero: every roll is a failure.
struct LowRolls: RandomNumberGenerator {
  mutating func next() -> UInt64 { 0 }
}
