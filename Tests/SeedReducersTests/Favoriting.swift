// swift-format-ignore-file
// (The seed's code, kept as the seed wrote it; see the header below.)
// Seed: the post "favoriting-episodes" — TCA's "ReusableFavoriting" case study as the
// post quotes it: the reusable component (lines 410-462), the `Episode` feature (lines 481-508),
// `Episodes` (lines 535-553), and the error, live `favorite` function and mocks (lines 595-619).
//
// Edits relative to the seed:
// - SwiftUI removed: `FavoriteButton` (lines 464-479), `EpisodeView` (lines 510-533),
//   `EpisodesView` (lines 555-575), `EpisodesView_Previews` (lines 577-593).
// - `case response(TaskResult<Bool>)` → `case response(Result<Bool, any Error>)` and
//   `TaskResult { try await favorite(id, isFavorite) }` →
//   `Result { try await favorite(id, isFavorite) }` (TCA 1.x deprecates `TaskResult` for `Result`).
// - `Equatable` dropped from `FavoritingAction`, `Episode.Action` and `Episodes.Action`: they now
//   carry `any Error`, which is not `Equatable`.
// - `@CasePathable` added to `FavoritingAction` (the tests' `receive(\.….response.success)` needs
//   its case key paths; TCA's own 1.x version of this case study has it too).
// - `@Reducer` added to `Episode` and `Episodes`, so that their `Action`s are `@CasePathable`
//   (needed by `\.favorite` and `\.episode`). Their `: Reducer` conformances are kept.
// - `Scope(state: \.favorite, action: /Action.favorite)` → `action: \.favorite` (TCA 1.x case key
//   paths replace `/Action.case`).
// - `case episode(id: Episode.State.ID, action: Episode.Action)` →
//   `case episode(IdentifiedActionOf<Episode>)` and `.forEach(\.episodes, action: /Action.episode)`
//   → `action: \.episode`: TCA 1.x's `forEach` takes an `IdentifiedAction` case key path. (The
//   case keeps the seed's name `episode`.)
// - Indentation normalized from four to two spaces.
// - `private struct CancelID: Hashable { let id: AnyHashable }` →
//   `private struct CancelID: Hashable, Sendable { let id: AnyHashableSendable }`, and
//   `CancelID(id: state.id)` → `CancelID(id: AnyHashableSendable(state.id))`: TCA 1.x's
//   `cancellable(id:)` takes `some Hashable & Sendable`, and `AnyHashable` is not `Sendable`
//   (compiler: "type 'Favoriting<ID>.CancelID' does not conform to the 'Sendable' protocol").
//   TCA's own 1.x version of this case study makes the same change; not a runtime gap.
// - ADDED for Linux: `private let NSEC_PER_SEC: UInt64 = 1_000_000_000` under
//   `#if !canImport(Darwin)` — the seed's live `favorite` uses the Darwin-only constant
//   (compiler: "cannot find 'NSEC_PER_SEC' in scope").
// - `import Foundation` added (`UUID`, `LocalizedError`; the seed does not show its imports).

import ComposableArchitecture
import Foundation

// MARK: - Reusable favorite component

// 🟠 1. 재사용 가능한 FavoriteState를 선언
struct FavoritingState<ID: Hashable & Sendable>: Equatable {
  @PresentationState var alert: AlertState<FavoritingAction.Alert>?
  let id: ID  // 🟠 2. 아이디 값을 가지고 처리할 것이므로 선언
  var isFavorite: Bool
}

// 🟠 3. 재사용 가능한 FavoritingAction을 선언
@CasePathable
enum FavoritingAction {
  case alert(PresentationAction<Alert>)
  case buttonTapped
  case response(Result<Bool, any Error>)

  enum Alert: Equatable {}
}

// 🟠 4. 재사용 가능한 Reducer선언
struct Favoriting<ID: Hashable & Sendable>: Reducer {
  let favorite: @Sendable (ID, Bool) async throws -> Bool

  private struct CancelID: Hashable, Sendable {
    let id: AnyHashableSendable
  }

