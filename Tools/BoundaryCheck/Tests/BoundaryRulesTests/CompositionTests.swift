import BoundaryRules
import Composition
import Foundation
import Testing

/// The composition is derived from the features table (targets by folder) and what each
/// feature's adapters declare; these graphs are written here, their sources given as text.
struct CompositionTests {
  typealias Sources = [String: [(file: String, text: String)]]

  private func graph(_ names: [String], previews: [(String, [String])] = []) -> PackageGraph {
    var targets: [PackageGraph.Target] = [
      .init(
        name: "AppFeature", path: "Modules/Features/AppFeature", type: "regular", dependencies: [])
    ]
    for name in names {
      targets.append(
        .init(
          name: name + "Feature", path: "Modules/Features/\(name)Feature", type: "regular",
          dependencies: [.byName("ComposableArchitecture")]))
    }
    for name in names where name != "Favoriting" {
      for frontEnd in ["Terminal", "Web"] {
        targets.append(
          .init(
            name: name + frontEnd, path: "Modules/Frontends/Adapters/\(name)/\(frontEnd)",
            type: "regular", dependencies: []))
      }
    }
    for (name, modules) in previews {
      targets.append(
        .init(
          name: name + "-preview", path: "Apps/Previews/\(name)-preview", type: "executable",
          dependencies: (["TerminalFrontend"] + modules + ["ComposableArchitecture"]).map {
            .product(name: $0, package: "ComposableApp")
          }))
    }
    return PackageGraph(name: "App", targets: targets)
  }

  private func adapters(
    _ name: String, root: String, screen: String? = nil, page: String? = nil,
    section: String? = nil
  ) -> Sources {
    let screen = screen ?? name + "Screen"
    let page = page ?? name + "Page"
    return [
      "Modules/Frontends/Adapters/\(name)/Terminal": [
        (
          "\(screen).swift",
          """
          import TerminalFrontend
          /// A screen.
          public enum \(screen): TerminalScreen {
            public typealias Root = \(root)
            public static func render() {}
          }
          extension ViewState { public var selected\(name)Row: Int { 0 } }
          """
        )
      ],
      "Modules/Frontends/Adapters/\(name)/Web": [
        (
          "\(page).swift",
          """
          public enum \(page): WebFeature {
            public typealias Root = \(root)
            public static let section: PageSection? = PageSection(
              id: "\(section ?? name.lowercased())", title: "\(name)", bundle: .module)
          }
          public struct \(name)View: Codable, Equatable, Sendable {}
          """
        )
      ],
    ]
  }

  private func features(_ graph: PackageGraph, _ sources: Sources) throws -> [ComposedFeature] {
    try ComposedFeature.features(in: graph) { folder in
      guard let files = sources[folder] else {
        throw CompositionError("no folder \(folder)")
      }
      return files
    }
  }

  private var appSources: Sources {
    adapters("Counter", root: "CounterList", screen: "CounterListScreen", section: "counters")
      .merging(adapters("Search", root: "Search")) { $1 }
      .merging(adapters("Episodes", root: "Episodes")) { $1 }
  }

  @Test func aFeatureWithAdaptersIsATabInTheTablesOrder() throws {
    let derived = try features(graph(["Counter", "Search", "Favoriting", "Episodes"]), appSources)
    #expect(derived.map(\.name) == ["Counter", "Search", "Episodes"], "Favoriting has no adapter")
    let counter = try #require(derived.first)
    #expect(counter.module == "CounterFeature")
    #expect(counter.root == "CounterList")
    #expect(counter.property == "counterList")
    #expect(counter.tab == "counters", "the web section's id")
    #expect(counter.screen == AdapterType(module: "CounterTerminal", type: "CounterListScreen"))
    #expect(counter.page == AdapterType(module: "CounterWeb", type: "CounterPage"))
    #expect(counter.previewName == "counter")
  }

