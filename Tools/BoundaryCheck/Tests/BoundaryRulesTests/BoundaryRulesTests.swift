import BoundaryRules
import Foundation
import Testing

/// Each fixture is `Fixtures/clean.json` — a small monorepo graph with every layer — with the
/// edges of one broken rule added.
struct BoundaryRulesTests {
  @Test func cleanGraphPasses() throws {
    #expect(try violations(in: "clean") == [])
  }

  @Test(arguments: [
    (
      "feature-depends-on-live",
      ["SearchFeature -> WeatherClientLive: a feature must not depend on a live module"]
    ),
    (
      "feature-depends-on-live-plumbing",
      ["CounterFeature -> LiveHTTP: a feature must not depend on a live module"]
    ),
    (
      "interface-depends-on-live",
      ["WeatherClient -> FactClientLive: an interface module must not depend on a live module"]
    ),
    (
      "feature-depends-on-feature",
      [
        "SearchFeature -> CounterFeature: a feature must not depend on another feature "
          + "(allowed: `AppFeature` on any feature, `EpisodesFeature` on `FavoritingFeature`)"
      ]
    ),
    (
      "feature-depends-on-support",
      [
        "CounterFeature -> FixtureServer: a feature may depend only on the runtime, client "
          + "interfaces and allowed features (not on a module outside the layers)"
      ]
    ),
    (
      "interface-depends-on-ours",
      [
        "FactClient -> ComposableArchitecture: an interface module must depend on nothing of ours "
          + "but the vocabulary"
      ]
    ),
    (
      "live-depends-on-other-interface",
      [
        "WeatherClientLive -> FactClient: a live module may depend only on its own interface "
          + "(WeatherClient), the live plumbing (LiveHTTP) and the configuration module"
      ]
    ),
    (
      "live-depends-on-live",
      [
        "FactClientLive -> WeatherClientLive: a live module may depend only on its own interface "
          + "(FactClient), the live plumbing (LiveHTTP) and the configuration module"
      ]
    ),
    (
      "live-plumbing-depends-on-ours",
      ["LiveHTTP -> WeatherClient: the live plumbing may depend only on other live plumbing"]
    ),
    (
      "executable-depends-on-feature",
      [
        "app-cli -> AppFeature: an executable may depend only on the composition root "
          + "(not on a feature)"
      ]
    ),
    (
      "feature-depends-on-frontend",
      [
        "AppFeature -> TerminalFrontend: only the composition root, previews, adapters, support "
          + "and tests may depend on a front end"
      ]
    ),
    (
      "frontend-depends-on-live",
      [
        "TerminalFrontend -> WeatherClientLive: only the composition root, tools and tests may "
          + "depend on a live module (and previews on an offline one)"
      ]
    ),
    (
      "offline-depends-on-live-plumbing",
      [
        "WeatherClientOffline -> LiveHTTP: an offline module may depend only on its own "
          + "interface (WeatherClient)"
      ]
    ),
    (
      "offline-depends-on-other-interface",
      [
        "FactClientOffline -> WeatherClient: an offline module may depend only on its own "
          + "interface (FactClient)"
      ]
    ),
    (
      "feature-depends-on-offline",
      ["SearchFeature -> WeatherClientOffline: a feature must not depend on a live module"]
    ),
    (
      "frontend-depends-on-offline",
      [
        "TerminalFrontend -> FactClientOffline: only the composition root, tools and tests may "
          + "depend on a live module (and previews on an offline one)"
      ]
    ),
    (
      "preview-depends-on-live",
      [
        "search-preview -> LiveHTTP: a preview runs on offline or in-memory clients: it must not "
          + "depend on a live client or the live plumbing"
      ]
    ),
    (
      "preview-depends-on-composition-root",
      [
        "search-preview -> AppComposition: a preview may depend only on the runtime, features, "
          + "client interfaces, offline clients, front ends and their adapters (not on a "
          + "composition root)"
      ]
    ),
    (
      "frontend-depends-on-feature",
      [
        "TerminalFrontend -> AppFeature: a front end knows no feature: it may depend only on the "
          + "runtime, the session recording, the configuration module, support modules and "
          + "other front-end modules (not on a feature)"
      ]
    ),
    (
      // The executable hands the front end every client its sessions use, in-memory ones
      // included: the core names no client.
      "frontend-depends-on-client-interface",
      [
        "TerminalFrontend -> FactClient: a front end knows no feature: it may depend only on the "
          + "runtime, the session recording, the configuration module, support modules and "
          + "other front-end modules (not on a client interface)"
      ]
    ),
    (
      "adapter-depends-on-offline",
      [
        "SearchTerminal -> WeatherClientOffline: only the composition root, tools and tests may "
          + "depend on a live module (and previews on an offline one)"
      ]
    ),
    (
      "feature-depends-on-adapter",
      [
        "CounterFeature -> SearchTerminal: only the composition root, previews, adapters, "
          + "support and tests may depend on a front end"
      ]
    ),
    (
      "feature-depends-on-tool",
      [
        "CounterFeature -> RuntimeBenchmarkSupport: only tools and tests may depend on a tool (Tools/)"
      ]
    ),
    (
      "executable-depends-on-tool",
      [
        "app-cli -> RuntimeBenchmarkSupport: an executable may depend only on the composition "
          + "root (not on a tool)"
      ]
    ),
    (
      "tool-depends-on-frontend",
      [
        "offline-bench -> TerminalFrontend: a tool must not depend on a front end or the "
          + "composition root"
      ]
    ),
    (
      "executable-depends-on-live",
      [
        "app-cli -> WeatherClientLive: an executable may depend only on the composition root "
          + "(not on a live client of WeatherClient)"
      ]
    ),
    (
      "frontend-depends-on-composition-root",
      [
        "TerminalFrontend -> AppComposition: only executables (Apps/) and tests may depend on "
          + "the composition root"
      ]
    ),
    (
      "configuration-depends-on-ours",
      [
        "AppConfiguration -> WeatherClient: the configuration module must depend on nothing of "
          + "ours"
      ]
    ),
    (
      "feature-depends-on-configuration",
      [
        "SearchFeature -> AppConfiguration: a feature may depend only on the runtime, client "
          + "interfaces and allowed features (not on a configuration module)"
      ]
    ),
    (
      // The clean graph has a front end on the session recording: allowed.
      "feature-depends-on-recording",
      [
        "SearchFeature -> ComposableRecording: only front ends, the composition root, support "
          + "modules, tools and tests may depend on the session recording (features stay plain "
          + "TCA)"
      ]
    ),
    (
      "runtime-depends-on-ours",
      ["ComposableArchitecture -> WeatherClient: the runtime must depend on nothing of ours"]
    ),
    (
      // The clean graph has a client interface and a feature on the vocabulary: both allowed.
      "vocabulary-depends-on-ours",
      ["Units -> WeatherClient: a vocabulary module must depend on nothing of ours"]
    ),
    (
      "runtime-depends-on-vocabulary",
      [
        "ComposableArchitecture -> Units: only features, clients, front ends and what composes "
          + "them may depend on the vocabulary"
      ]
    ),
  ])
  func brokenRuleIsNamed(fixture: String, expected: [String]) throws {
    #expect(try violations(in: fixture) == expected)
  }

