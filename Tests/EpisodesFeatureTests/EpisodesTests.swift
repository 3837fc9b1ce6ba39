import ComposableArchitecture
import EpisodesFeature
import FavoritingFeature
import Foundation
import Testing

@MainActor
struct EpisodesTests {
  @Test func favoritingOneRowOfSeveral() async {
    let store = TestStore(initialState: Episodes.State()) {
      Episodes()
    } withDependencies: {
      $0.favoriteClient.favorite = { _, isFavorite in isFavorite }
    }
    await store.send(\.episodes[id: UUID(2)].favorite.buttonTapped) {
      $0.episodes[id: UUID(2)]?.isFavorite = true
    }
    await store.receive(\.episodes[id: UUID(2)].favorite.response.success)
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
      $0.episodes[id: UUID(0)]?.isFavorite = true
    }
    await store.receive(\.episodes[id: UUID(0)].favorite.response.success)
    await store.send(\.episodes[id: UUID(4)].favorite.buttonTapped) {
      $0.episodes[id: UUID(4)]?.isFavorite = true
    }
    await store.receive(\.episodes[id: UUID(4)].favorite.response.failure) {
      $0.episodes[id: UUID(4)]?.alert = AlertState { TextState("Favoriting failed.") }
    }
    await store.send(\.episodes[id: UUID(4)].favorite.alert.dismiss) {
      $0.episodes[id: UUID(4)]?.alert = nil
      $0.episodes[id: UUID(4)]?.isFavorite = false
    }
    #expect(store.state.episodes[id: UUID(0)]?.isFavorite == true)
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
