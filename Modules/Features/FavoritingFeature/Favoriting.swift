import ComposableArchitecture
import Foundation

/// The state of a reusable favorite button: which element, whether it is a favorite, and the alert
/// shown when saving the choice failed.
public struct FavoritingState<ID: Hashable & Sendable>: Equatable, Sendable {
  @PresentationState public var alert: AlertState<FavoritingAction.Alert>?
  public let id: ID
  public var isFavorite: Bool

  public init(alert: AlertState<FavoritingAction.Alert>? = nil, id: ID, isFavorite: Bool) {
    self.alert = alert
    self.id = id
    self.isFavorite = isFavorite
  }
}

/// What can happen to a favorite button.
@CasePathable
@RecordDecodable
public enum FavoritingAction: Sendable {
  case alert(PresentationAction<Alert>)
  case buttonTapped
  case response(Result<Bool, any Error>)

  /// The failure alert has only its dismiss button.
  public enum Alert: Equatable, Sendable {}
}

/// A favorite button for any element, from the seed "favoriting-episodes".
///
/// A tap toggles the state at once (optimistically) and saves the choice with `favorite`; a tap
/// while a save is in flight cancels that save. The saves of two elements never cancel each other:
/// they are identified by the element's id. When saving fails, an alert shows the error's message;
/// dismissing it rolls the toggle back.
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
      return .run { [id = state.id, isFavorite = state.isFavorite, favorite] send in
        await send(.response(Result { try await favorite(id, isFavorite) }))
      }
      .cancellable(id: CancelID(id: state.id), cancelInFlight: true)

    case .response(.failure(let error)):
      state.alert = AlertState { TextState(error.localizedDescription) }
      return .none

    case .response(.success(let isFavorite)):
      state.isFavorite = isFavorite
      return .none
    }
  }
}
