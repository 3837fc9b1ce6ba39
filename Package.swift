// swift-tools-version: 6.1
//
// One package for the whole monorepo. Targets are grouped by layer; the
// dependency rules between layers are described in docs/architecture.md and
// checked by Tools/boundary-check.

import CompilerPluginSupport
import PackageDescription

// MARK: - Third-party products

let casePaths = Target.Dependency.product(name: "CasePaths", package: "swift-case-paths")
let clocks = Target.Dependency.product(name: "Clocks", package: "swift-clocks")
let concurrencyExtras = Target.Dependency.product(
  name: "ConcurrencyExtras", package: "swift-concurrency-extras")
let customDump = Target.Dependency.product(name: "CustomDump", package: "swift-custom-dump")
let dependencies = Target.Dependency.product(name: "Dependencies", package: "swift-dependencies")
let dependenciesMacros = Target.Dependency.product(
  name: "DependenciesMacros", package: "swift-dependencies")
let identifiedCollections = Target.Dependency.product(
  name: "IdentifiedCollections", package: "swift-identified-collections")
let logging = Target.Dependency.product(name: "Logging", package: "swift-log")
let orderedCollections = Target.Dependency.product(
  name: "OrderedCollections", package: "swift-collections")
let issueReporting = Target.Dependency.product(
  name: "IssueReporting", package: "xctest-dynamic-overlay")
// SwiftNIO: only the FixtureServer support target, the web front end (a server: its connection
// deadlines are a channel handler) and test targets may use it.
let nioCore = Target.Dependency.product(name: "NIOCore", package: "swift-nio")
let nioPosix = Target.Dependency.product(name: "NIOPosix", package: "swift-nio")
let nioHTTP1 = Target.Dependency.product(name: "NIOHTTP1", package: "swift-nio")

// MARK: - Features

/// One of the app's features, as its line in ``features`` declares it; the rest follows from the
/// conventions of the repository's folders:
/// - its module `<Name>Feature` in `Modules/Features/<Name>Feature`, depending on the runtime and
///   on what it `uses` (client interfaces, the vocabulary, other features), and its tests
///   `<Name>FeatureTests` in `Tests/<Name>FeatureTests`;
/// - its adapter to each of its `frontEnds`, `<Name><FrontEnd>` in
///   `Modules/Frontends/Adapters/<Name>/<FrontEnd>` (`CounterTerminal`, `CounterWeb`), written
///   against the feature alone: the front end's core, the feature, the runtime and what the
///   feature uses; a web adapter's `Public/` folder is its section of the page;
/// - its terminal preview, when it has one: the executable `<name>-preview` in
///   `Apps/Previews/<name>-preview`, linking the terminal core, its adapter, the feature, what the
///   feature uses and the preview's own clients (`preview`: offline ones);
/// - its place in the app: the composition's modules (AppFeature, AppTerminal, AppWeb,
///   AppRecording, the web preview) depend on every feature, adapter and client listed here.
///
/// Everything is written here, not found on disk: SwiftPM evaluates a manifest again only when
/// its own text changes, so a manifest that listed folders or read imports would not see a new
/// one.
struct Feature {
  let name: String
  /// Client interfaces, vocabulary and other features the module depends on.
  let uses: [String]
  /// The front ends it has an adapter for.
  let frontEnds: [String]
  /// What its terminal preview links besides the feature and what it uses (offline clients), or
  /// `nil` when it has no preview.
  let preview: [String]?

  init(
    _ name: String, uses: [String] = [], frontEnds: [String] = ["Terminal", "Web"],
    preview: [String]? = []
  ) {
    self.name = name
    self.uses = uses
    self.frontEnds = frontEnds
    self.preview = preview
  }

  var module: String { name + "Feature" }
}

/// The app's features: adding one is adding its line here and its folders.
let features = [
  Feature("Counter", uses: ["FactClient", "RandomNumberClient"], preview: ["FactClientOffline"]),
  Feature("Search", uses: ["WeatherClient"], preview: ["WeatherClientOffline"]),
  Feature("Settings", uses: ["SettingsClient", "Units"]),
  Feature("Favoriting", frontEnds: [], preview: nil),
  Feature("Episodes", uses: ["FavoriteClient", "FavoritingFeature"]),
]

