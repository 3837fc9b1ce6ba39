import ComposableArchitecture
import FavoritingFeature
import Foundation

/// An episode's own screen, pushed on the episodes' navigation stack.
///
/// Its favorite button is the row's: the screen shares the row's ``FavoritingState`` (choice,
/// save in flight, failure alert), and ``Episodes`` answers the screen's ``Action/favorite(_:)``
/// actions with the row's ``Favoriting``. So one reducer saves each episode's choice, one save at
/// a time, and closing the screen — which cancels the screen's effects — leaves the row's save
/// running. ``Action/closeButtonTapped`` dismisses the screen (`@Dependency(\.dismiss)`).
@Reducer
public struct EpisodeDetail: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public let id: UUID
    /// The favorite button's state, shared with the episode's row.
    @Shared public var favoriting: FavoritingState<UUID>
    public let title: String

    /// The screen of `episode`, sharing its favorite button's state.
    public init(episode: Episode.State) {
      self.init(id: episode.id, favoriting: episode.$favoriting, title: episode.title)
    }

    public init(id: UUID, favoriting: Shared<FavoritingState<UUID>>, title: String) {
      self.id = id
      self._favoriting = favoriting
      self.title = title
    }
  }

  public enum Action: Sendable {
    case closeButtonTapped
    /// The favorite button's actions, which ``Episodes`` handles with the row's ``Favoriting``.
    case favorite(FavoritingAction)
  }

  @Dependency(\.dismiss) var dismiss

  public init() {}

  public var body: some ReducerOf<Self> {
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
