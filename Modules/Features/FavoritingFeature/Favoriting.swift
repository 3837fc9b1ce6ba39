import ComposableArchitecture
import Foundation

/// The state of a reusable favorite button: which element, whether it is a favorite, whether the
/// choice is being saved, and the alert shown when saving it failed.
public struct FavoritingState<ID: Hashable & Sendable>: Equatable, Sendable {
  @PresentationState public var alert: AlertState<FavoritingAction.Alert>?
  public let id: ID
  public var isFavorite: Bool
  /// Whether a save of the choice is in flight.
  public var isSaving: Bool

  public init(
    alert: AlertState<FavoritingAction.Alert>? = nil, id: ID, isFavorite: Bool,
    isSaving: Bool = false
  ) {
    self.alert = alert
    self.id = id
    self.isFavorite = isFavorite
    self.isSaving = isSaving
  }
}

/// What can happen to a favorite button.
@CasePathable
@RecordDecodable
public enum FavoritingAction: Sendable {
  case alert(PresentationAction<Alert>)
  case buttonTapped
  case response(Result<Bool, any Error>)
  /// Saves the choice shown, as a tap does but without changing it: how a parent finishes a
  /// save that another button over the same choice started and could not finish (its screen
  /// closed while the save was in flight).
  case save

  /// The failure alert has only its dismiss button.
  public enum Alert: Equatable, Sendable {}
}

/// A favorite button for any element, from the seed "favoriting-episodes".
///
/// A tap toggles the state at once (optimistically) and saves the choice with `favorite`; a tap
/// while a save is in flight cancels that save. The saves of two elements never cancel each other:
/// they are identified by the element's id. ``FavoritingState/isSaving`` is set while a save is
/// in flight. When saving fails, an alert shows the error's message; dismissing it rolls the
/// toggle back. ``FavoritingAction/save`` saves the choice shown again.
///
/// ```swift
/// Scope(state: \.favorite, action: \.favorite) {
///   Favoriting(favorite: favoriteClient.favorite)
/// }
/// ```
public struct Favoriting<ID: Hashable & Sendable>: Reducer {
  /// Saves the choice; returns the saved value.
  let favorite: @Sendable (ID, Bool) async throws -> Bool

  private struct CancelID: Hashable, Sendable {
    let id: ID
  }

  public init(favorite: @escaping @Sendable (ID, Bool) async throws -> Bool) {
    self.favorite = favorite
  }

  public func reduce(
    into state: inout FavoritingState<ID>, action: FavoritingAction
  ) -> Effect<FavoritingAction> {
    switch action {
    case .alert(.dismiss):
      // Only a failure presents the alert; without one there is nothing to roll back.
      guard state.alert != nil else { return .none }
      state.alert = nil
      state.isFavorite.toggle()
      return .none

    case .alert:
      return .none

    case .buttonTapped:
      state.isFavorite.toggle()
      return save(&state)

    case .save:
      return save(&state)

    case .response(.failure(let error)):
      state.isSaving = false
      state.alert = AlertState { TextState(error.localizedDescription) }
      return .none

    case .response(.success(let isFavorite)):
      state.isSaving = false
      state.isFavorite = isFavorite
      return .none
    }
  }

  private func save(_ state: inout FavoritingState<ID>) -> Effect<FavoritingAction> {
    state.isSaving = true
    return .run { [id = state.id, isFavorite = state.isFavorite, favorite] send in
      await send(.response(Result { try await favorite(id, isFavorite) }))
    }
    .cancellable(id: CancelID(id: state.id), cancelInFlight: true)
  }
}