func byName(_ name: String) -> Target.Dependency { .byName(name: name) }

/// `names` in order, each once.
func unique(_ names: [String]) -> [String] {
  var seen: Set<String> = []
  return names.filter { seen.insert($0).inserted }
}

let featureModules = features.map(\.module)
/// The client interfaces the features use.
let featureUses = unique(features.flatMap(\.uses).filter { !featureModules.contains($0) })
/// The clients the previews use besides the features' (offline ones).
let previewClients = unique(features.flatMap { $0.preview ?? [] })
let adapterModules = { (frontEnd: String) in
  features.filter { $0.frontEnds.contains(frontEnd) }.map { $0.name + frontEnd }
}

/// Each feature's targets: its module, its tests and its adapters.
let featureTargets: [Target] = features.flatMap { feature -> [Target] in
  let uses = feature.uses.map { Target.Dependency.byName(name: $0) }
  return [
    .target(
      name: feature.module, dependencies: ["ComposableArchitecture"] + uses,
      path: "Modules/Features/\(feature.module)"),
    .testTarget(
      name: feature.module + "Tests",
      dependencies: [.byName(name: feature.module), "ComposableArchitecture"] + uses,
      path: "Tests/\(feature.module)Tests"),
  ]
    + feature.frontEnds.map { frontEnd in
      .target(
        name: feature.name + frontEnd,
        dependencies: [
          .byName(name: frontEnd + "Frontend"), .byName(name: feature.module),
          "ComposableArchitecture",
        ] + uses,
        path: "Modules/Frontends/Adapters/\(feature.name)/\(frontEnd)",
        resources: frontEnd == "Web" ? [.copy("Public")] : nil)
    }
    // Each web adapter's tests: its section served alone, over HTTP in process (WebAdapterTesting),
    // built without the app and the other features.
    + feature.frontEnds.filter { $0 == "Web" }.map { frontEnd in
      .testTarget(
        name: feature.name + frontEnd + "Tests",
        dependencies: [
          .byName(name: feature.name + frontEnd), .byName(name: feature.module), "WebFrontend",
          "WebAdapterTesting", "ComposableArchitecture",
        ] + uses,
        path: "Tests/Adapters/\(feature.name)/\(frontEnd)")
    }
}

// MARK: - Previews

/// Each feature's terminal preview: the feature's screen alone, on offline or in-memory clients,
/// linking neither the server nor the storage (Hummingbird, SwiftNIO, PostgresNIO, GRDB).
/// Apps/Previews/Package.swift declares the same (Tests/EndToEnd/preview_test.py compares them).
let previews: [(name: String, modules: [String])] = features.compactMap { feature in
  feature.preview.map { extra in
    (
      feature.name.lowercased() + "-preview",
      unique(
        ["TerminalFrontend", feature.name + "Terminal", feature.module] + feature.uses + extra
          + ["ComposableArchitecture"])
    )
  }
}

/// What the terminal previews link: each a library product, so that the previews' own package
/// builds them from a package graph without the server's and the storage's packages, which is
/// what keeps its edit loop short.
let previewModules = unique(previews.flatMap(\.modules))

// MARK: - Package

