import AppFeature
import AppWeb
import ComposableArchitecture
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@testable import WebFrontend
@testable import WebRoutes
@testable import WebSessions

/// The route table is made from the same named groups as the router, for whatever root the server
/// is handed: the guard's 405s, the metrics' series and the page's addresses all follow it.
@MainActor
struct RouteTableTests {
  @Test func theTableIsTheGroupsRoutesWithTheAppsPageAddresses() {
    let table = WebRouter.routes(page: WebApp.app.page)
    for group in WebRouter.groups(page: WebApp.app.page) {
      for (path, methods) in group.routes {
        #expect(table[path] == methods, "\(group.name): \(path)")
      }
    }
    for tab in ["/counters", "/search", "/settings", "/episodes"] {
      #expect(table[tab] == [.get])
    }
    #expect(table["/api/session"] == [.post, .delete])
    // A server of another root has its own page addresses, and none of the app's.
    let other = WebRouter.routes(page: WebPage(title: "Tally", sections: [TallyWeb.section!]))
    #expect(other["/tally"] == [.get] && other["/tally.js"] == [.get] && other["/counters"] == nil)
    #expect(other["/counters.js"] == nil && other["/app.js"] == [.get])
    #expect(other["/api/session/actions"] == [.post])
  }

  @Test func theAppsPageHasATabAndASectionPerFeatureInTheOrderOfTheAppsTabs() throws {
    let page = WebApp.app.page
    #expect(page.sections.map(\.id) == AppFeature.Tab.allCases.map(\.rawValue))
    #expect(page.addresses == AppFeature.Tab.allCases.map { "/\($0.rawValue)" })
    #expect(page.addresses.starts(with: ["/counters", "/search", "/settings", "/episodes"]))
    #expect(page.innerAddressPatterns == ["/episodes/**"])
    let html = String(decoding: try #require(page.files["/"]).bytes, as: UTF8.self)
    #expect(!html.contains("{{"), "a marker of the frame was left in the page")
    var rest = html[...]
    for section in page.sections {
      let tab = #"<button role="tab" data-tab="\#(section.id)" id="tab-\#(section.id)""#
      let range = try #require(rest.range(of: tab), "no tab \(section.id), or out of order")
      rest = rest[range.upperBound...]
      #expect(page.files["/\(section.id).js"] != nil, "\(section.id)'s module is not served")
    }
    for section in page.sections {
      let opening =
        #"<section id="\#(section.id)" data-section="\#(section.id)" data-module="/\#(section.id).js" role="tabpanel""#
      #expect(html.contains(opening), "\(section.id)'s section")
    }
    // Each section's markup comes from its adapter folder: the frame holds none of it.
    #expect(html.contains(#"id="counter-list""#) && html.contains(#"id="settings-form""#))
  }

  @Test func thePageEscapesItsTitles() throws {
    let section = PageSection(
      id: "tally", title: "Tally <b>&</b>", markup: "",
      files: ["tally.js": Array("export function bind() {}".utf8)])
    let page = WebPage(title: #"A "quoted" <title>"#, sections: [section])
    let html = String(decoding: try #require(page.files["/"]).bytes, as: UTF8.self)
    #expect(html.contains("<title>A &quot;quoted&quot; &lt;title&gt;</title>"))
    #expect(html.contains(#"aria-label="Tally &lt;b&gt;&amp;&lt;/b&gt;""#))
    // One section: no tab bar, and no line left where it would be.
    #expect(!html.contains("<nav") && !html.contains("{{"))
    #expect(!html.contains("\n  \n"), "a blank line is left where the tab bar would be")
  }

  @Test func everyRouteAnswersItsMethodsAndRefusesOthersWith405() async throws {
    let registry = makeRegistry()
    try await makeApplication(registry).test(.router) { client in
      for (path, methods) in WebRouter.routes(page: WebApp.app.page) {
        for method in methods {
          // Without a session the session's routes answer 404 "no session; create one …": found, and
          // refused for the missing session, never "no such route" nor 405.
          let response = try await client.call(method, path)
          let body = String(buffer: response.body)
          #expect(response.status != .methodNotAllowed, "\(method) \(path)")
          #expect(!body.contains("no such"), "\(method) \(path): \(body)")
          // A server that does not record answers its recording routes 404 saying so.
          if response.status == .notFound, path.hasPrefix("/api/session/recording") {
            #expect(body.contains("--allow-recording"), "\(method) \(path): \(body)")
          } else if response.status == .notFound {
            #expect(body.contains("create one with POST"), "\(method) \(path): \(body)")
          }
        }
        let other: HTTPRequest.Method = methods.contains(.put) ? .patch : .put
        #expect(try await client.call(other, path).status == .methodNotAllowed, "\(path)")
      }
      for tab in WebApp.app.page.addresses {
        let page = try await client.call(.get, tab)
        #expect(page.status == .ok && page.headers[.contentType]?.hasPrefix("text/html") == true)
      }
      let unknown = String(buffer: try await client.call(.get, "/api/nothing").body)
      #expect(unknown.contains("no such API route"))
    }
  }

  @Test func theMetricsHaveASeriesForEveryPageAddressOfTheApp() async throws {
    let registry = SessionRegistry(app: .app, logger: quietLogger) { _ in }
    try await makeApplication(registry).test(.router) { client in
      #expect(try await client.call(.get, "/search").status == .ok)
      let metrics = String(buffer: try await client.call(.get, "/metrics").body)
      #expect(
        metrics.contains(
          #"app_http_request_duration_seconds_count{route="/search",method="GET"} 1"#))
    }
  }

  @Test func aServerRunsWhateverRootItIsHanded() async throws {
    // A root the app does not have, served with the same sessions, routes and archive.
    let api = WebAPI<Tally>([.feature(TallyWeb.self)])
    let app = WebApp(
      Tally(), title: "Tally", initialState: { Tally.State() }, api: api, start: .started,
      kept: \.count, restore: { .restored($0) })
    let savedSessions = SavedSessions.inMemory()
    let registry = SessionRegistry(app: app, logger: quietLogger, savedSessions: savedSessions) {
      _ in
    }
    try await makeApplication(registry).test(.router) { client in
      let actions = String(buffer: try await client.call(.get, "/api/actions").body)
      #expect(actions.contains(#""tally.add""#) && !actions.contains("counter.add"))
      #expect(try await client.call(.get, "/tally").status == .ok)
      #expect(try await client.call(.get, "/counters").status == .notFound)
      // Its page is the frame with its one section, and no tab bar; the app's modules are not served.
      let page = String(buffer: try await client.call(.get, "/").body)
      #expect(page.contains("<title>Tally</title>") && !page.contains("role=\"tab\""))
      #expect(page.contains(#"<section id="tally" data-section="tally" data-module="/tally.js""#))
      #expect(page.contains(#"<p id="tally-count"></p>"#) && !page.contains("counter-list"))
      #expect(try await client.call(.get, "/tally.js").status == .ok)
      #expect(try await client.call(.get, "/counters.js").status == .notFound)

      let created = try await client.call(.post, "/api/session")
      #expect(created.status == .created)
      #expect(String(buffer: created.body).contains(#""tally":{"count":0,"starts":1}"#))
      let cookie = try #require(
        created.headers[values: .setCookie].first { $0.hasPrefix("session=") })
      let id = String(cookie.dropFirst("session=".count).prefix { $0 != ";" })
      let visitorCookie = try #require(
        created.headers[values: .setCookie].first { $0.hasPrefix("visitor=") })
      let visitor = String(visitorCookie.prefix { $0 != ";" })

      let added = try await client.call(
        .post, "/api/session/actions", session: id,
        headers: [.contentType: "application/json"],
        body: ByteBuffer(string: #"{"type":"tally.add"}"#))
      #expect(added.status == .ok)
      #expect(String(buffer: added.body).contains(#""tally":{"count":1,"starts":1}"#))
      let sessionID = try #require(SessionID(id))
      let saved = try #require(try await savedSessions.load(sessionID))
      #expect(String(decoding: saved.state, as: UTF8.self) == "1")

      // A root that is not recorded has no baseline: its sessions sleep with the state whole.
      #expect(await registry.sleepIdleSessions(now: .now.advanced(by: .seconds(61))) == 1)
      #expect(registry.asleepWithWholeStateCount == 1)
      let woken = try await client.call(
        .post, "/api/session/actions", session: id,
        headers: [.contentType: "application/json"],
        body: ByteBuffer(string: #"{"type":"tally.add"}"#))
      #expect(String(buffer: woken.body).contains(#""tally":{"count":2,"starts":1}"#))
      #expect(registry.asleepWithWholeStateCount == 0)

      // Another server of the same root resumes it from the archive: restored, then started.
      let resumed = SessionRegistry(app: app, logger: quietLogger, savedSessions: savedSessions) {
        _ in
      }
      try await makeApplication(resumed).test(.router) { other in
        let state = try await other.call(
          .get, "/api/session/state",
          headers: [.cookie: "\(WebRouter.sessionCookieName)=\(id); \(visitor)"])
        #expect(state.status == .ok)
        #expect(String(buffer: state.body).contains(#""tally":{"count":2,"starts":1}"#))
      }
    }
  }
}

/// A root the app does not have: a count, and how many times a session started.
@Reducer
struct Tally {
  @ObservableState
  struct State: Equatable, Sendable {
    var count = 0
    var starts = 0
  }

  enum Action: Equatable, Sendable {
    case added
    case restored(Int)
    case started
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .added: state.count += 1
      case .restored(let count): state.count = count
      case .started: state.starts += 1
      }
      return .none
    }
  }
}

enum TallyWeb: WebFeature {
  static let routes: [WebRoute<Tally>] = [WebRoute("tally.add") { _ in .added }]

  static let section: PageSection? = PageSection(
    id: "tally", title: "Tally", markup: #"<p id="tally-count"></p>"#,
    files: ["tally.js": Array("export function bind() {}\nexport function render() {}\n".utf8)])

  struct View: Codable, Equatable, Sendable {
    var tally: TallyView
  }

  struct TallyView: Codable, Equatable, Sendable {
    var count: Int
    var starts: Int
  }

  static func view(of state: Tally.State) -> View {
    View(tally: TallyView(count: state.count, starts: state.starts))
  }
}
