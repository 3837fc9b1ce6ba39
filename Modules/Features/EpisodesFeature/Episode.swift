import ComposableArchitecture
import FavoriteClient
import FavoritingFeature
import Foundation

/// One episode row with a favorite button, embedding ``Favoriting`` through `Scope`.
@Reducer
public struct Episode: Sendable {
  @ObservableState
  public struct State: Equatable, Identifiable, Sendable {
    public let id: UUID
    /// The favorite button's state, shared with the episode's screen while one is open: the
    /// screen shows the row's choice, save and alert.
    @Shared public var favoriting: FavoritingState<UUID>
    public let title: String

    public init(id: UUID, isFavorite: Bool = false, title: String) {
      self.init(
        id: id, favoriting: Shared(value: FavoritingState(id: id, isFavorite: isFavorite)),
        title: title)
    }

    /// A row whose favorite button's state is `favoriting`'s reference.
    public init(id: UUID, favoriting: Shared<FavoritingState<UUID>>, title: String) {
      self.id = id
      self._favoriting = favoriting
      self.title = title
    }

    /// The favorite button's state, written through the shared reference.
    public var favorite: FavoritingState<UUID> {
      get { favoriting }
      set { $favoriting.setIfChanged(newValue) }
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

extension Shared where Value: Equatable {
  /// Writes `value` unless it is already the value, so that reading a state back does not count
  /// as a change of the shared value.
  func setIfChanged(_ value: Value) {
    if wrappedValue != value { withLock { $0 = value } }
  }
}