let package = Package(
  name: "ComposableApp",
  platforms: [.macOS(.v15)],
  products: [
    .library(name: "ComposableArchitecture", targets: ["ComposableArchitecture"])
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-case-paths", from: "1.10.0"),
    .package(url: "https://github.com/pointfreeco/swift-clocks", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", from: "1.4.3"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(
      url: "https://github.com/pointfreeco/swift-dependencies", from: "1.17.1",
      traits: ["Clocks", "Foundation", "FoundationNetworking"]),
    .package(url: "https://github.com/pointfreeco/swift-identified-collections", from: "1.1.1"),
    .package(url: "https://github.com/pointfreeco/xctest-dynamic-overlay", from: "1.13.1"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swiftlang/swift-syntax", from: "602.0.0"),
    .package(url: "https://github.com/pointfreeco/swift-macro-testing", from: "0.7.0"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-crypto", "3.12.3"..<"5.0.0"),
  ],
  targets: [
    // MARK: Runtime
    .macro(
      name: "ComposableArchitectureMacros",
      dependencies: [
        .product(name: "SwiftSyntax", package: "swift-syntax"),
        .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
        .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
        .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
      ],
      path: "Modules/ComposableArchitecture/Macros"
    ),
    // Shared state and its keys (`.appStorage`, `.fileStorage`, `.inMemory`), re-exported by the
    // runtime as the reference library re-exports its sharing library.
    .target(
      name: "Sharing",
      dependencies: [concurrencyExtras, customDump, dependencies],
      path: "Modules/ComposableArchitecture/Sharing"
    ),
    .target(
      name: "ComposableArchitecture",
      dependencies: [
        "ComposableArchitectureMacros", "Sharing",
        casePaths, clocks, concurrencyExtras, customDump, dependencies, dependenciesMacros,
        identifiedCollections, issueReporting, logging, orderedCollections,
      ],
      path: "Modules/ComposableArchitecture/Sources"
    ),
    // Recording a root store's session and replaying it: the dependency tape, records and their
    // files, the replay, and what a test written from a record answers with. It watches a store
    // through the runtime's one step hook, so the runtime carries none of it.
    // JSON read strictly and written in order: the one JSON parser of the project, which the
    // session recording and the web API share.
    .target(
      name: "JSON",
      path: "Modules/ComposableArchitecture/JSON"
    ),
    .target(
      name: "ComposableRecording",
      dependencies: [
        "ComposableArchitecture", "Sharing", "JSON", casePaths, clocks, customDump, dependencies,
        issueReporting,
      ],
      path: "Modules/ComposableArchitecture/Recording"
    ),

    // MARK: Vocabulary: words of the app that features and client interfaces share; they depend on
    // nothing of ours.
    .target(
      name: "Units",
      path: "Modules/Vocabulary/Units"
    ),

    // MARK: Clients (interface + live) — BEGIN clients section
    // Interfaces: what features compile against (swift-dependencies and the vocabulary only).
    .target(
      name: "WeatherClient",
      dependencies: ["Units", dependencies, dependenciesMacros],
      path: "Modules/Clients/WeatherClient"
    ),
    .target(
      name: "RandomNumberClient",
      dependencies: [dependencies, dependenciesMacros],
      path: "Modules/Clients/RandomNumberClient"
    ),
    .target(
      name: "FactClient",
      dependencies: [dependencies, dependenciesMacros],
      path: "Modules/Clients/FactClient"
    ),
    .target(
      name: "FavoriteClient",
      dependencies: [dependencies, dependenciesMacros],
      path: "Modules/Clients/FavoriteClient"
    ),
    .target(
      name: "SettingsClient",
      dependencies: [dependencies, dependenciesMacros],
      path: "Modules/Clients/SettingsClient"
    ),
    // Live implementations: only executables link these.
    .target(
      name: "WeatherClientLive",
      dependencies: ["WeatherClient", "LiveHTTP", "AppConfiguration", dependencies],
      path: "Modules/Clients/WeatherClientLive"
    ),
    .target(
      name: "RandomNumberClientLive",
      dependencies: ["RandomNumberClient", "LiveHTTP", "AppConfiguration", dependencies],
      path: "Modules/Clients/RandomNumberClientLive"
    ),
    .target(
      name: "FactClientLive",
      dependencies: ["FactClient", "LiveHTTP", "AppConfiguration", dependencies],
      path: "Modules/Clients/FactClientLive"
    ),
    // Offline implementations: embedded data, no network; only executables link these.
    .target(
      name: "WeatherClientOffline",
      dependencies: ["WeatherClient"],
      path: "Modules/Clients/WeatherClientOffline",
      resources: [
        .copy("Resources/gazetteer.tsv"), .copy("Resources/gazetteer.index"),
        .copy("Resources/ATTRIBUTION.md"),
      ]
    ),
    .target(
      name: "FactClientOffline",
      dependencies: ["FactClient"],
      path: "Modules/Clients/FactClientOffline"
    ),
    .target(
      name: "FavoriteClientLive",
      dependencies: ["FavoriteClient", "LiveStorage"],
      path: "Modules/Clients/FavoriteClientLive"
    ),
    .target(
      name: "SettingsClientLive",
      dependencies: ["SettingsClient", "LiveStorage"],
      path: "Modules/Clients/SettingsClientLive"
    ),
    // Storage shared by the live modules that keep data: SQLite through GRDB (the system's
    // libsqlite3; Tools/test-all installs libsqlite3-dev where it is missing).
    .target(
      name: "LiveStorage",
      dependencies: [
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "Crypto", package: "swift-crypto"),
      ],
      path: "Modules/Clients/LiveStorage"
    ),
    // The same storage in PostgreSQL (postgres-nio), for several servers sharing one database;
    // only app-server links it (DATABASE_URL).
    .target(
      name: "LivePostgres",
      dependencies: [
        "LiveStorage", logging, .product(name: "PostgresNIO", package: "postgres-nio"),
      ],
      path: "Modules/Clients/LivePostgres"
    ),
    // HTTP plumbing shared by the live modules (Foundation only); nothing else depends on it.
    .target(
      name: "LiveHTTP",
      dependencies: [.product(name: "Metrics", package: "swift-metrics")],
      path: "Modules/Clients/LiveHTTP"
    ),
    // Writes a recorded session as a TestStore test (record-to-test); Foundation and the runtime.
    .target(
      name: "SessionTestWriter",
      dependencies: ["ComposableArchitecture", "ComposableRecording"],
      path: "Modules/Support/SessionTestWriter"
    ),
    // Test support: a feature's web adapter served alone, in process, and the promises every
    // adapter keeps (its adapter test target uses it).
    .target(
      name: "WebAdapterTesting",
      dependencies: [
        "ComposableArchitecture", "JSON", "WebFrontend", "WebHTTP", "WebSessions", "WebRoutes",
        logging, .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ],
      path: "Modules/Support/WebAdapterTesting"
    ),
    // Test support: a real HTTP/1.1 server on 127.0.0.1 serving canned responses.
    .target(
      name: "FixtureServer",
      dependencies: [nioCore, nioPosix, nioHTTP1],
      path: "Modules/Support/FixtureServer"
    ),
    // MARK: Clients — END clients section

    // MARK: Features (runtime + client interfaces only): `features` above, and the app's root
    .target(
      name: "AppFeature",
      dependencies: ["ComposableArchitecture"] + (featureModules + featureUses).map(byName),
      path: "Modules/Features/AppFeature"
    ),

    // MARK: Front ends and apps (terminal)
    // The terminal front end: keys, drawing and the reducer that drives any root feature through
    // the screens it registers. It knows no feature.
    .target(
      name: "TerminalFrontend",
      dependencies: ["ComposableArchitecture", "ComposableRecording"],
      path: "Modules/Frontends/TerminalFrontend"
    ),
    .executableTarget(
      name: "app-cli",
      dependencies: ["AppComposition"],
      path: "Apps/app-cli"
    ),
    // MARK: Front ends and apps (terminal) — END

    // MARK: Web server — BEGIN web server section
    // The web front end's HTTP hardening: the request line, deadlines, the guard (Host, Origin,
    // methods, security headers), per-client limits, and the refusal every route answers with.
    // Hummingbird and SwiftNIO only: it knows no session and no feature.
    .target(
      name: "WebHTTP",
      dependencies: [
        logging, nioCore, nioPosix, nioHTTP1,
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
        .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
      ],
      path: "Modules/Frontends/WebHTTP"
    ),
    // The web front end as a feature's web adapter sees it: the API a feature declares (its
    // actions, the JSON view of its state), the page's sections and frame, and JSON. It knows no
    // HTTP and no session.
    .target(
      name: "WebFrontend",
      dependencies: ["ComposableArchitecture", "JSON"],
      path: "Modules/Frontends/WebFrontend",
      resources: [.copy("Public")]
    ),
    // Sessions: one store per visitor of the root feature a WebApp hands it, kept, saved and
    // resumed. No HTTP: its refusals are its own (SessionError), and the routes answer them.
    .target(
      name: "WebSessions",
      dependencies: [
        "WebFrontend", "ComposableArchitecture", "ComposableRecording", logging, nioCore,
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ],
      path: "Modules/Frontends/WebSessions"
    ),
    // The routes (session, actions, events, recording, probes, the page's files) over sessions,
    // behind WebHTTP's guard; the server's metrics; the server that runs them.
    .target(
      name: "WebRoutes",
      dependencies: [
        "WebHTTP", "WebSessions", "WebFrontend", "ComposableArchitecture", "ComposableRecording",
        "SessionTestWriter", logging, nioCore,
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ],
      path: "Modules/Frontends/WebRoutes"
    ),
    .executableTarget(
      name: "app-server",
      dependencies: ["AppComposition"],
      path: "Apps/app-server",
      // What an operator deploys beside it (HAProxy's error page), not a source.
      exclude: ["deploy"]
    ),
    // The web preview: any one feature's section of the page alone (`--feature counter`), with
    // the same front end and adapters as app-server, on offline and in-memory clients; no storage.
    .executableTarget(
      name: "preview-server",
      dependencies: [
        "WebFrontend", "WebSessions", "WebRoutes", "WebHTTP", "ComposableArchitecture", logging,
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ] + (adapterModules("Web") + featureModules + featureUses + previewClients).map(byName),
      path: "Apps/Previews/preview-server"
    ),
    // MARK: Web server — END web server section

    // MARK: Composition
    // Settings both executables share: flags over environment variables over defaults, checked
    // in one place (swift-configuration for the look-up, swift-argument-parser for --help).
    .target(
      name: "AppConfiguration",
      dependencies: [
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Configuration", package: "swift-configuration"),
      ],
      path: "Modules/Configuration/AppConfiguration"
    ),
    // The app in the terminal: its tabs (the four screens lifted into AppFeature) and app-cli's
    // command line (the interactive app and the one-shot commands). It names the app's features,
    // so it lives with the app's composition, not in the front end.
    .target(
      name: "AppTerminal",
      dependencies: [
        "TerminalFrontend", "AppFeature", "AppRecording", "ComposableArchitecture",
        "ComposableRecording", "AppConfiguration", "SessionTestWriter",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ] + (adapterModules("Terminal") + featureModules + featureUses).map(byName),
      path: "Apps/AppTerminal"
    ),
    // How a session of the app is recorded and replayed: the clients its features call, wrapped
    // so a record keeps their answers, and the start state a test made from a record begins at.
    // Beside the composition root, so that the features stay plain TCA.
    .target(
      name: "AppRecording",
      dependencies: ["AppFeature", "ComposableArchitecture", "ComposableRecording"]
        + featureUses.map(byName),
      path: "Apps/AppRecording"
    ),
    // The app on the web: its features' web parts lifted into AppFeature (AppFeature.webAPI), its
    // own frame (TabsPage) and the WebApp the server runs. Beside the composition root, since it
    // names the app's features.
    .target(
      name: "AppWeb",
      dependencies: [
        "WebFrontend", "WebSessions", "AppFeature", "AppRecording", "ComposableArchitecture",
      ]
        + adapterModules("Web").map(byName),
      path: "Apps/AppWeb"
    ),
    // The composition root: the one module that links live clients, storage and front ends, a
    // library in Apps/ beside the two executables (choosing implementations is Apps/' job);
    // each executable is one call into it.
    .target(
      name: "AppComposition",
      dependencies: [
        "AppConfiguration", "AppTerminal", "AppWeb", "WebFrontend", "WebSessions", "WebRoutes",
        "WebHTTP", "WeatherClient",
        "WeatherClientLive", "WeatherClientOffline", "FactClient", "FactClientLive",
        "FactClientOffline", "RandomNumberClient", "RandomNumberClientLive", "FavoriteClient",
        "FavoriteClientLive", "SettingsClient", "SettingsClientLive", "LiveStorage",
        "LivePostgres", "LiveHTTP", "ComposableArchitecture", logging, dependencies,
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Metrics", package: "swift-metrics"),
      ],
      path: "Apps/AppComposition"
    ),
    // MARK: Web server — END web server section

    // MARK: Tools
    // The runtime benchmark (Tools/runtime-benchmark builds it in release and drives it).
    .executableTarget(
      name: "runtime-bench",
      dependencies: ["ComposableArchitecture", "ComposableRecording", "RuntimeBenchmarkSupport"],
      path: "Tools/RuntimeBenchmark/Sources"
    ),
    // The storage benchmark (Tools/storage-benchmark builds it in release and runs it).
    .executableTarget(
      name: "storage-bench",
      dependencies: [
        "FavoriteClient", "FavoriteClientLive", "SettingsClient", "SettingsClientLive",
        "LiveStorage", "LivePostgres", "AppFeature", "CounterFeature",
      ],
      path: "Tools/StorageBenchmark"
    ),
    // The baselines of the server benchmark (Tools/server-benchmark): the limit, a bare
    // Hummingbird route answering a fixed body of the same size; and the hand-written peer, a
    // typed Hummingbird app with the same durability (GRDB, answered after commit), which with
    // `--floor` is the durable floor: the same commits, no JSON, a fixed answer of the same size.
    .executableTarget(
      name: "limit-server",
      dependencies: [
        logging,
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ],
      path: "Tools/ServerBenchmark/Limit"
    ),
    .executableTarget(
      name: "peer-server",
      dependencies: [
        logging,
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tools/ServerBenchmark/Peer"
    ),
    // The offline gazetteer benchmark: load time, memory, time per query (docs/benchmarks.md).
    .executableTarget(
      name: "offline-bench",
      dependencies: ["WeatherClientOffline", "WeatherClient"],
      path: "Tools/OfflineBenchmark"
    ),
    // C support of runtime-bench: a heap allocation counter, an optimizer sink and a loop that
    // serves the main queue; linked only into runtime-bench.
    .target(
      name: "RuntimeBenchmarkSupport",
      path: "Tools/RuntimeBenchmark/Support"
    ),

    // MARK: Tests
    // MARK: Client tests — BEGIN client tests section
    .testTarget(
      name: "WeatherClientTests",
      dependencies: ["WeatherClient", dependencies],
      path: "Tests/WeatherClientTests"
    ),
    .testTarget(
      name: "RandomNumberClientTests",
      dependencies: ["RandomNumberClient", dependencies],
      path: "Tests/RandomNumberClientTests"
    ),
    .testTarget(
      name: "FactClientTests",
      dependencies: ["FactClient", dependencies],
      path: "Tests/FactClientTests"
    ),
    .testTarget(
      name: "WeatherClientLiveTests",
      dependencies: [
        "WeatherClientLive", "WeatherClient", "LiveHTTP", "AppConfiguration", "FixtureServer",
        dependencies,
      ],
      path: "Tests/WeatherClientLiveTests",
      resources: [.copy("Fixtures")]
    ),
    .testTarget(
      name: "RandomNumberClientLiveTests",
      dependencies: [
        "RandomNumberClientLive", "RandomNumberClient", "LiveHTTP", "AppConfiguration",
        "FixtureServer", dependencies,
      ],
      path: "Tests/RandomNumberClientLiveTests"
    ),
    .testTarget(
      name: "FactClientLiveTests",
      dependencies: [
        "FactClientLive", "FactClient", "LiveHTTP", "AppConfiguration", "FixtureServer",
        dependencies,
      ],
      path: "Tests/FactClientLiveTests"
    ),
    .testTarget(
      name: "StorageTests",
      dependencies: [
        "LiveStorage", "LivePostgres", "FavoriteClient", "FavoriteClientLive", "SettingsClient",
        "SettingsClientLive", dependencies, .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ],
      path: "Tests/StorageTests"
    ),
    .testTarget(
      name: "WeatherClientOfflineTests",
      dependencies: ["WeatherClientOffline", "WeatherClient"],
      path: "Tests/WeatherClientOfflineTests"
    ),
    .testTarget(
      name: "FactClientOfflineTests",
      dependencies: ["FactClientOffline", "FactClient"],
      path: "Tests/FactClientOfflineTests"
    ),
    .testTarget(
      name: "FixtureServerTests",
      dependencies: ["FixtureServer"],
      path: "Tests/FixtureServerTests"
    ),
    // MARK: Client tests — END client tests section
    .testTarget(
      name: "ComposableArchitectureTests",
      dependencies: [
        "ComposableArchitecture", "Sharing",
        // Tells when each XCTest case starts, on Linux (XCTExpectFailure without a block).
        .product(name: "DependenciesTestObserver", package: "swift-dependencies"),
      ],
      path: "Tests/ComposableArchitectureTests"
    ),
    // The runtime's macros, expanded from source: what each one writes (swift-macro-testing).
    .testTarget(
      name: "MacroTests",
      dependencies: [
        "ComposableArchitectureMacros",
        .product(name: "MacroTesting", package: "swift-macro-testing"),
        .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
      ],
      path: "Tests/MacroTests"
    ),
    .testTarget(
      name: "AppFeatureTests",
      dependencies: unique(
        ["AppFeature", "ComposableArchitecture"] + featureModules + featureUses
          + ["FavoriteClient", "SettingsClient"]
      ).map(byName),
      path: "Tests/AppFeatureTests"
    ),
    // Recording a session and writing it as a test; the committed sample record and the test
    // written from it (Generated/), which CI writes again and compares.
    .testTarget(
      name: "RecordingTests",
      dependencies: [
        "AppFeature", "AppRecording", "ComposableArchitecture", "ComposableRecording",
        "SessionTestWriter", "CounterFeature",
        "EpisodesFeature",
        "FavoritingFeature", "SearchFeature", "SettingsFeature", "FactClient", "FavoriteClient",
        "RandomNumberClient", "SettingsClient", "WeatherClient",
      ],
      path: "Tests/RecordingTests",
      resources: [.copy("Records")]
    ),
    .testTarget(
      name: "TerminalFrontendTests",
      dependencies: [
        "TerminalFrontend", "AppTerminal", "AppFeature", "ComposableArchitecture",
        "ComposableRecording", "CounterFeature",
        "SearchFeature",
        "SettingsFeature", "EpisodesFeature", "SearchTerminal", "SettingsTerminal",
        "FavoriteClient",
        "SettingsClient",
        "WeatherClient",
      ],
      path: "Tests/TerminalFrontendTests"
    ),
    // MARK: Web server tests — BEGIN web server tests section
    .testTarget(
      name: "WebFrontendTests",
      dependencies: [
        "WebFrontend", "WebHTTP", "WebSessions", "WebRoutes", "AppWeb", "CounterWeb", "SearchWeb",
        "SettingsWeb",
        "EpisodesWeb",
        "ComposableArchitecture", "ComposableRecording", "AppFeature", "CounterFeature",
        "SearchFeature", "EpisodesFeature", "WeatherClient", "WeatherClientLive", "FactClient",
        "RandomNumberClient", "FixtureServer", "FavoriteClient", "SettingsClient", logging,
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ],
      path: "Tests/WebFrontendTests",
      resources: [.copy("Fixtures")]
    ),
    // MARK: Web server tests — END web server tests section
    .testTarget(
      name: "AddingAFeatureTests",
      dependencies: [
        "ComposableArchitecture", "WebFrontend", "WebSessions", "WebRoutes", "TerminalFrontend",
        .product(name: "HTTPTypes", package: "swift-http-types"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
      ],
      path: "Tests/AddingAFeatureTests",
      resources: [.copy("Public")]
    ),
    .testTarget(
      name: "AppCompositionTests",
      dependencies: [
        "AppComposition", "AppConfiguration", "AppTerminal", "WebFrontend", "WebSessions",
        "WebRoutes",
        "FavoriteClient",
        dependencies,
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      path: "Tests/AppCompositionTests"
    ),
    .testTarget(
      name: "JSONTests",
      dependencies: ["JSON"],
      path: "Tests/JSONTests"
    ),
    .testTarget(
      name: "SeedReducersTests",
      dependencies: ["ComposableArchitecture"],
      path: "Tests/SeedReducersTests"
    ),
  ]
)

// The features' targets and previews, and what the previews' own package uses of this one.
package.targets += featureTargets
package.targets += previews.map { preview in
  .executableTarget(
    name: preview.name, dependencies: preview.modules.map(byName),
    path: "Apps/Previews/\(preview.name)")
}
let products = Set(package.products.map(\.name))
package.products += previewModules.filter { !products.contains($0) }.map {
  .library(name: $0, targets: [$0])
}

// Every test target links IssueReporting's test support, so that issues the runtime reports
// (TestStore failures, unimplemented dependencies) are recorded by Swift Testing.
for target in package.targets where target.type == .test {
  target.dependencies.append(
    .product(name: "IssueReportingTestSupport", package: "xctest-dynamic-overlay"))
}
