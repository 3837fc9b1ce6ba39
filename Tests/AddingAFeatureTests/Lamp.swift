import ComposableArchitecture
import Foundation
import TerminalFrontend
import WebFrontend
import WebSessions

// The recipe of docs/adding-a-feature.md, followed for a feature that is not in the app: a lamp
// with a switch and a brightness. Each step is what a new feature adds, in the file it would add
// it to; `Home` stands for `AppFeature`.

// MARK: Step 2 — the feature (Modules/Features/LampFeature/Lamp.swift)

@Reducer
struct Lamp {
  @ObservableState
  struct State: Equatable, Sendable {
    var isOn = false
    var brightness = 50
    var timesSwitchedOn = 0
  }

  enum Action: Equatable, Sendable {
    case switchTapped
    case brightnessChanged(Int)
  }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .switchTapped:
        state.isOn.toggle()
        if state.isOn { state.timesSwitchedOn += 1 }
        return .none
      case .brightnessChanged(let level):
        state.brightness = min(max(level, 0), 100)
        return .none
      }
    }
  }
}

// MARK: Step 6 — composed into the root (AppFeature)

@Reducer
struct Home {
  @ObservableState
  struct State: Equatable, Sendable {
    var lamp = Lamp.State()
  }

  enum Action: Equatable, Sendable {
    case lamp(Lamp.Action)
  }

  var body: some ReducerOf<Self> {
    Scope(state: \.lamp, action: \.lamp) {
      Lamp()
    }
  }
}

// MARK: Step 7 — the web adapter (Frontends/Adapters/Lamp/Web/LampPage.swift), written against
// the feature alone and lifted into the root where it is registered

enum LampPage: WebFeature {
  /// Its section of the page: `Public/lamp.html` and `Public/lamp.js`, beside this file.
  static let section: PageSection? = PageSection(id: "lamp", title: "Lamp", bundle: .module)

  static let routes: [WebRoute<Lamp>] = [
    WebRoute("lamp.switch") { _ in .switchTapped },
    WebRoute("lamp.brightness", ["level": "an integer from 0 to 100"]) {
      fields throws(DecodingFailure) in
      let level = try fields.value("level", as: Int.self)
      guard (0...100).contains(level) else {
        throw DecodingFailure("field 'level' must be from 0 to 100, not \(level)")
      }
      return level
    } resolve: { level, lamp throws(ActionRefusal) in
      guard lamp.isOn else { throw ActionRefusal.conflict("the lamp is off") }
      return .brightnessChanged(level)
    },
  ]

  struct View: Codable, Equatable, Sendable {
    var lamp: LampView
  }

  struct LampView: Codable, Equatable, Sendable {
    var isOn: Bool
    var brightness: Int
    /// Shown only while the lamp is on.
    var glow: String?
  }

  static func view(of lamp: Lamp.State) -> View {
    View(
      lamp: LampView(
        isOn: lamp.isOn, brightness: lamp.brightness,
        glow: lamp.isOn ? String(repeating: "*", count: lamp.brightness / 20) : nil))
  }
}

extension LampPage {
  /// Its section alone, on the lamp's own reducer: what `preview-server` serves for it.
  static var preview: WebPreview<Self> { alone(Lamp(), initialState: { Lamp.State() }) }
}

// MARK: Step 5 — the terminal screen (Frontends/Adapters/Lamp/Terminal/LampScreen.swift),
// written against the feature alone, so that its preview runs it before the app knows it

enum LampScreen: TerminalScreen {
  typealias Root = Lamp

  static func render(_ lamp: Lamp.State, view: ViewState, style: Style) -> [String] {
    [
      "\(view.selectedLampRow == 0 ? "›" : " ") Switch      \(lamp.isOn ? "on" : "off")",
      "\(view.selectedLampRow == 1 ? "›" : " ") Brightness  ‹ \(lamp.brightness) ›",
    ]
  }

  static func help(_ state: Lamp.State, view: ViewState) -> String {
    "↑/↓ select · Space switch · ←/→ brightness"
  }

  static func action(for key: Key, state: Lamp.State, view: inout ViewState) -> Lamp.Action? {
    switch key {
    case .up: view.selectedLampRow = 0
    case .down: view.selectedLampRow = 1
    case .character(" ") where view.selectedLampRow == 0: return .switchTapped
    case .left where view.selectedLampRow == 1:
      return .brightnessChanged(state.brightness - 10)
    case .right where view.selectedLampRow == 1:
      return .brightnessChanged(state.brightness + 10)
    default: break
    }
    return nil
  }
}

// MARK: Step 5 — the preview (Apps/Previews/lamp-preview/main.swift): the screen alone

let lampPreview = TerminalRegistration<Lamp>.single(.screen(LampScreen.self), title: "Lamp")

extension ViewState {
  /// The selected row of the lamp screen.
  var selectedLampRow: Int {
    get { self[selection: "lamp"] }
    set { self[selection: "lamp"] = newValue }
  }
}

// MARK: Step 8 — one line of registration in each front end

let homeWebAPI = WebAPI<Home>([.feature(LampPage.self, state: \.lamp, action: \.lamp)])
let lampScreen = TerminalScreenPart<Home>.screen(LampScreen.self, state: \.lamp, action: \.lamp)
