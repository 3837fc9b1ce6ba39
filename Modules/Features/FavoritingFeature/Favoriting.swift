import ComposableArchitecture
import Foundation

/// The state of a reusable favorite button: which element, the choice shown, the choice the
/// service is known to hold, the save in flight, and the alert shown when saving failed.
@ObservableState
public struct FavoritingState<ID: Hashable & Sendable>: Equatable, Sendable {
  @Presents public var alert: AlertState<FavoritingAction.Alert>?
  public let id: ID
  /// The choice shown: a tap changes it at once.
  public var isFavorite: Bool
  /// The choice the service last confirmed (or the one the state was made with): what a failed
  /// save rolls back to.
  public var saved: Bool
  /// The choice being saved, while a save is in flight.
  public var saving: Bool?

  /// Whether a save of the choice is in flight.
  public var isSaving: Bool { saving != nil }

  /// A button showing `isFavorite`, which the service holds unless `saved` says otherwise.
  public init(
    alert: AlertState<FavoritingAction.Alert>? = nil, id: ID, isFavorite: Bool,
    saved: Bool? = nil, saving: Bool? = nil
  ) {
    self.alert = alert
    self.id = id
    self.isFavorite = isFavorite
    self.saved = saved ?? isFavorite
    self.saving = saving
  }
}

/// What can happen to a favorite button.
@CasePathable
public enum FavoritingAction: Sendable {
  case alert(PresentationAction<Alert>)
  case buttonTapped
  case response(Result<Bool, any Error>)

  /// The failure alert has only its dismiss button.
  public enum Alert: Equatable, Sendable {}
}

/// A favorite button for any element, from the seed "favoriting-episodes".
///
/// A tap toggles the choice shown at once (optimistically) and saves it with `favorite`. The
/// saves of one element are made one at a time, so the last answer is always the service's
/// latest value: a tap while a save is in flight only changes the choice shown, and when that
/// save answers, the newest choice is saved if it differs (the seed cancelled the save in flight
/// instead, which leaves unknown whether the cancelled write was kept). The saves of two
/// elements are independent.
///
/// ``FavoritingState/saved`` is the value the service last confirmed: a successful answer sets
/// it (and the choice shown, unless the choice changed meanwhile). When saving fails, an alert
/// shows the error's message; dismissing it puts the choice shown back to the saved one.
///
/// ```swift
/// Scope(state: \.favorite, action: \.favorite) {
///   Favoriting(favorite: favoriteClient.favorite)
/// }
/// ```
public struct Favoriting<ID: Hashable & Sendable>: Reducer {
  /// Saves the choice; returns the saved value. A thrown error means nothing was saved.
  let favorite: @Sendable (ID, Bool) async throws -> Bool

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
      state.isFavorite = state.saved
      return .none

    case .alert:
      return .none

    case .buttonTapped:
      state.isFavorite.toggle()
      // A save in flight is followed by one of the newest choice when it answers.
      return state.isSaving ? .none : save(&state)

    case .response(.failure(let error)):
      state.saving = nil
      state.alert = AlertState { TextState(error.localizedDescription) }
      return .none

    case .response(.success(let saved)):
      let requested = state.saving
      state.saving = nil
      state.saved = saved
      if state.isFavorite != requested, state.isFavorite != saved {
        // Tapped while saving: the newest choice is saved next.
        return save(&state)
      }
      state.isFavorite = saved
      return .none
    }
  }

  private func save(_ state: inout FavoritingState<ID>) -> Effect<FavoritingAction> {
    state.saving = state.isFavorite
    return .run { [id = state.id, isFavorite = state.isFavorite, favorite] send in
      await send(.response(Result { try await favorite(id, isFavorite) }))
    }
  }
}
