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
      $0.saving = true
    }
    await store.receive(\.response.success) {
      $0.saving = nil
      $0.saved = true
    }
  }

  @Test func theServicesAnswerIsShown() async {
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, _ in false })
    }
    await store.send(.buttonTapped) {
      $0.isFavorite = true
      $0.saving = true
    }
    await store.receive(\.response.success, false) {
      $0.saving = nil
      $0.isFavorite = false
    }
  }

  @Test func failureShowsAnAlertAndDismissingItRollsBack() async {
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, _ in throw SaveFailed() })
    }
    await store.send(.buttonTapped) {
      $0.isFavorite = true
      $0.saving = true
    }
    await store.receive(\.response.failure) {
      $0.saving = nil
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

  /// Two quick taps: the first save is not cancelled (whether a cancelled write was kept cannot
  /// be known); the second choice is saved after it, and the last answer is the service's value.
  @Test func twoQuickTapsAreSavedOneAfterTheOther() async {
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
      $0.saving = true
    }
    await store.send(.buttonTapped) { $0.isFavorite = false }
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.success, true) {
      $0.saved = true
      $0.saving = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.success, false) {
      $0.saved = false
      $0.saving = nil
    }
    #expect(saved.value == [true, false])
  }

  /// Three quick taps end on the first choice: nothing is left to save once the first answers.
  @Test func tapsThatEndOnTheChoiceBeingSavedMakeOneSave() async {
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
      $0.saving = true
    }
    await store.send(.buttonTapped) { $0.isFavorite = false }
    await store.send(.buttonTapped) { $0.isFavorite = true }
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.success, true) {
      $0.saved = true
      $0.saving = nil
    }
    #expect(saved.value == [true])
  }

  /// A failure after an earlier save succeeded rolls back to the saved value, not to the
  /// opposite of the failed choice.
  @Test func aFailureRollsBackToTheValueTheServiceHolds() async {
    let clock = TestClock()
    let attempts = LockIsolated(0)
    let store = TestStore(initialState: FavoritingState(id: 1, isFavorite: false)) {
      Favoriting<Int>(favorite: { _, isFavorite in
        try await clock.sleep(for: .seconds(1))
        // The first save is kept; the second fails.
        let attempt = attempts.withValue {
          $0 += 1
          return $0
        }
        guard attempt == 1 else { throw SaveFailed() }
        return isFavorite
      })
    }
    await store.send(.buttonTapped) {
      $0.isFavorite = true
      $0.saving = true
    }
    await store.send(.buttonTapped) { $0.isFavorite = false }
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.success, true) {
      $0.saved = true
      $0.saving = false
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.response.failure) {
      $0.saving = nil
      $0.alert = AlertState { TextState("Favoriting failed.") }
    }
    await store.send(.alert(.dismiss)) {
      $0.alert = nil
      $0.isFavorite = true
    }
  }

  @Test func twoElementsSaveIndependently() async {
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
      $0.rows[id: 1]?.favorite.saving = true
    }
    await store.send(\.rows[id: 2].favorite.buttonTapped) {
      $0.rows[id: 2]?.favorite.isFavorite = true
      $0.rows[id: 2]?.favorite.saving = true
    }
    await clock.advance(by: .seconds(1))
    await store.receive(\.rows[id: 1].favorite.response.success) {
      $0.rows[id: 1]?.favorite.saving = nil
      $0.rows[id: 1]?.favorite.saved = true
    }
    await store.receive(\.rows[id: 2].favorite.response.success) {
      $0.rows[id: 2]?.favorite.saving = nil
      $0.rows[id: 2]?.favorite.saved = true
    }
  }
}
