import ComposableArchitecture
import FavoriteClient
import FavoritingFeature
import Foundation

/// One episode row with a favorite button, embedding ``Favoriting`` through `Scope`.
@Reducer
public struct Episode: Sendable {
  @ObservableState
  @RecordDecodable
  public struct State: Equatable, Identifiable, Sendable {
    public var alert: AlertState<FavoritingAction.Alert>?
    public let id: UUID
    /// Whether the episode is a favorite, shared with its detail screen while one is open.
    @Shared public var isFavorite: Bool
    /// Whether this row's favorite button is saving the choice.
    public var isSaving: Bool
    public let title: String

    public init(
      alert: AlertState<FavoritingAction.Alert>? = nil,
      id: UUID,
      isFavorite: Bool = false,
      isSaving: Bool = false,
      title: String
    ) {
      self.init(
        alert: alert, id: id, isFavorite: Shared(value: isFavorite), isSaving: isSaving,
        title: title)
    }

    /// A row whose favorite state is `isFavorite`'s reference.
    public init(
      alert: AlertState<FavoritingAction.Alert>? = nil,
      id: UUID,
      isFavorite: Shared<Bool>,
      isSaving: Bool = false,
      title: String
    ) {
      self.alert = alert
      self.id = id
      self._isFavorite = isFavorite
      self.isSaving = isSaving
      self.title = title
    }

    /// The favorite button's view of this row.
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
    case favorite(FavoritingAction)
  }

  @Dependency(\.favoriteClient) var favoriteClient

  public init() {}

  public var body: some ReducerOf<Self> {
    Scope(state: \.favorite, action: \.favorite) {
      Favoriting(favorite: favoriteClient.favorite)
    }
  }
}