  func reduce(
    into state: inout FavoritingState<ID>, action: FavoritingAction
  ) -> Effect<FavoritingAction> {
    switch action {
    case .alert(.dismiss):
      state.alert = nil
      state.isFavorite.toggle()
      return .none

    case .buttonTapped:
      state.isFavorite.toggle()

      return .run { [id = state.id, isFavorite = state.isFavorite, favorite] send in
        await send(.response(Result { try await favorite(id, isFavorite) }))
      }
      .cancellable(id: CancelID(id: AnyHashableSendable(state.id)), cancelInFlight: true)  // 🟠 5. cancelInFlight는 새로운 거 시작하기 전에 해당 ID를 취소할지 말지를 결정

    case .response(.failure(let error)):
      state.alert = AlertState { TextState(error.localizedDescription) }
      return .none

    case .response(.success(let isFavorite)):
      state.isFavorite = isFavorite
      return .none
    }
  }
}

// MARK: - Feature domain

// 🟠 8. 메인 도메인 피쳐의 리듀서 연결
@Reducer
struct Episode: Reducer {
  struct State: Equatable, Identifiable {
    var alert: AlertState<FavoritingAction.Alert>?
    let id: UUID
    var isFavorite: Bool
    let title: String

    // 🟠 9. 요 부분 주목!! 액션과 스테이트를 이렇게 연결
    var favorite: FavoritingState<ID> {
      get { .init(alert: self.alert, id: self.id, isFavorite: self.isFavorite) }
      set { (self.alert, self.isFavorite) = (newValue.alert, newValue.isFavorite) }
    }
  }
  enum Action {
    case favorite(FavoritingAction)
  }
  let favorite: @Sendable (UUID, Bool) async throws -> Bool

  var body: some Reducer<State, Action> {
    // 🟠 10. 단일 부분을 이렇게 연결
    Scope(state: \.favorite, action: \.favorite) {
      Favoriting(favorite: self.favorite)
    }
  }
}

@Reducer
struct Episodes: Reducer {
  struct State: Equatable {
    var episodes: IdentifiedArrayOf<Episode.State> = []  // ✅ 1. 에피소드의 State를 넣어준다.
  }
  enum Action {
    case episode(IdentifiedActionOf<Episode>)  // ✅ 2. 액션과 id를 넣어준다.
  }

  let favorite: @Sendable (UUID, Bool) async throws -> Bool  // ✅ 3. Denpendency 형태로 값을 클로저로 받는 형태

  var body: some Reducer<State, Action> {
    Reduce { state, action in
      .none  // ✅ 4. 따로 할건 없으므로 none
    }
    .forEach(\.episodes, action: \.episode) {
      Episode(favorite: self.favorite)  // ✅ 5. 배열을 forEach를 통해 각각 결합. -> 외부 디펜던시 받아서 처리. 클로저 형태.
    }
  }
}

struct FavoriteError: LocalizedError, Equatable {
  var errorDescription: String? {
    "Favoriting failed."
  }
}

#if !canImport(Darwin)
  /// ADDED: `NSEC_PER_SEC` is a Darwin constant; Linux's Foundation and Dispatch do not have it.
  private let NSEC_PER_SEC: UInt64 = 1_000_000_000
#endif

@Sendable func favorite<ID>(id: ID, isFavorite: Bool) async throws -> Bool {
  try await Task.sleep(nanoseconds: NSEC_PER_SEC)
  if .random(in: 0...1) > 0.25 {
    return isFavorite
  } else {
    throw FavoriteError()
  }
}

extension IdentifiedArray where ID == Episode.State.ID, Element == Episode.State {
  static let mocks: Self = [
    Episode.State(id: UUID(), isFavorite: false, title: "Functions"),
    Episode.State(id: UUID(), isFavorite: false, title: "Side Effects"),
    Episode.State(id: UUID(), isFavorite: false, title: "Algebraic Data Types"),
    Episode.State(id: UUID(), isFavorite: false, title: "DSLs"),
    Episode.State(id: UUID(), isFavorite: false, title: "Parsers"),
    Episode.State(id: UUID(), isFavorite: false, title: "Composable Architecture"),
  ]
}
