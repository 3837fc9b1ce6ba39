import ComposableArchitecture
import EpisodesFeature
import FavoriteClient
import FavoritingFeature
import Foundation
import Testing

@MainActor
struct EpisodesTests {
  static let failed = AlertState<FavoritingAction.Alert> { TextState("Favoriting failed.") }

  @Test func theTaskMarksTheSavedFavorites() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient = .inMemory([UUID(1), UUID(4), UUID(99)])  // 99: no such row
    }
    await store.send(.task) { $0.chosenWhileLoading = [] }
    await store.receive(\.favoritesResponse.success) {
      $0.chosenWhileLoading = nil
      $0.episodes[id: UUID(1)]?.favorite = FavoritingState(id: UUID(1), isFavorite: true)
      $0.episodes[id: UUID(4)]?.favorite = FavoritingState(id: UUID(4), isFavorite: true)
    }
  }

  @Test func aFailedLoadIsShownAndTheRowsStay() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorites = { throw FavoriteError() }
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.task) { $0.chosenWhileLoading = [] }
    await store.receive(\.favoritesResponse.failure) {
      $0.chosenWhileLoading = nil
      $0.loadError = "Favorites could not be loaded (Favoriting failed.)."
    }
    // Favoriting still works, and a later load that succeeds clears the error.
    await store.send(\.episodes[id: UUID(0)].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(0)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success) {
      $0.episodes[id: UUID(0)]?.favorite.saving = nil
      $0.episodes[id: UUID(0)]?.favorite.saved = true
    }
    store.dependencies.favoriteClient.favorites = { [UUID(0)] }
    await store.send(.task) { $0.chosenWhileLoading = [] }
    await store.receive(\.favoritesResponse.success) {
      $0.chosenWhileLoading = nil
      $0.loadError = nil
    }
  }

  @Test func favoritingOneRowOfSeveral() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(\.episodes[id: UUID(2)].favorite.buttonTapped) {
      $0.episodes[id: UUID(2)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(2)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(2)].favorite.response.success) {
      $0.episodes[id: UUID(2)]?.favorite.saving = nil
      $0.episodes[id: UUID(2)]?.favorite.saved = true
    }
    #expect(
      store.state.episodes.filter(\.favoriting.isFavorite).map(\.title) == [
        "Algebraic Data Types"
      ])
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
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(0)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success) {
      $0.episodes[id: UUID(0)]?.favorite.saving = nil
      $0.episodes[id: UUID(0)]?.favorite.saved = true
    }
    await store.send(\.episodes[id: UUID(4)].favorite.buttonTapped) {
      $0.episodes[id: UUID(4)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(4)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(4)].favorite.response.failure) {
      $0.episodes[id: UUID(4)]?.favorite.saving = nil
      $0.episodes[id: UUID(4)]?.favorite.alert = Self.failed
    }
    await store.send(\.episodes[id: UUID(4)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(4)]?.favorite.alert = nil
      $0.episodes[id: UUID(4)]?.favorite.isFavorite = false
    }
    #expect(store.state.episodes[id: UUID(0)]?.favoriting.isFavorite == true)
  }

  /// The screen's button is its row's: a tap there is answered by the row's reducer, whose save
  /// answers on the row, and both show one state.
  @Test func tappingAnEpisodePushesItsScreenSharingTheRowsButton() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.episodeTapped(UUID(1))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(1)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.episodes[id: UUID(1)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(1)]?.favorite.saving = true
    }
    #expect(store.state.path[id: 0]?.favoriting.isFavorite == true)
    await store.receive(\.episodes[id: UUID(1)].favorite.response.success) {
      $0.episodes[id: UUID(1)]?.favorite.saving = nil
      $0.episodes[id: UUID(1)]?.favorite.saved = true
    }
    // And the row's button changes the screen.
    await store.send(\.episodes[id: UUID(1)].favorite.buttonTapped) {
      $0.episodes[id: UUID(1)]?.favorite.isFavorite = false
      $0.episodes[id: UUID(1)]?.favorite.saving = false
    }
    #expect(store.state.path[id: 0]?.favoriting.isFavorite == false)
    await store.receive(\.episodes[id: UUID(1)].favorite.response.success) {
      $0.episodes[id: UUID(1)]?.favorite.saving = nil
      $0.episodes[id: UUID(1)]?.favorite.saved = false
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

  @Test func aFailureOnTheScreenAlertsAndOKRollsBack() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
    }
    await store.send(.episodeTapped(UUID(0))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(0)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(0)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.failure) {
      $0.episodes[id: UUID(0)]?.favorite.saving = nil
      $0.episodes[id: UUID(0)]?.favorite.alert = Self.failed
    }
    #expect(store.state.path[id: 0]?.favoriting.alert == Self.failed)
    await store.send(\.path[id: 0].favorite.alert.dismiss) {
      $0.episodes[id: UUID(0)]?.favorite.alert = nil
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = false
    }
  }

  /// A screen closed while its favorite's save is in flight takes nothing with it: the save is
  /// the row's, made once, and the service holds what the list shows.
  @Test func aSaveInFlightWhenItsScreenClosesIsKept() async {
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
      $0.episodes[id: UUID(2)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(2)]?.favorite.saving = true
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes[id: UUID(2)].favorite.response.success, true) {
      $0.episodes[id: UUID(2)]?.favorite.saving = nil
      $0.episodes[id: UUID(2)]?.favorite.saved = true
    }
    #expect(saved.value == [true])
  }

  /// The same when the service fails: the alert shows on the list, and OK rolls the choice back.
  @Test func aSaveThatFailsAfterItsScreenClosedAlertsOnTheList() async {
    let clock = TestClock()
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, _ in
        try await clock.sleep(for: .seconds(1))
        throw FavoriteError()
      }
    }
    await store.send(.episodeTapped(UUID(1))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(1)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.episodes[id: UUID(1)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(1)]?.favorite.saving = true
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes[id: UUID(1)].favorite.response.failure) {
      $0.episodes[id: UUID(1)]?.favorite.saving = nil
      $0.episodes[id: UUID(1)]?.favorite.alert = Self.failed
    }
    await store.send(\.episodes[id: UUID(1)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(1)]?.favorite.alert = nil
      $0.episodes[id: UUID(1)]?.favorite.isFavorite = false
    }
  }

  /// A screen closed while its failure alert is up leaves the alert on the list, where OK rolls
  /// the choice back: the list never keeps a choice the service refused without saying so.
  @Test func aScreenClosedWithItsFailureAlertUpLeavesTheAlertOnTheList() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, _ in throw FavoriteError() }
    }
    await store.send(.episodeTapped(UUID(3))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(3)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.episodes[id: UUID(3)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(3)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(3)].favorite.response.failure) {
      $0.episodes[id: UUID(3)]?.favorite.saving = nil
      $0.episodes[id: UUID(3)]?.favorite.alert = Self.failed
    }
    await store.send(.path(.popFrom(id: 0))) {
      $0.path[id: 0] = nil
    }
    #expect(store.state.episodes[id: UUID(3)]?.favoriting.alert == Self.failed)
    await store.send(\.episodes[id: UUID(3)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(3)]?.favorite.alert = nil
      $0.episodes[id: UUID(3)]?.favorite.isFavorite = false
    }
  }

  /// Taps on the row and on its screen while a save is in flight make no second save at the
  /// same time: the newest choice is saved when the first save answers.
  @Test func tapsWhileSavingAreSavedOneAfterAnother() async {
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
    await store.send(\.episodes[id: UUID(0)].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(0)]?.favorite.saving = true
    }
    await store.send(.episodeTapped(UUID(0))) {
      $0.path[id: 0] = EpisodeDetail.State(episode: $0.episodes[id: UUID(0)]!)
    }
    await store.send(\.path[id: 0].favorite.buttonTapped) {
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success, true) {
      $0.episodes[id: UUID(0)]?.favorite.saved = true
      $0.episodes[id: UUID(0)]?.favorite.saving = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success, false) {
      $0.episodes[id: UUID(0)]?.favorite.saved = false
      $0.episodes[id: UUID(0)]?.favorite.saving = nil
    }
    #expect(saved.value == [true, false])
  }

  /// The load may read the service before a choice made meanwhile is saved: that row keeps its
  /// choice, the others take the loaded one.
  @Test func aChoiceMadeWhileLoadingIsNotUndoneByTheLoad() async {
    let clock = TestClock()
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      // Read before the tap's save, answered after it.
      $0.favoriteClient.favorites = {
        try await clock.sleep(for: .seconds(2))
        return [UUID(3)]
      }
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.task) { $0.chosenWhileLoading = [] }
    await store.send(\.episodes[id: UUID(0)].favorite.buttonTapped) {
      $0.chosenWhileLoading = [UUID(0)]
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(0)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success, true) {
      $0.episodes[id: UUID(0)]?.favorite.saving = nil
      $0.episodes[id: UUID(0)]?.favorite.saved = true
    }
    await clock.advance(by: .seconds(2))
    await store.receive(\.favoritesResponse.success) {
      $0.chosenWhileLoading = nil
      $0.episodes[id: UUID(3)]?.favorite = FavoritingState(id: UUID(3), isFavorite: true)
    }
  }

  /// A load asked for while one is under way starts none. If it started one, its start would
  /// forget the rows chosen since the first began, and the first's answer, read before their
  /// saves, would undo them: the row would show what the service no longer holds.
  @Test func aLoadAskedForWhileOneIsUnderWayStartsNone() async {
    let clock = TestClock()
    let loads = LockIsolated(0)
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      // Read before the tap's save, answered after it.
      $0.favoriteClient.favorites = {
        loads.withValue { $0 += 1 }
        try await clock.sleep(for: .seconds(2))
        return []
      }
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(.task) { $0.chosenWhileLoading = [] }
    await store.send(\.episodes[id: UUID(0)].favorite.buttonTapped) {
      $0.chosenWhileLoading = [UUID(0)]
      $0.episodes[id: UUID(0)]?.favorite.isFavorite = true
      $0.episodes[id: UUID(0)]?.favorite.saving = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success, true) {
      $0.episodes[id: UUID(0)]?.favorite.saving = nil
      $0.episodes[id: UUID(0)]?.favorite.saved = true
    }
    await store.send(.task)
    await clock.advance(by: .seconds(2))
    await store.receive(\.favoritesResponse.success) {
      $0.chosenWhileLoading = nil
    }
    #expect(loads.value == 1)
    #expect(store.state.episodes[id: UUID(0)]?.favoriting.isFavorite == true)
  }

  /// The list can show the favorites only; a row whose save is in flight or failed stays shown
  /// until its outcome is known, so that an unfavorite's failure shows where it was made.
  @Test func theListCanShowTheFavoritesOnly() async {
    let clock = TestClock()
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorites = { [UUID(1), UUID(4)] }
      $0.favoriteClient.favorite = { _, _ in
        try await clock.sleep(for: .seconds(1))
        throw FavoriteError()
      }
    }
    await store.send(.task) { $0.chosenWhileLoading = [] }
    await store.receive(\.favoritesResponse.success) {
      $0.chosenWhileLoading = nil
      $0.episodes[id: UUID(1)]?.favorite = FavoritingState(id: UUID(1), isFavorite: true)
      $0.episodes[id: UUID(4)]?.favorite = FavoritingState(id: UUID(4), isFavorite: true)
    }
    #expect(store.state.shownEpisodes.count == 6)
    await store.send(.favoritesOnlyToggled) { $0.showsFavoritesOnly = true }
    #expect(store.state.shownEpisodes.map(\.title) == ["Side Effects", "Parsers"])
    // Unfavoriting a row keeps it shown while it saves, and with its failure alert.
    await store.send(\.episodes[id: UUID(4)].favorite.buttonTapped) {
      $0.episodes[id: UUID(4)]?.favorite.isFavorite = false
      $0.episodes[id: UUID(4)]?.favorite.saving = false
    }
    #expect(store.state.shownEpisodes.map(\.title) == ["Side Effects", "Parsers"])
    await clock.advance(by: .seconds(1))
    await store.receive(\.episodes[id: UUID(4)].favorite.response.failure) {
      $0.episodes[id: UUID(4)]?.favorite.saving = nil
      $0.episodes[id: UUID(4)]?.favorite.alert = Self.failed
    }
    #expect(store.state.shownEpisodes.map(\.title) == ["Side Effects", "Parsers"])
    await store.send(\.episodes[id: UUID(4)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(4)]?.favorite.alert = nil
      $0.episodes[id: UUID(4)]?.favorite.isFavorite = true
    }
    await store.send(.favoritesOnlyToggled) { $0.showsFavoritesOnly = false }
    #expect(store.state.shownEpisodes.count == 6)
  }

  @Test func theMocksAreNewReferencesEachTime() {
    let first = IdentifiedArrayOf<Episode.State>.mocks
    let second = IdentifiedArrayOf<Episode.State>.mocks
    first[id: UUID(0)]?.$favoriting.withLock { $0.isFavorite = true }
    #expect(second[id: UUID(0)]?.favoriting.isFavorite == false)
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