  @Test func everyOffendingEdgeIsNamedInManifestOrder() throws {
    #expect(
      try violations(in: "several-violations") == [
        "FactClient -> ComposableArchitecture: an interface module must depend on nothing of ours "
          + "but the vocabulary",
        "SearchFeature -> WeatherClientLive: a feature must not depend on a live module",
        "SearchFeature -> CounterFeature: a feature must not depend on another feature "
          + "(allowed: `AppFeature` on any feature, `EpisodesFeature` on `FavoritingFeature`)",
      ])
  }

  @Test func aFrontEndInLayersMayDependOnItsOwnLayersButNotOnAFeature() {
    let module = { (name: String, dependencies: [String]) in
      PackageGraph.Target(
        name: name, path: "Modules/Frontends/Web/\(name)", type: "regular",
        dependencies: dependencies.map { .byName($0) })
    }
    let graph = PackageGraph(
      name: "Layers",
      targets: [
        module("WebJSON", []), module("WebSessions", ["WebJSON"]),
        module("WebRouter", ["WebSessions", "WebJSON", "CounterFeature"]),
        PackageGraph.Target(
          name: "CounterFeature", path: "Modules/Features/CounterFeature", type: "regular",
          dependencies: []),
      ])
    #expect(
      BoundaryRules().violations(in: graph).map(\.description) == [
        "WebRouter -> CounterFeature: a front end knows no feature: it may depend only on the "
          + "runtime, the session recording, the configuration module, support modules and "
          + "other front-end modules (not on a feature)"
      ])
  }

  @Test func targetsAreClassifiedByPath() throws {
    let graph = try fixture("clean")
    let kinds = Dictionary(
      uniqueKeysWithValues: graph.targets.map { ($0.name, ModuleKind(of: $0)) })
    #expect(kinds["ComposableArchitecture"] == .runtime)
    #expect(kinds["ComposableArchitectureMacros"] == .runtime)
    #expect(kinds["ComposableRecording"] == .recording)
    #expect(kinds["Units"] == .vocabulary)
    #expect(kinds["WeatherClient"] == .clientInterface)
    #expect(kinds["WeatherClientLive"] == .liveClient(interface: "WeatherClient"))
    #expect(kinds["WeatherClientOffline"] == .offlineClient(interface: "WeatherClient"))
    #expect(kinds["FactClientOffline"] == .offlineClient(interface: "FactClient"))
    #expect(kinds["LiveHTTP"] == .livePlumbing)
    #expect(kinds["FixtureServer"] == .other)
    #expect(kinds["EpisodesFeature"] == .feature)
    #expect(kinds["TerminalFrontend"] == .frontend)
    #expect(kinds["SearchTerminal"] == .frontendAdapter)
    #expect(kinds["search-preview"] == .preview)
    #expect(kinds["AppConfiguration"] == .configuration)
    #expect(kinds["AppComposition"] == .compositionRoot)
    #expect(kinds["app-cli"] == .executable)
    #expect(kinds["offline-bench"] == .tool)
    #expect(kinds["RuntimeBenchmarkSupport"] == .tool)
    #expect(kinds["SearchFeatureTests"] == .test)
  }

  @Test func moduleGraphPageListsEveryLayerAndEdgeOfTheManifest() throws {
    var graph = try fixture("clean")
    let page = ModuleGraphDocument(graph: graph).markdown
    #expect(
      page.contains(
        "| executables | `Apps/<name>` (an executable) | the composition root only | `app-cli` |"))
    #expect(page.contains("- `app-cli` → `AppComposition`\n"))
    #expect(!page.contains("SearchFeatureTests"))
    // A new edge in the manifest is a different page: the checked-in one would be stale.
    let index = try #require(graph.targets.firstIndex { $0.name == "SearchFeature" })
    graph.targets[index].dependencies.append(.byName("FactClient"))
    let changed = ModuleGraphDocument(graph: graph).markdown
    #expect(changed != page)
    #expect(
      changed.contains(
        "- `SearchFeature` → `ComposableArchitecture`, `WeatherClient`, `FactClient`"))
  }

  @Test func defaultPathsFollowSwiftPM() {
    let library = PackageGraph.Target(name: "Lib", path: nil, type: "regular", dependencies: [])
    let test = PackageGraph.Target(name: "LibTests", path: nil, type: "test", dependencies: [])
    let dotted = PackageGraph.Target(
      name: "X", path: "./Modules/Features/X/", type: "regular", dependencies: [])
    #expect(library.effectivePath == "Sources/Lib")
    #expect(test.effectivePath == "Tests/LibTests")
    #expect(ModuleKind(of: dotted) == .feature)
  }

  @Test func productsOfOtherPackagesAreNotOurs() throws {
    // A product that happens to share a name with one of our live modules is not that module.
    let graph = PackageGraph(
      name: "P",
      targets: [
        .init(
          name: "SearchFeature", path: "Modules/Features/SearchFeature", type: "regular",
          dependencies: [.product(name: "WeatherClientLive", package: "elsewhere")]),
        .init(
          name: "WeatherClientLive", path: "Modules/Clients/WeatherClientLive", type: "regular",
          dependencies: []),
      ])
    #expect(BoundaryRules().violations(in: graph) == [])
  }

  @Test func inputThatIsNotDumpPackageJSONIsRejected() {
    #expect(throws: (any Error).self) {
      try PackageGraph(dumpPackageJSON: Data(#"{"targets": [{"name": "A"}]}"#.utf8))
    }
  }

  @Test func commandLineToolFailsNamingTheEdge() throws {
    let fixtureURL = try #require(
      Bundle.module.url(
        forResource: "feature-depends-on-live", withExtension: "json",
        subdirectory: "Fixtures"))
    let result = try runTool(arguments: [fixtureURL.path])
    #expect(result.status == 1)
    #expect(
      result.output
        == "SearchFeature -> WeatherClientLive: a feature must not depend on a live module\n")
  }

  @Test func commandLineToolPassesCleanGraphFromStandardInput() throws {
    let fixtureURL = try #require(
      Bundle.module.url(forResource: "clean", withExtension: "json", subdirectory: "Fixtures"))
    let result = try runTool(arguments: [], standardInput: fixtureURL)
    #expect(result.status == 0)
    #expect(result.output.contains("every boundary rule holds"))
  }

  // MARK: Helpers

  private func fixture(_ name: String) throws -> PackageGraph {
    let url = try #require(
      Bundle.module.url(forResource: name, withExtension: "json", subdirectory: "Fixtures"))
    return try PackageGraph(dumpPackageJSON: Data(contentsOf: url))
  }

  private func violations(in name: String) throws -> [String] {
    BoundaryRules().violations(in: try fixture(name)).map(\.description)
  }

  /// Runs the `boundary-check` executable that `swift test` built next to the test bundle.
  private func runTool(
    arguments: [String], standardInput: URL? = nil
  ) throws -> (status: Int32, output: String) {
    let binDirectory = Bundle.module.bundleURL.deletingLastPathComponent()
    let process = Process()
    process.executableURL = binDirectory.appendingPathComponent("boundary-check")
    process.arguments = arguments
    if let standardInput {
      process.standardInput = try FileHandle(forReadingFrom: standardInput)
    }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: output, as: UTF8.self))
  }
}

