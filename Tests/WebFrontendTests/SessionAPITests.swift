import AppWeb
import ComposableArchitecture
import EpisodesFeature
import FactClient
import FavoriteClient
import Foundation
import Hummingbird
import HummingbirdTesting
import RandomNumberClient
import Testing
import WebFrontend
import WebHTTP
import WebSessions

/// The routes of the API, one behaviour per test, through the router.
@MainActor
struct SessionAPITests {
  @Test func pageIsServedWithoutExternalResources() async throws {
    let app = makeApplication(makeRegistry())
    try await app.test(.router) { client in
      try await client.execute(uri: "/", method: .get) { response in
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        let html = String(buffer: response.body)
        #expect(html.contains("<title>Composable App</title>"))
        #expect(html.contains(#"<script type="module" src="/app.js"></script>"#))
        #expect(!html.contains("http://") && !html.contains("https://"))
      }
      try await client.execute(uri: "/session.js", method: .get) { response in
        #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
        #expect(String(buffer: response.body).contains(#""/api/session""#))
      }
      // No module loads anything from elsewhere (the SVG namespace is a name, not a resource).
      for path in WebApp.app.page.files.keys where path.hasSuffix(".js") {
        let script = String(buffer: try await client.call(.get, path).body)
        #expect(!script.contains("https://") && !script.contains("import(\"http"), "\(path)")
      }
    }
  }

