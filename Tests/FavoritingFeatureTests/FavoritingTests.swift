import ComposableArchitecture
import FavoritingFeature
import Foundation
import Testing

struct SaveFailed: LocalizedError {
  var errorDescription: String? { "Favoriting failed." }
}

@Reducer
struct Row {
  struct State: Equatable, Identifiable {
    var favorite: FavoritingState<Int>
    var id: Int { favorite.id }
  }
  enum Action {
    case favorite(FavoritingAction)
  }
  let save: @Sendable (Int, Bool) async throws -> Bool
  var body: some ReducerOf<Self> {
    Scope(state: \.favorite, action: \.favorite) {
      Favoriting(favorite: save)
    }
  }
}

@Reducer
struct Rows {
  struct State: Equatable {
    var rows: IdentifiedArrayOf<Row.State>
  }
  enum Action {
    case rows(IdentifiedActionOf<Row>)
  }
  let save: @Sendable (Int, Bool) async throws -> Bool
  var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.rows, action: \.rows) { Row(save: save) }
  }
}

@MainActor
struct FavoritingTests {
  @Test func tapTogglesAtOnceAndTheSavedValueIsKept() async {
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, isFavorite in isFavorite })
    }
    await store.send(.buttonTapped) {
      $0.isFavorite = true
      $0.isSaving = true
    }
    await store.receive(\.response.success) { $0.isSaving = false }
  }

  @Test func failureShowsAnAlertAndDismissingItRollsBack() async {
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, _ in throw SaveFailed() })
    }
    await store.send(.buttonTapped) {
      $0.isFavorite = true
      $0.isSaving = true
    }
    await store.receive(\.response.failure) {
      $0.isSaving = false
      $0.alert = AlertState { TextState("Favoriting failed.") }
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
      $0.isFavorite = false
    }
  }

  @Test func dismissWithoutAnAlertChangesNothing() async {
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: true)) {
      Favoriting<Int>(favorite: { _, _ in throw SaveFailed() })
    }
    await store.send(.alert(.dismiss))
  }

  @Test func twoQuickTapsCancelTheFirstRequest() async {
    let clock = TestClock()
    let saved = LockIsolated<[Bool]>([])
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        saved.withValue { $0.append(isFavorite) }
        return isFavorite
      })
    }
    await store.send(.buttonTapped) {
      $0.isFavorite = true
      $0.isSaving = true
    }
    await store.send(.buttonTapped) { $0.isFavorite = false }
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.success) { $0.isSaving = false }
    #expect(saved.value == [false])
  }

  /// `save` saves the choice shown without changing it, cancelling a save in flight as a tap
  /// does: how a parent finishes what another button over the same choice could not.
  @Test func saveSavesTheChoiceShownAndReplacesASaveInFlight() async {
    let clock = TestClock()
    let saved = LockIsolated<[Bool]>([])
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: true)) {
      Favoriting<Int>(favorite: { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        saved.withValue { $0.append(isFavorite) }
        return isFavorite
      })
    }
    await store.send(.save) { $0.isSaving = true }
    await store.send(.save)
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.success, true) { $0.isSaving = false }
    #expect(saved.value == [true])
  }

  @Test func twoElementsDoNotCancelEachOther() async {
    let clock = TestClock()
    let store = TestStore(
      initialState: Rows.State(rows: [
        Row.State(favorite: FavoritingState(id: 1, isFavorite: false)),
        Row.State(favorite: FavoritingState(id: 2, isFavorite: false)),
      ])
    ) {
      Rows(save: { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        return isFavorite
      })
    }
    await store.send(\.rows[id: 1].favorite.buttonTapped) {
      $0.rows[id: 1]?.favorite.isFavorite = true
      $0.rows[id: 1]?.favorite.isSaving = true
    }
    await store.send(\.rows[id: 2].favorite.buttonTapped) {
      $0.rows[id: 2]?.favorite.isFavorite = true
      $0.rows[id: 2]?.favorite.isSaving = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.rows[id: 1].favorite.response.success) {
      $0.rows[id: 1]?.favorite.isSaving = false
    }
    await store.receive(\.rows[id: 2].favorite.response.success) {
      $0.rows[id: 2]?.favorite.isSaving = false
    }
  }
}
