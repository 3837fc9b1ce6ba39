import ComposableArchitecture
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import TerminalFrontend
import Testing
import WebFrontend
import WebRoutes
import WebSessions

/// A feature added by the recipe is reachable from both front ends: its actions are in the
/// catalogue and decode to the root's actions, its state is in the state JSON and its schema, and
/// its screen draws it and maps its keys; a `TestStore` checks every step.
@MainActor
struct AddingAFeatureTests {
  private func decode(_ json: String) throws(DecodingFailure) -> UserAction {
    try homeWebAPI.decode(Data(json.utf8))
  }

  @Test func itsActionsAreInTheCatalogueWithTheirFields() {
    #expect(homeWebAPI.types == ["lamp.switch", "lamp.brightness"])
    #expect(homeWebAPI.catalogue[1].fields == ["level": "an integer from 0 to 100"])
  }

  @Test func thePageDrivesItThroughTheWebAPI() async throws {
    let store = TestStore(initialState: Home.State()) { Home() }
    let api = homeWebAPI

    let switchOn = try decode(#"{"type":"lamp.switch"}"#)
    await store.send(try api.rootAction(for: switchOn, in: store.state)) {
      $0.lamp.isOn = true
      $0.lamp.timesSwitchedOn = 1
    }
    let dim = try decode(#"{"type":"lamp.brightness","level":20}"#)
    await store.send(try api.rootAction(for: dim, in: store.state)) {
      $0.lamp.brightness = 20
    }

    let state = try #require(
      try JSONSerialization.jsonObject(with: api.stateJSON(store.state)) as? [String: Any])
    let lamp = try #require(state["lamp"] as? [String: Any])
    #expect(Set(state.keys) == ["lamp"])
    #expect(lamp["isOn"] as? Bool == true)
    #expect(lamp["brightness"] as? Int == 20)
    #expect(lamp["glow"] as? String == "*")
  }

  @Test func itsStateIsInTheSchema() throws {
    let schema = try #require(
      try JSONSerialization.jsonObject(with: homeWebAPI.schema) as? [String: Any])
    let properties = try #require(schema["properties"] as? [String: [String: Any]])
    #expect(Set(properties.keys) == ["lamp"])
    let lamp = try #require(properties["lamp"]?["properties"] as? [String: [String: Any]])
    #expect(lamp["brightness"]?["type"] as? String == "integer")
    #expect(lamp["isOn"]?["type"] as? String == "boolean")
    let required = Set(properties["lamp"]?["required"] as? [String] ?? [])
    #expect(required == ["isOn", "brightness"], "an optional field is not required")
  }

  @Test func badInputIsRefusedWithTheRoutesOwnWords() throws {
    #expect(throws: DecodingFailure("field 'level' must be from 0 to 100, not 101")) {
      try decode(#"{"type":"lamp.brightness","level":101}"#)
    }
    #expect(
      throws: DecodingFailure(
        "missing field 'level' (an integer from 0 to 100) for 'lamp.brightness'")
    ) {
      try decode(#"{"type":"lamp.brightness"}"#)
    }
    #expect(throws: DecodingFailure("unknown field 'colour' for 'lamp.switch'")) {
      try decode(#"{"type":"lamp.switch","colour":"red"}"#)
    }
    #expect(
      throws: DecodingFailure(
        "unknown action type 'lamp.explode'; expected one of: lamp.switch, lamp.brightness")
    ) {
      try decode(#"{"type":"lamp.explode"}"#)
    }
  }

  @Test func anActionThatDoesNotFitTheStateIsRefusedWhenResolved() throws {
    let dim = try decode(#"{"type":"lamp.brightness","level":20}"#)
    #expect(throws: ActionRefusal.conflict("the lamp is off")) {
      try homeWebAPI.rootAction(for: dim, in: Home.State())
    }
  }

  @Test func theTerminalDrivesItThroughItsScreen() async throws {
    let store = TestStore(initialState: Home.State()) { Home() }
    var view = ViewState()

    let space = lampScreen.action(for: .character(" "), state: store.state, view: &view)
    await store.send(try #require(space)) {
      $0.lamp.isOn = true
      $0.lamp.timesSwitchedOn = 1
    }
    #expect(lampScreen.action(for: .down, state: store.state, view: &view) == nil)
    #expect(view.selectedLampRow == 1)
    let right = lampScreen.action(for: .right, state: store.state, view: &view)
    await store.send(try #require(right)) {
      $0.lamp.brightness = 60
    }

    #expect(
      lampScreen.render(store.state, view: view, style: Style(usesEscapeCodes: false)) == [
        "  Switch      on",
        "› Brightness  ‹ 60 ›",
      ])
    #expect(lampScreen.help(store.state, view: view).contains("Space switch"))
  }

  @Test func itsPreviewRunsTheScreenAloneBeforeTheAppKnowsIt() async {
    let store = TestStore(initialState: TerminalFeature<Lamp>.State(app: Lamp.State())) {
      TerminalFeature(Lamp(), registration: lampPreview)
    }
    await store.send(.keyPressed(.character(" ")))
    await store.receive(\.app.switchTapped) {
      $0.app.isOn = true
      $0.app.timesSwitchedOn = 1
    }
    // One screen: digits and Tab are the screen's keys, not tab switches.
    await store.send(.keyPressed(.character("2")))
    await store.send(.keyPressed(.tab))
    await store.send(.keyPressed(.character("q"))) { $0.isQuitting = true }
    #expect(
      ScreenRenderer.render(store.state, registration: lampPreview, style: .plain) == """
        Lamp · preview
        [Lamp]
        ────────────────────────────────────────────────────────────
        › Switch      on
          Brightness  ‹ 50 ›

        ↑/↓ select · Space switch · ←/→ brightness · q quit
        """)
  }

  /// Its page alone, as `preview-server` would serve it before the app knows the lamp: the frame
  /// with the lamp's one section (no tab bar), its module, and the session running `Lamp` itself.
  @Test func itsPageIsServedAloneBeforeTheAppKnowsIt() async throws {
    let preview = WebApp(LampPage.preview)
    var logger = Logger(label: "lamp-preview")
    logger.logLevel = .critical
    let registry = SessionRegistry(app: preview, logger: logger) { _ in }
    let application = WebServer.application(
      registry: registry, configuration: .init(port: 0), logger: logger)
    try await application.test(.router) { client in
      let page = try await client.execute(uri: "/lamp", method: .get)
      #expect(page.status == .ok)
      let html = String(buffer: page.body)
      #expect(html.contains("<title>Lamp — preview</title>") && !html.contains(#"role="tab""#))
      #expect(html.contains(#"<section id="lamp" data-section="lamp" data-module="/lamp.js""#))
      #expect(html.contains(#"id="lamp-switch""#))
      let module = try await client.execute(uri: "/lamp.js", method: .get)
      #expect(module.status == .ok && String(buffer: module.body).contains("lamp.switch"))

      let created = try await client.execute(
        uri: "/api/session", method: .post, headers: [.origin: "http://localhost"])
      #expect(created.status == .created)
      let cookie = try #require(
        created.headers[values: .setCookie].first { $0.hasPrefix("session=") })
      let switched = try await client.execute(
        uri: "/api/session/actions", method: .post,
        headers: [
          .cookie: String(cookie.prefix { $0 != ";" }), .contentType: "application/json",
          .origin: "http://localhost",
        ],
        body: ByteBuffer(string: #"{"type":"lamp.switch"}"#))
      #expect(switched.status == .ok)
      #expect(String(buffer: switched.body).contains(#""lamp":{"isOn":true,"brightness":50"#))
    }
  }
}
