import ComposableArchitecture
import EpisodesFeature
import EpisodesWeb
import FavoriteClient
import Foundation
import Testing
import WebAdapterTesting
import WebFrontend

/// The episodes section alone, served over HTTP in process: its routes and view on `Episodes`.
struct EpisodesWebTests {
  static let dependencies: @Sendable (inout DependencyValues) -> Void = {
    $0.favoriteClient = .inMemory()
  }

  @Test func itKeepsEveryPromiseOfAWebAdapter() async throws {
    let problems = try await AdapterContract.problems(
      of: EpisodesPage.preview, dependencies: Self.dependencies)
    #expect(problems.isEmpty, "\(problems)")
  }

  @Test func anEpisodeIsFavoritedAndOpenedAndAnUnknownOneIs422() async throws {
    try await AdapterServer.test(EpisodesPage.preview, dependencies: Self.dependencies) { client in
      let start = try await client.start()
      guard case .array(let episodes) = start.state?["episodes"],
        let id = episodes.first?["id"]?.string
      else {
        Issue.record("no episodes: \(start)")
        return
      }
      #expect(try await client.send("episode.favorite", [("id", .string(id))]).status == 200)
      let favorited = try await client.state {
        if case .array(let shown) = $0["episodes"] {
          shown.first?["isFavorite"] == .bool(true)
        } else {
          false
        }
      }
      guard case .array(let shown) = favorited?["episodes"] else { return }
      #expect(shown.first?["isFavorite"] == .bool(true))
      #expect(try await client.send("episode.open", [("id", .string(id))]).status == 200)
      guard case .array(let screens) = try await client.state().state?["episodeScreens"] else {
        Issue.record("no screens")
        return
      }
      #expect(screens.count == 1)
      let unknown = try await client.send("episode.open", [("id", .string(UUID().uuidString))])
      #expect(unknown.status == 422, "\(unknown)")
    }
  }
}
