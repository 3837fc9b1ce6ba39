import ComposableArchitecture
import FavoritingFeature
import Foundation

/// A list of episodes, each with its own favorite button, through `forEach`.
@Reducer
public struct Episodes: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var episodes: IdentifiedArrayOf<Episode.State>

    public init(episodes: IdentifiedArrayOf<Episode.State> = .mocks) {
      self.episodes = episodes
    }
  }

  public enum Action: Sendable {
    case episodes(IdentifiedActionOf<Episode>)
  }

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { _, _ in .none }
      .forEach(\.episodes, action: \.episodes) {
        Episode()
      }
  }
}

extension IdentifiedArray where ID == UUID, Element == Episode.State {
  /// The seed's episodes, with fixed ids so that front ends and tests can name them.
  public static let mocks: Self = [
    Episode.State(id: UUID(0), title: "Functions"),
    Episode.State(id: UUID(1), title: "Side Effects"),
    Episode.State(id: UUID(2), title: "Algebraic Data Types"),
    Episode.State(id: UUID(3), title: "DSLs"),
    Episode.State(id: UUID(4), title: "Parsers"),
    Episode.State(id: UUID(5), title: "Composable Architecture"),
  ]
}
