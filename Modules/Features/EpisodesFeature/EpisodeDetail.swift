import ComposableArchitecture
import FavoritingFeature
import Foundation

/// An episode's own screen, pushed on the episodes' navigation stack.
///
/// Its favorite button is a second ``Favoriting`` over the same `@Shared` favorite state as the
/// episode's row, so a choice made on either shows on both; a failure alert shows where the tap
/// was. ``Action/closeButtonTapped`` dismisses the screen (`@Dependency(\.dismiss)`), which pops
/// it off the stack and cancels its effects — a save in flight is then finished by the row
/// (``Episodes``).
@Reducer
public struct EpisodeDetail: Sendable {
  @ObservableState
  @RecordDecodable
  public struct State: Equatable, Sendable {
    public var alert: AlertState<FavoritingAction.Alert>?
    public let id: UUID
    @Shared public var isFavorite: Bool
    /// Whether this screen's favorite button is saving the choice.
    public var isSaving: Bool
    public let title: String

    /// The detail of `episode`, sharing its favorite state.
    public init(episode: Episode.State) {
      self.init(id: episode.id, isFavorite: episode.$isFavorite, title: episode.title)
    }

    public init(
      alert: AlertState<FavoritingAction.Alert>? = nil, id: UUID, isFavorite: Shared<Bool>,
      isSaving: Bool = false, title: String
    ) {
      self.alert = alert
      self.id = id
      self._isFavorite = isFavorite
      self.isSaving = isSaving
      self.title = title
    }

    /// The favorite button's view of this screen.
    public var favorite: FavoritingState<UUID> {
      get { FavoritingState(alert: alert, id: id, isFavorite: isFavorite, isSaving: isSaving) }
      set {
        alert = newValue.alert
        isSaving = newValue.isSaving
        $isFavorite.setIfChanged(newValue.isFavorite)
      }
    }
  }

  @RecordDecodable
  public enum Action: Sendable {
    case closeButtonTapped
    case favorite(FavoritingAction)
  }

  @Dependency(\.dismiss) var dismiss
  @Dependency(\.favoriteClient) var favoriteClient

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.favorite, action: \.favorite) {
      Favoriting(favorite: favoriteClient.favorite)
    }
    Reduce { _, action in
      switch action {
      case .closeButtonTapped:
        return .run { _ in await dismiss() }
      case .favorite:
        return .none
      }
    }
  }
}

extension Shared where Value: Equatable {
  /// Writes `value` unless it is already the value, so that reading a state back does not count
  /// as a change of the shared value.
  func setIfChanged(_ value: Value) {
    if wrappedValue != value { withLock { $0 = value } }
  }
}