/// `Fixtures/plain-tca-repo` is a repository in miniature: a runtime whose recording declares
/// `RecordDecodable` and `RecordedValue`, a feature that writes them and one that only mentions
/// them in comments and strings.
struct PlainTCARuleTests {
  let root = Bundle.module.url(forResource: "Fixtures/plain-tca-repo", withExtension: nil)!
  let graph = PackageGraph(
    name: "Fixture",
    targets: ["CounterFeature", "SearchFeature"].map { name in
      PackageGraph.Target(
        name: name, path: "Modules/Features/\(name)", type: "regular",
        dependencies: [.byName("ComposableArchitecture")])
    })

  @Test func theProjectOnlyNamesAreTheRecordingsFileScopeDeclarations() throws {
    let rule = try PlainTCARule(repositoryRoot: root)
    #expect(rule.projectOnlyNames == ["RecordDecodable", "RecordedValue"])
  }

  @Test func aFeatureThatWritesAProjectOnlyNameBreaksTheRule() throws {
    let violations = try PlainTCARule(repositoryRoot: root).violations(
      in: graph, repositoryRoot: root)
    #expect(
      violations.map(\.description) == [
        "Modules/Features/CounterFeature/Counter.swift:6: RecordDecodable: \(PlainTCARule.rule)",
        "Modules/Features/CounterFeature/Counter.swift:11: RecordedValue: \(PlainTCARule.rule)",
      ])
  }

  @Test func commentsStringsAndMembersDoNotCount() {
    let rule = PlainTCARule(projectOnlyNames: ["RecordedValue"])
    let source = """
      let a = "RecordedValue \\" RecordedValue"  // RecordedValue
      /* RecordedValue
         RecordedValue */ let b = RecordedValue.self
      """
    #expect(rule.violations(file: "F.swift", source: source).map(\.line) == [3])
  }
}

