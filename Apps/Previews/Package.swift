// swift-tools-version: 6.1
// The terminal previews as a package of their own, for the edit loop of a team that owns one
// feature: its package graph holds only what the previews link (the runtime's packages, no server
// and no storage), so SwiftPM loads and plans a fraction of the root package's graph before every
// build. The same sources are products of the root package too (`swift run counter-preview`);
// Tests/EndToEnd/preview_test.py checks that both declare the same dependencies.
//
//   swift build --package-path Apps/Previews --product counter-preview
//   Apps/Previews/.build/debug/counter-preview
import PackageDescription

func app(_ module: String) -> Target.Dependency {
  .product(name: module, package: "ComposableApp")
}

let package = Package(
  name: "Previews",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ComposableApp", path: "../..")],
  targets: [
    .executableTarget(
      name: "counter-preview",
      dependencies: [
        "TerminalFrontend", "CounterTerminal", "CounterFeature", "FactClient", "FactClientOffline",
        "RandomNumberClient", "ComposableArchitecture",
      ].map(app),
      path: "counter-preview"
    ),
    .executableTarget(
      name: "search-preview",
      dependencies: [
        "TerminalFrontend", "SearchTerminal", "SearchFeature", "WeatherClient",
        "WeatherClientOffline", "ComposableArchitecture",
      ].map(app),
      path: "search-preview"
    ),
    .executableTarget(
      name: "settings-preview",
      dependencies: [
        "TerminalFrontend", "SettingsTerminal", "SettingsFeature", "SettingsClient",
        "ComposableArchitecture",
      ].map(app),
      path: "settings-preview"
    ),
    .executableTarget(
      name: "episodes-preview",
      dependencies: [
        "TerminalFrontend", "EpisodesTerminal", "EpisodesFeature", "FavoriteClient",
        "ComposableArchitecture",
      ].map(app),
      path: "episodes-preview"
    ),
  ]
)
