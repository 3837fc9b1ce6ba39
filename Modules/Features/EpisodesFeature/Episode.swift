import ComposableArchitecture
import FavoritingFeature
import Foundation

/// One episode row with a favorite button, embedding ``Favoriting`` through `Scope`.
@Reducer
public struct Episode: Sendable {
  @ObservableState
  public struct State: Equatable, Identifiable, Sendable {
    public var alert: AlertState<FavoritingAction.Alert>?
    public let id: UUID
    public var isFavorite: Bool
    public let title: String

    public init(
      alert: AlertState<FavoritingAction.Alert>? = nil,
      id: UUID,
      isFavorite: Bool = false,
      title: String
    ) {
      self.alert = alert
      self.id = id
      self.isFavorite = isFavorite
      self.title = title
    }

    /// The favorite button's view of this row.
    public var favorite: FavoritingState<UUID> {
      get { FavoritingState(alert: alert, id: id, isFavorite: isFavorite) }
      set { (alert, isFavorite) = (newValue.alert, newValue.isFavorite) }
    }
  }

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