/// Imports read from sources: what a target imports of the package must be what it declares.
struct ImportRuleTests {
  let graph = PackageGraph(
    name: "Fixture",
    targets: [
      PackageGraph.Target(
        name: "WebFrontend", path: "Modules/Frontends/WebFrontend", type: "regular",
        dependencies: [
          .byName("ComposableArchitecture"), .product(name: "Hummingbird", package: "hb"),
        ]),
      PackageGraph.Target(
        name: "ComposableArchitecture", path: "Modules/ComposableArchitecture/Sources",
        type: "regular", dependencies: []),
      PackageGraph.Target(
        name: "EpisodesFeature", path: "Modules/Features/EpisodesFeature", type: "regular",
        dependencies: [.target("ComposableArchitecture")]),
    ])

  @Test func everySpellingOfAnImportIsRead() {
    let source = """
      import Foundation
      @testable import EpisodesFeature
      @_exported import ComposableArchitecture
      @preconcurrency import struct WebFrontend.Thing
        import EpisodesFeature.Sub
      // import Commented
      let text = "import Quoted"
      let block = \"\"\"
        import InAString
        \"\"\"
      """
    #expect(
      ImportRule.imports(in: source).map { "\($0.line) \($0.module)" } == [
        "1 Foundation", "2 EpisodesFeature", "3 ComposableArchitecture", "4 WebFrontend",
        "5 EpisodesFeature",
      ])
  }

  @Test func anUndeclaredImportOfThePackageIsNamedWithItsLine() {
    let web = graph.targets[0]
    let violations = ImportRule().violations(
      of: web, in: graph,
      sources: [
        (
          "Modules/Frontends/WebFrontend/Server/WebServer.swift",
          "import ComposableArchitecture\nimport EpisodesFeature\nimport Hummingbird\n"
        ),
        ("Modules/Frontends/WebFrontend/Own.swift", "import WebFrontend\nimport Foundation\n"),
      ])
    #expect(
      violations.map(\.description) == [
        "Modules/Frontends/WebFrontend/Server/WebServer.swift:2: EpisodesFeature: WebFrontend "
          + ImportRule.rule
      ])
  }

  @Test func declaredImportsInEverySpellingPass() {
    let feature = graph.targets[2]
    #expect(
      ImportRule().violations(
        of: feature, in: graph,
        sources: [("F.swift", "import ComposableArchitecture\nimport Dependencies\n")]
      ).isEmpty)
  }
}