  @Test func creatingASessionReturnsAnUnguessableIDAndTheInitialState() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      let first = try await client.createSession()
      let second = try await client.createSession()
      #expect(first.id.count == 32)
      #expect(first.id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
      #expect(first.id != second.id)
      #expect(first.revision == 1)
      #expect(first.state.header == "Composable App")
      #expect(first.state.selectedTab == "counters")
      #expect(first.state.counters.map(\.id) == [firstCounter])
      #expect(first.state.counters.first?.count == 0)
      #expect(first.state.episodes.map(\.title).first == "Functions")
      #expect(first.state.episodes.count == 6)
      #expect(first.state.search.query == "")
      #expect(first.state.settings.displayName == "")
    }
    #expect(registry.count == 2)
  }

  @Test func postingWithALiveSessionsCookieAnswersThatSessionAndCreatesNone() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      let created = try await client.createSession()
      try await client.send(.incrementCounter(id: firstCounter), to: created.id)
      // A page opening (a reload, a second tab) asks once, with the browser's cookie.
      let again = try await client.call(.post, "/api/session", session: created.id)
      #expect(again.status == .ok)
      #expect(!again.headers[values: .setCookie].contains { $0.hasPrefix("session=") })
      let snapshot: SessionResponse = try decodeBody(again)
      #expect(snapshot.state.counters.first?.count == 1)
      // A cookie naming no session gets a new one.
      let stale = try await client.call(
        .post, "/api/session", session: String(repeating: "0", count: 32))
      #expect(stale.status == .created)
      #expect(stale.headers[values: .setCookie].contains { $0.hasPrefix("session=") })
    }
    #expect(registry.count == 2)
  }

  @Test func readinessIsPlainText() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let ready = try await client.call(.get, "/readyz")
      #expect(ready.status == .ok)
      #expect(ready.headers[.contentType] == "text/plain; charset=utf-8")
    }
  }

  @Test func stateIsReadBack() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let session = try await client.createSession()
      try await client.send(.incrementCounter(id: firstCounter), to: session.id)
      let read = try await client.state(of: session.id)
      #expect(read.state.counters.first?.count == 1)
      #expect(read.revision == 2)
    }
  }

  @Test func countersAreAddedChangedAndRemoved() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      var state = try await client.send(.addCounter, to: id).state
      #expect(state.counters.map(\.id) == [UUID(0), UUID(1)])
      try await client.send(.incrementCounter(id: UUID(1)), to: id)
      try await client.send(.incrementCounter(id: UUID(1)), to: id)
      state = try await client.send(.decrementCounter(id: UUID(0)), to: id).state
      #expect(state.counters.map(\.count) == [-1, 2])
      state = try await client.send(.removeCounter(id: UUID(0)), to: id).state
      #expect(state.removalConfirmation?.title == "Remove Counter 1?")
      #expect(state.removalConfirmation?.confirm == "Remove")
      state = try await client.send(.cancelRemoveCounter, to: id).state
      #expect(state.removalConfirmation == nil)
      #expect(state.counters.count == 2)
      try await client.send(.removeCounter(id: UUID(0)), to: id)
      state = try await client.send(.confirmRemoveCounter, to: id).state
      #expect(state.removalConfirmation == nil)
      #expect(state.counters.map(\.id) == [UUID(1)])
      #expect(state.counters.map(\.count) == [2])
    }
  }

  @Test func factAndRandomNumberArriveFromTheirClients() async throws {
    let registry = makeRegistry {
      $0.factClient.fetch = { "\($0) is the number of the test." }
      $0.randomNumberClient.fetch = { _, _ in 42 }
    }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.incrementCounter(id: firstCounter), to: id)
      try await client.send(.requestFact(id: firstCounter), to: id)
      let afterFact = try await client.waitForState(of: id) { $0.counters[0].fact != nil }
      #expect(afterFact.counters[0].fact == "1 is the number of the test.")
      #expect(afterFact.counters[0].isFactRequestInFlight == false)
      try await client.send(.requestRandomNumber(id: firstCounter), to: id)
      let afterRandom = try await client.waitForState(of: id) { $0.counters[0].count == 42 }
      #expect(afterRandom.counters[0].isRandomNumberRequestInFlight == false)
    }
  }

  @Test func clientFailuresShowInStateNotAsServerErrors() async throws {
    struct Unreachable: LocalizedError {
      var errorDescription: String? { "Number trivia: cannot reach 127.0.0.1:9" }
    }
    let registry = makeRegistry {
      $0.factClient.fetch = { _ in throw Unreachable() }
    }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.requestFact(id: firstCounter), to: id)
      let state = try await client.waitForState(of: id) { $0.counters[0].factError != nil }
      #expect(state.counters[0].factError == "Number trivia: cannot reach 127.0.0.1:9")
    }
  }

  @Test func tabsAreSelected() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      let state = try await client.send(.selectTab(.episodes), to: id).state
      #expect(state.selectedTab == "episodes")
    }
  }

  @Test func aChannelCannotBeChosenWhileNotificationsAreOff() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      let before = try await client.state(of: id)
      #expect(before.state.settings.canChooseNotificationChannels == false)
      let refused = try await client.post(
        #"{"type": "settings.set", "field": "sendMobileNotifications", "value": true}"#, to: id)
      #expect(refused.status == .conflict)
      let error = try decodeBody(refused, as: APIError.Body.self)
      #expect(
        error.error
          == "notifications are off: turn them on before choosing sendMobileNotifications")
      #expect(try await client.state(of: id).revision == before.revision, "nothing changed")
      let on = try await client.send(.changeSetting(.enableNotifications(true)), to: id).state
      #expect(on.settings.canChooseNotificationChannels)
      let chosen = try await client.send(.changeSetting(.sendMobileNotifications(true)), to: id)
      #expect(chosen.state.settings.sendMobileNotifications)
    }
  }

  @Test func settingsAreChangedAndTheHeaderFollowsTheDisplayName() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      var state = try await client.send(.changeSetting(.displayName("Blob")), to: id).state
      #expect(state.header == "Hello, Blob!")
      #expect(state.settings.displayName == "Blob")
      try await client.send(.changeSetting(.enableNotifications(true)), to: id)
      try await client.send(.changeSetting(.sendEmailNotifications(true)), to: id)
      try await client.send(.changeSetting(.digest(.weekly)), to: id)
      try await client.send(.changeSetting(.protectMyPosts(true)), to: id)
      try await client.send(.changeSetting(.isHapticFeedbackEnabled(false)), to: id)
      state = try await client.send(.changeSetting(.temperatureUnit(.fahrenheit)), to: id).state
      #expect(state.settings.enableNotifications)
      #expect(state.settings.sendEmailNotifications)
      #expect(state.settings.digest == "weekly")
      #expect(state.settings.protectMyPosts)
      #expect(!state.settings.isHapticFeedbackEnabled)
      #expect(state.settings.temperatureUnit == "fahrenheit")
      // Reset asks first; cancelling keeps everything, confirming restores the defaults.
      state = try await client.send(.resetSettings, to: id).state
      let confirmation = try #require(state.settings.resetConfirmation)
      #expect(confirmation.title == "Reset all settings?")
      #expect(confirmation.message == "Every setting goes back to its default.")
      #expect(confirmation.confirm == "Reset")
      state = try await client.send(.cancelResetSettings, to: id).state
      #expect(state.settings.resetConfirmation == nil)
      #expect(state.header == "Hello, Blob!")
      try await client.send(.resetSettings, to: id)
      state = try await client.send(.confirmResetSettings, to: id).state
      #expect(state.settings.resetConfirmation == nil)
      #expect(state.header == "Composable App")
      #expect(state.settings.digest == "daily")
    }
  }

  @Test func theFeatureValidatesDisplayNames() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      let long = String(repeating: "x", count: 40)
      let state = try await client.send(.changeSetting(.displayName("  \(long)")), to: id).state
      #expect(state.settings.displayName == String(repeating: "x", count: 32))
      #expect(state.settings.displayNameError == "Display names are limited to 32 characters.")
    }
  }

  @Test func favoritingSucceeds() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      let optimistic = try await client.send(.toggleFavorite(episodeID: firstEpisode), to: id)
      #expect(optimistic.state.episodes[0].isFavorite)
      let state = try await client.state(of: id).state
      #expect(state.episodes[0].isFavorite)
      #expect(state.episodes[0].alert == nil)
      #expect(state.episodes[1].isFavorite == false)
    }
  }

  @Test func aFailedFavoriteShowsAnAlertAndDismissingItRollsBack() async throws {
    let registry = makeRegistry {
      $0.favoriteClient = FavoriteClient(
        favorites: { [] }, favorite: { _, _ in throw FavoriteError() })
    }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.toggleFavorite(episodeID: UUID(2)), to: id)
      let failed = try await client.waitForState(of: id) { $0.episodes[2].alert != nil }
      #expect(failed.episodes[2].alert?.title == "Favoriting failed.")
      #expect(failed.episodes[2].alert?.message == nil)
      #expect(failed.episodes[2].isFavorite)
      let dismissed = try await client.send(.dismissFavoriteAlert(episodeID: UUID(2)), to: id)
      #expect(dismissed.state.episodes[2].alert == nil)
      #expect(dismissed.state.episodes[2].isFavorite == false)
    }
  }

  @Test func anEpisodeScreenSharesTheRowsFavoriteAndClosesItself() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      let opened = try await client.send(.openEpisode(id: UUID(3)), to: id)
      #expect(opened.state.episodeScreens.map(\.title) == ["DSLs"])
      let favorited = try await client.send(.toggleScreenFavorite, to: id)
      #expect(favorited.state.episodeScreens[0].isFavorite)
      #expect(favorited.state.episodes[3].isFavorite, "the row shares the screen's favorite")
      try await client.send(.closeScreen, to: id)
      let closed = try await client.waitForState(of: id) { $0.episodeScreens.isEmpty }
      #expect(closed.episodes[3].isFavorite)
    }
  }

  /// The browser's Back pops the top screen at once: the answer to the action already shows the
  /// screen below, so the page can take its next step toward the address from it (the screen's
  /// own close button dismisses it in an effect, after the answer).
  @Test func poppingAScreenAnswersWithTheScreenBelow() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.openEpisode(id: UUID(3)), to: id)
      let two = try await client.send(.openEpisode(id: UUID(3)), to: id)
      #expect(two.state.episodeScreens.count == 2)
      let popped = try await client.send(.popScreen, to: id)
      #expect(popped.state.episodeScreens.map(\.title) == ["DSLs"])
      let none = try await client.send(.popScreen, to: id)
      #expect(none.state.episodeScreens.isEmpty)
    }
  }

  @Test func aFailedFavoriteOnTheScreenAlertsThereAndOnItsRow() async throws {
    let registry = makeRegistry {
      $0.favoriteClient = FavoriteClient(
        favorites: { [] }, favorite: { _, _ in throw FavoriteError() })
    }
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.send(.openEpisode(id: UUID(1)), to: id)
      try await client.send(.toggleScreenFavorite, to: id)
      let failed = try await client.waitForState(of: id) { $0.episodeScreens.first?.alert != nil }
      #expect(failed.episodeScreens[0].alert?.title == "Favoriting failed.")
      // The screen's button is its row's: the list shows the alert when the screen closes.
      #expect(failed.episodes[1].alert?.title == "Favoriting failed.")
      let dismissed = try await client.send(.dismissScreenAlert, to: id)
      #expect(dismissed.state.episodeScreens[0].isFavorite == false)
      #expect(dismissed.state.episodes[1].isFavorite == false)
    }
  }

  @Test func aSessionIsEndedOnRequest() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      let id = try await client.createSession().id
      try await client.call(.delete, "/api/session", session: id) { response in
        #expect(response.status == .noContent)
      }
      try await client.call(.get, "/api/session/state", session: id) { response in
        #expect(response.status == .notFound)
      }
    }
    #expect(registry.count == 0)
  }

  @Test func sessionsAreIsolated() async throws {
    try await makeApplication(makeRegistry()).test(.router) { client in
      let a = try await client.createSession().id
      let b = try await client.createSession().id
      // Both sessions have a counter with the same id: each action reaches its own session only.
      try await client.send(.incrementCounter(id: firstCounter), to: a)
      try await client.send(.changeSetting(.displayName("Ann")), to: a)
      let stateB = try await client.state(of: b).state
      #expect(stateB.counters[0].count == 0)
      #expect(stateB.header == "Composable App")
      let stateA = try await client.state(of: a).state
      #expect(stateA.counters[0].count == 1)
      #expect(stateA.header == "Hello, Ann!")
    }
  }
}
