import ComposableArchitecture
import EpisodesFeature
import Foundation
import WebFrontend

/// The episodes on the page: the list with its favorite buttons, and the stack of episode
/// screens.
public enum EpisodesPage: WebFeature {
  public typealias Root = Episodes

  /// Its section of the page (the list and the stack of episode screens, each with an address of its own (`/episodes/<id>…`)): `Public/episodes.html` and `Public/episodes.js`.
  public static let section: PageSection? = PageSection(
    id: "episodes", title: "Episodes", hasInnerAddresses: true, bundle: .module)

  static let episodeID = ["id": "an episode id, a UUID string"]

  public static let routes: [WebRoute<Episodes>] = [
    WebRoute("episode.favorite", episodeID, read: id) { id, state throws(ActionRefusal) in
      try requireEpisode(id, in: state)
      return .episodes(.element(id: id, action: .favorite(.buttonTapped)))
    },
    // The "Favorites only" switch above the list.
    WebRoute("episodes.favoritesOnly") { _ throws(ActionRefusal) in .favoritesOnlyToggled },
    // Pushes the episode's screen.
    WebRoute("episode.open", episodeID, read: id) { id, state throws(ActionRefusal) in
      try requireEpisode(id, in: state)
      return .episodeTapped(id)
    },
    // The favorite button of the episode screen on top.
    WebRoute("screen.favorite") { state throws(ActionRefusal) in
      try topScreen(.favorite(.buttonTapped), in: state)
    },
    // The OK button of the top screen's failure alert.
    WebRoute("screen.dismissAlert") { state throws(ActionRefusal) in
      guard state.path.last?.favoriting.alert != nil else {
        throw ActionRefusal.conflict("the episode screen has no alert to dismiss")
      }
      return try topScreen(.favorite(.alert(.dismiss)), in: state)
    },
    // The top screen closes itself (its ‹ button): `dismiss()`, an effect, pops it a moment
    // after the answer.
    WebRoute("screen.close") { state throws(ActionRefusal) in
      try topScreen(.closeButtonTapped, in: state)
    },
    // The browser's Back: the stack pops its top screen at once, as a navigation stack's own
    // back gesture does (`.path(.popFrom(id:))`), so the answer already shows the screen below.
    WebRoute("screen.pop") { state throws(ActionRefusal) in
      guard let id = state.path.ids.last else {
        throw ActionRefusal.conflict("no episode screen is open")
      }
      return .path(.popFrom(id: id))
    },
    // The OK button of a row's failure alert.
    WebRoute("episode.dismissAlert", episodeID, read: id) { id, state throws(ActionRefusal) in
      try requireEpisode(id, in: state)
      guard state.episodes[id: id]?.favoriting.alert != nil else {
        throw ActionRefusal.conflict("episode \(id.uuidString) has no alert to dismiss")
      }
      return .episodes(.element(id: id, action: .favorite(.alert(.dismiss))))
    },
  ]

  public struct View: Codable, Equatable, Sendable {
    /// The rows the list shows (every episode, or the favorites only).
    public var episodes: [EpisodeView]
    /// Whether the list shows the favorites only.
    public var favoritesOnly: Bool
    /// How many episodes there are, shown or not.
    public var episodeCount: Int
    /// Why the saved favorites could not be loaded.
    public var episodesError: String?
    /// The episode screens open on the navigation stack, the last one on top (the one shown).
    public var episodeScreens: [EpisodeView]
  }

  /// One episode row, or screen.
  public struct EpisodeView: Codable, Equatable, Sendable {
    public var id: UUID
    public var title: String
    public var isFavorite: Bool
    /// Whether a save of the favorite is in flight.
    public var isSaving: Bool
    /// The failure alert, while it is shown.
    public var alert: AlertView?
  }

  public static func view(of state: Episodes.State) -> View {
    View(
      episodes: state.shownEpisodes.map {
        EpisodeView(
          id: $0.id, title: $0.title, isFavorite: $0.favoriting.isFavorite,
          isSaving: $0.favoriting.isSaving,
          alert: AlertView($0.favoriting.alert))
      },
      favoritesOnly: state.showsFavoritesOnly,
      episodeCount: state.episodes.count,
      episodesError: state.loadError,
      episodeScreens: state.path.map {
        EpisodeView(
          id: $0.id, title: $0.title, isFavorite: $0.favoriting.isFavorite,
          isSaving: $0.favoriting.isSaving,
          alert: AlertView($0.favoriting.alert))
      })
  }

  private static func id(_ fields: ActionFields) throws(DecodingFailure) -> UUID {
    try fields.uuid("id")
  }

  /// `action` for the episode screen on top of the stack.
  private static func topScreen(
    _ action: EpisodeDetail.Action, in state: Episodes.State
  ) throws(ActionRefusal) -> Episodes.Action {
    guard let id = state.path.ids.last else {
      throw ActionRefusal.conflict("no episode screen is open")
    }
    return .path(.element(id: id, action: action))
  }

  private static func requireEpisode(_ id: UUID, in state: Episodes.State) throws(ActionRefusal) {
    guard state.episodes[id: id] != nil else {
      throw ActionRefusal.invalid("no episode with id \(id.uuidString)")
    }
  }
}

extension EpisodesPage {
  /// The section alone, on the feature's own reducer: what `preview-server` serves for it.
  public static var preview: WebPreview<Self> {
    alone(Episodes(), initialState: { Episodes.State() }, start: .task)
  }
}
