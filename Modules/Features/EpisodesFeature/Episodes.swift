import ComposableArchitecture
import FavoriteClient
import FavoritingFeature
import Foundation

/// A list of episodes, each with its own favorite button, through `forEach`, and a navigation
/// stack of episode screens (``EpisodeDetail``) through `forEach` over a `StackState`.
///
/// ``Action/episodeTapped(_:)`` pushes the episode's screen, sharing the row's favorite state; a
/// screen closes itself with `dismiss()`, or the front end pops it with `.path(.popFrom(id:))`.
///
/// A screen that closes takes its effects with it, a favorite's save among them, while the
/// choice it showed stays on the row it shares. So what a closing screen's favorite button left
/// unfinished is finished on the row, and the list never shows a choice the service does not
/// hold: a save in flight is made again by the row (whose alert shows if it fails), and a failed
/// save whose alert is still up is rolled back, as dismissing the alert would.
///
/// ``Action/task`` (sent once by the front end) loads the saved favorites with `FavoriteClient`
/// and marks the rows; if that fails, ``State/loadError`` says so and the rows stay as they are.
@Reducer
public struct Episodes: Sendable {
  @ObservableState
  @RecordDecodable
  public struct State: Equatable, Sendable {
    public var episodes: IdentifiedArrayOf<Episode.State>
    /// Why the saved favorites could not be loaded.
    public var loadError: String?
    /// The episode screens on the navigation stack, the last one on top.
    public var path: StackState<EpisodeDetail.State>

    public init(
      episodes: IdentifiedArrayOf<Episode.State> = .mocks,
      loadError: String? = nil,
      path: StackState<EpisodeDetail.State> = StackState()
    ) {
      self.episodes = episodes
      self.loadError = loadError
      self.path = path
    }
  }

  @RecordDecodable
  public enum Action: Sendable {
    case episodeTapped(Episode.State.ID)
    case episodes(IdentifiedActionOf<Episode>)
    case favoritesResponse(Result<Set<Episode.State.ID>, any Error>)
    case path(StackActionOf<EpisodeDetail>)
    /// Loads the saved favorites; sent once by the front end.
    case task
  }

  @Dependency(\.favoriteClient) var favoriteClient

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .episodeTapped(let id):
        guard let episode = state.episodes[id: id] else { return .none }
        state.path.append(EpisodeDetail.State(episode: episode))
        return .none

      case .favoritesResponse(.success(let favorites)):
        state.loadError = nil
        for episode in state.episodes {
          episode.$isFavorite.setIfChanged(favorites.contains(episode.id))
        }
        return .none

      case .favoritesResponse(.failure(let error)):
        state.loadError = "Favorites could not be loaded (\(error.localizedDescription))."
        return .none

      case .task:
        return .run { send in
          await send(.favoritesResponse(Result { try await favoriteClient.favorites() }))
        }

      case .path(.popFrom(let id)):
        // The screens closing: this one and those above it, seen one last time.
        guard let first = state.path.ids.firstIndex(of: id) else { return .none }
        var saves: [Effect<Action>] = []
        for screenID in state.path.ids[first...] {
          guard let screen = state.path[id: screenID] else { continue }
          if screen.alert != nil {
            screen.$isFavorite.withLock { $0.toggle() }
          } else if screen.isSaving, state.episodes[id: screen.id] != nil {
            saves.append(.send(.episodes(.element(id: screen.id, action: .favorite(.save)))))
          }
        }
        return .merge(saves)

      case .episodes, .path:
        return .none
      }
    }
    .forEach(\.episodes, action: \.episodes) {
      Episode()
    }
    .forEach(\.path, action: \.path) {
      EpisodeDetail()
    }
  }
}

extension IdentifiedArray where ID == UUID, Element == Episode.State {
  /// The seed's episodes, with fixed ids so that front ends and tests can name them. Each access
  /// makes new rows: their favorite states are references, and no two sessions may share them.
  public static var mocks: Self {
    [
      Episode.State(id: UUID(0), title: "Functions"),
      Episode.State(id: UUID(1), title: "Side Effects"),
      Episode.State(id: UUID(2), title: "Algebraic Data Types"),
      Episode.State(id: UUID(3), title: "DSLs"),
      Episode.State(id: UUID(4), title: "Parsers"),
      Episode.State(id: UUID(5), title: "Composable Architecture"),
    ]
  }
}
