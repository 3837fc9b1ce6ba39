import AppWeb
import ComposableArchitecture
import FavoriteClient
import Foundation
import Hummingbird
import HummingbirdTesting
import SettingsClient
import Testing
import WebFrontend
import WebRoutes
import WebSessions

/// Each visitor's favorites and settings: kept by `visitorData` under the id of a long-lived
/// cookie, loaded into every new session of that visitor.
@MainActor
struct VisitorTests {
  /// What each visitor kept, by visitor id: the data a storage would hold.
  final class Kept: Sendable {
    let clients = LockIsolated<[String: (FavoriteClient, SettingsClient)]>([:])

    func clients(of visitor: VisitorID) -> (FavoriteClient, SettingsClient) {
      clients.withValue { clients in
        if let kept = clients[visitor.rawValue] { return kept }
        let made = (FavoriteClient.inMemory(), SettingsClient.inMemory())
        clients[visitor.rawValue] = made
        return made
      }
    }
  }

  func makeKeepingRegistry(_ kept: Kept) -> SessionRegistry {
    SessionRegistry(
      app: .app, logger: quietLogger,
      visitorData: { visitor in
        let (favorites, settings) = kept.clients(of: visitor)
        return { values in
          values.favoriteClient = favorites
          values.settingsClient = settings
        }
      },
      dependencies: {
        $0.uuid = .incrementing
        $0.favoriteClient = .inMemory()
        $0.settingsClient = .inMemory()
      })
  }

  /// `POST /api/session` with the given visitor cookie; the response's visitor cookie.
  nonisolated func createSession(
    _ client: some TestClientProtocol, visitor: String? = nil
  ) async throws -> (session: CreatedSession, visitorCookie: String) {
    var headers: HTTPFields = [:]
    if let visitor { headers[.cookie] = "\(WebRouter.visitorCookieName)=\(visitor)" }
    let response = try await client.call(.post, "/api/session", headers: headers)
    #expect(response.status == .created)
    let snapshot: SessionResponse = try decodeBody(response)
    let cookies = response.headers[values: .setCookie]
    let session = try #require(cookies.first { $0.hasPrefix("session=") })
    let visitorCookie = try #require(cookies.first { $0.hasPrefix("visitor=") })
    let id = String(session.dropFirst("session=".count).prefix { $0 != ";" })
    return (
      CreatedSession(id: id, revision: snapshot.revision, state: snapshot.state), visitorCookie
    )
  }

  nonisolated static func value(of cookie: String) -> String {
    String(cookie.dropFirst("visitor=".count).prefix { $0 != ";" })
  }

  @Test func aNewVisitorGetsALongLivedHttpOnlyCookie() async throws {
    try await makeApplication(makeKeepingRegistry(Kept())).test(.router) { client in
      let (_, cookie) = try await createSession(client)
      let visitor = Self.value(of: cookie)
      #expect(VisitorID(visitor) != nil, "32 lowercase hexadecimal digits")
      let attributes = Set(
        cookie.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() })
      #expect(attributes.contains("httponly"))
      #expect(attributes.contains("samesite=strict"))
      #expect(attributes.contains("path=/api/session"))
      #expect(attributes.contains("max-age=34560000"))
      let (_, other) = try await createSession(client)
      #expect(Self.value(of: other) != visitor, "each new visitor gets a new id")
    }
  }

  @Test func aReturningVisitorSeesWhatItKeptAndOthersDoNot() async throws {
    let kept = Kept()
    try await makeApplication(makeKeepingRegistry(kept)).test(.router) { client in
      let (first, cookie) = try await createSession(client)
      let visitor = Self.value(of: cookie)
      try await client.send(.changeSetting(.displayName("Grace")), to: first.id)
      try await client.send(.toggleFavorite(episodeID: UUID(3)), to: first.id)
      #expect(
        try await client.call(.delete, "/api/session", session: first.id).status == .noContent)

      let (again, renewed) = try await createSession(client, visitor: visitor)
      #expect(Self.value(of: renewed) == visitor, "the visitor keeps its id")
      #expect(again.revision == 1, "loaded before the first snapshot")
      #expect(again.state.header == "Hello, Grace!")
      #expect(again.state.settings.displayName == "Grace")
      #expect(again.state.episodes.map(\.isFavorite) == [false, false, false, true, false, false])

      let (stranger, _) = try await createSession(client)
      #expect(stranger.state.header == "Composable App")
      #expect(stranger.state.episodes.allSatisfy { !$0.isFavorite })
    }
  }

  @Test func aMalformedVisitorCookieIsReplaced() async throws {
    let kept = Kept()
    try await makeApplication(makeKeepingRegistry(kept)).test(.router) { client in
      for malformed in ["", "not-hex", String(repeating: "A", count: 32), "../../etc/passwd"] {
        let (session, cookie) = try await createSession(client, visitor: malformed)
        #expect(VisitorID(Self.value(of: cookie)) != nil, "replaced: \(malformed)")
        #expect(session.state.header == "Composable App")
      }
      #expect(kept.clients.value.keys.allSatisfy { VisitorID($0) != nil })
    }
  }

  @Test func aFailingStorageShowsTheErrorAndTheSessionStillStarts() async throws {
    let registry = SessionRegistry(
      app: .app, logger: quietLogger,
      visitorData: { _ in
        { values in
          values.favoriteClient.favorites = { throw StorageDown() }
          values.settingsClient.load = { throw StorageDown() }
          values.settingsClient.save = { _ in throw StorageDown() }
        }
      },
      dependencies: {
        $0.uuid = .incrementing
        $0.favoriteClient = .inMemory()
        $0.settingsClient = .inMemory()
      })
    try await makeApplication(registry).test(.router) { client in
      let (session, _) = try await createSession(client)
      #expect(
        session.state.episodesError == "Favorites could not be loaded (the database is down).")
      #expect(
        session.state.settings.storageError
          == "Settings could not be loaded (the database is down).")
      try await client.send(.changeSetting(.displayName("Ada")), to: session.id)
      let saveFailed =
        "Settings could not be saved (the database is down); they are kept until the app quits."
      try await waitUntil {
        (try? await client.state(of: session.id).state.settings.storageError) == saveFailed
      }
      let state = try await client.state(of: session.id).state
      #expect(state.header == "Hello, Ada!", "the change stays in the session")
    }
  }
}

private struct StorageDown: LocalizedError {
  var errorDescription: String? { "the database is down" }
}