  @Test func addingAFeaturesLineAddsItsLinesToEveryRegistration() throws {
    let before = Composition(
      features: try features(graph(["Counter", "Search"]), appSources), previews: [])
    let after = Composition(
      features: try features(
        graph(["Counter", "Search", "Lamp"]),
        appSources.merging(adapters("Lamp", root: "Lamp")) { $1 }),
      previews: [])
    let appFeature = try appFeatureText(before)
    let withLamp = try #require(
      after.outputs.first { $0.path.hasSuffix("AppFeature.swift") }
    ).applied(to: appFeature)
    let added = Set(withLamp.components(separatedBy: "\n"))
      .subtracting(appFeature.components(separatedBy: "\n"))
    #expect(
      added == [
        "import LampFeature",
        "  public var lamp: Lamp.State",
        "  lamp: Lamp.State = Lamp.State(),",
        "  self.lamp = lamp",
        "  case lamp",
        "  case lamp(Lamp.Action)",
        "  Scope(state: \\.lamp, action: \\.lamp) { Lamp() }",
        "  case .lamp: return .none",
      ])
    let screens = try #require(after.outputs.first { $0.path.hasSuffix("+Screens.swift") })
      .applied(to: nil)
    #expect(screens.contains("import LampTerminal"))
    #expect(
      screens.contains("case .lamp: .screen(LampScreen.self, state: \\.lamp, action: \\.lamp)"))
    let pages = try #require(after.outputs.first { $0.path.hasSuffix("+Pages.swift") })
      .applied(to: nil)
    #expect(pages.contains(".feature(LampPage.self, state: \\.lamp, action: \\.lamp),"))
    let previewed = try #require(
      after.outputs.first { $0.path.hasSuffix("PreviewedFeature.swift") }
    )
    .applied(to: nil)
    #expect(previewed.contains("case .lamp: WebApp(LampPage.preview)"))
  }

  @Test func thePreviewsManifestListsTheRootsPreviews() throws {
    let composition = Composition(
      features: [],
      previews: ComposedFeature.previews(
        in: graph(["Counter"], previews: [("counter", ["CounterTerminal", "CounterFeature"])])))
    #expect(
      composition.previews == [
        PreviewTarget(name: "counter", modules: ["CounterTerminal", "CounterFeature"])
      ])
    let manifest = """
      let package = Package(
        targets: [
          \(RegionMarker.begin("previews"))
          preview("old", ["OldTerminal"]),
          \(RegionMarker.end("previews"))
        ]
      )
      """
    let written = try #require(
      composition.outputs.first { $0.path == "Apps/Previews/Package.swift" }
    )
    .applied(to: manifest)
    #expect(
      written.contains("    preview(\"counter\", [\"CounterTerminal\", \"CounterFeature\"]),"))
    #expect(!written.contains("old"))
  }

  @Test func whatCannotBeDerivedIsNamed() throws {
    var sources = appSources
    sources["Modules/Frontends/Adapters/Search/Web"] = [
      ("SearchPage.swift", "public enum SearchPage: WebFeature {\n  static let routes = 1\n}")
    ]
    sources["Modules/Frontends/Adapters/Episodes/Terminal"] = [("Nothing.swift", "let x = 1")]
    #expect {
      try features(graph(["Counter", "Search", "Episodes"]), sources)
    } throws: { error in
      let message = "\(error)"
      return message.contains(
        "SearchWeb (Modules/Frontends/Adapters/Search/Web): SearchPage (SearchPage.swift) must "
          + "name the reducer it shows: `public typealias Root = …`")
        && message.contains(
          "EpisodesTerminal (Modules/Frontends/Adapters/Episodes/Terminal): declares no type "
            + "conforming to TerminalScreen")
    }
  }

  @Test func adaptersOfOtherReducersOrATabClaimedTwiceAreRefused() throws {
    var sources = appSources.merging(adapters("Search", root: "Search", section: "counters")) {
      $1
    }
    #expect {
      try features(graph(["Counter", "Search"]), sources)
    } throws: { error in
      "\(error)" == "Counter and Search claim the same tab 'counters'"
    }
    sources = appSources
    sources["Modules/Frontends/Adapters/Search/Web"] =
      adapters("Search", root: "Weather")["Modules/Frontends/Adapters/Search/Web"]
    #expect {
      try features(graph(["Counter", "Search"]), sources)
    } throws: { error in
      "\(error)".contains(
        "Search's adapters lift different reducers: SearchScreen has Root = Search, SearchPage "
          + "has Root = Weather")
    }
    #expect {
      try features(graph(["Search"]), adapters("Search", root: "Search", section: "the-search"))
    } throws: { error in
      "\(error)".contains("Search's tab 'the-search' (its web section's id) must be a Swift")
    }
  }

  @Test func aTabNeedsBothFrontEnds() throws {
    var graph = graph(["Counter"])
    graph.targets.removeAll { $0.name == "CounterWeb" }
    #expect {
      try features(graph, appSources)
    } throws: { error in
      "\(error)".contains("Counter is a tab of the app, which both front ends show")
    }
  }

  @Test func aRegionKeepsTheImportsWrittenByHandAndAFileWithoutItsMarkersIsRefused() throws {
    let output = GeneratedOutput.regions(
      "A.swift", ["imports": .imports(["CounterFeature", "AFeature"])])
    let text = """
      \(RegionMarker.begin("imports"))
      import Foundation
      import ComposableArchitecture
      \(RegionMarker.end("imports"))
      let x = 1
      """
    #expect(
      try output.applied(to: text).components(separatedBy: "\n").dropFirst().prefix(4) == [
        "import AFeature", "import ComposableArchitecture", "import CounterFeature",
        "import Foundation",
      ])
    #expect(
      throws: CompositionError(
        "A.swift has no region 'imports': the lines between `\(RegionMarker.begin("imports"))` "
          + "and `\(RegionMarker.end("imports"))`")
    ) {
      try output.applied(to: "import Foundation\n")
    }
  }

  @Test func aFileIsCurrentWhateverItsLayoutButNotWithALineMissing() throws {
    let output = GeneratedOutput.regions(
      "Package.swift",
      ["previews": .lines(["preview(\"a\", [\"A\", \"B\"]),", "preview(\"b\", []),"])])
    let wrapped = """
        \(RegionMarker.begin("previews"))
        preview(
          "a",
          [
            "A",
            "B",
          ]),
        preview("b", []),
        \(RegionMarker.end("previews"))
      """
    #expect(try output.isCurrent(wrapped))
    #expect(
      try !output.isCurrent(wrapped.replacingOccurrences(of: "preview(\"b\", []),\n", with: "")))
    #expect(try !GeneratedOutput.file("F.swift", "let x = 1\n").isCurrent(nil))
  }

  private func appFeatureText(_ composition: Composition) throws -> String {
    let skeleton = [
      "imports", "state", "parameters", "assignments", "tabs", "actions", "scopes", "children",
    ]
    .map { name in
      let indentation = name == "imports" ? "" : "  "
      return "\(indentation)\(RegionMarker.begin(name))\n\(indentation)\(RegionMarker.end(name))"
    }
    .joined(separator: "\n")
    return try #require(composition.outputs.first { $0.path.hasSuffix("AppFeature.swift") })
      .applied(to: skeleton)
  }
}
