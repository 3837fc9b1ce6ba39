import ComposableArchitecture
import FavoriteClient
import FavoritingFeature
import Foundation

/// A list of episodes, each with its own favorite button, through `forEach`, and a navigation
/// stack of episode screens (``EpisodeDetail``) through `forEach` over a `StackState`.
///
/// ``Action/episodeTapped(_:)`` pushes the episode's screen, sharing the row's favorite button
/// state; a screen closes itself with `dismiss()`, or the front end pops it with
/// `.path(.popFrom(id:))`.
///
/// Each episode's choice has one owner: its row's ``Favoriting``. The screen's favorite actions
/// are answered here, by the row's reducer, so the saves of one episode are made one at a time
/// wherever the taps come from, and a screen that closes mid-save leaves the save running (its
/// failure alert then shows on the list). The list never shows a choice the service does not hold
/// once the saves have answered and their alerts are dismissed.
///
/// ``Action/task`` (sent once by the front end) loads the saved favorites with `FavoriteClient`
/// and marks the rows; a row whose choice was made while the load was under way keeps it (the
/// load may have read the service before that choice was saved). A `task` while a load is under
/// way starts no second one: that load answers. If loading fails,
/// ``State/loadError`` says so and the rows stay as they are.
@Reducer
public struct Episodes: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var episodes: IdentifiedArrayOf<Episode.State>
    /// Why the saved favorites could not be loaded.
    public var loadError: String?
    /// The episode screens on the navigation stack, the last one on top.
    public var path: StackState<EpisodeDetail.State>
    /// Whether the list shows only the favorites (see ``shownEpisodes``).
    public var showsFavoritesOnly: Bool
    /// While the saved favorites are being loaded: the episodes whose choice was made or being
    /// saved since the load began, which its answer leaves alone.
    public var chosenWhileLoading: Set<Episode.State.ID>?

    public init(
      episodes: IdentifiedArrayOf<Episode.State> = .mocks,
      loadError: String? = nil,
      path: StackState<EpisodeDetail.State> = StackState(),
      showsFavoritesOnly: Bool = false,
      chosenWhileLoading: Set<Episode.State.ID>? = nil
    ) {
      self.episodes = episodes
      self.loadError = loadError
      self.path = path
      self.showsFavoritesOnly = showsFavoritesOnly
      self.chosenWhileLoading = chosenWhileLoading
    }

    /// The rows the list shows: every episode, or with ``showsFavoritesOnly`` the favorites and
    /// the rows whose save is in flight or failed (so that its outcome shows where it was made).
    public var shownEpisodes: IdentifiedArrayOf<Episode.State> {
      guard showsFavoritesOnly else { return episodes }
      return episodes.filter {
        $0.favoriting.isFavorite || $0.favoriting.isSaving || $0.favoriting.alert != nil
      }
    }
  }

  public enum Action: Sendable {
    case episodeTapped(Episode.State.ID)
    case episodes(IdentifiedActionOf<Episode>)
    case favoritesResponse(Result<Set<Episode.State.ID>, any Error>)
    /// Shows only the favorites, or every episode again.
    case favoritesOnlyToggled
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

      case .favoritesOnlyToggled:
        state.showsFavoritesOnly.toggle()
        return .none

      case .episodes(.element(let id, .favorite)):
        state.chosenWhileLoading?.insert(id)
        return .none

      case .favoritesResponse(.success(let favorites)):
        state.loadError = nil
        let chosen = state.chosenWhileLoading ?? []
        state.chosenWhileLoading = nil
        for episode in state.episodes where !chosen.contains(episode.id) {
          var loaded = episode.favoriting
          loaded.isFavorite = favorites.contains(episode.id)
          loaded.saved = loaded.isFavorite
          episode.$favoriting.setIfChanged(loaded)
        }
        return .none

      case .favoritesResponse(.failure(let error)):
        state.chosenWhileLoading = nil
        state.loadError = "Favorites could not be loaded (\(error.localizedDescription))."
        return .none

      case .task:
        // A load under way answers for every row not chosen since it began. A second one begun
        // meanwhile would start that set again, so the first answer would overwrite rows chosen
        // in between with a read older than their saves; the load under way answers instead.
        guard state.chosenWhileLoading == nil else { return .none }
        state.chosenWhileLoading = Set(
          state.episodes.filter { $0.favoriting.isSaving || $0.favoriting.alert != nil }.map(\.id))
        return .run { send in
          await send(.favoritesResponse(Result { try await favoriteClient.favorites() }))
        }

      case .path(.element(let screenID, .favorite(let action))):
        // The screen's button is its row's: the row's reducer answers, and its effects are the
        // row's, so closing the screen does not cancel them.
        guard let id = state.path[id: screenID]?.id, state.episodes[id: id] != nil else {
          return .none
        }
        state.chosenWhileLoading?.insert(id)
        return Episode()
          .reduce(into: &state.episodes[id: id]!, action: .favorite(action))
          .map { .episodes(.element(id: id, action: $0)) }

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
