// swift-tools-version: 6.1
// The terminal previews as a package of their own, for the edit loop of a team that owns one
// feature: its package graph holds only what the previews link (the runtime's packages, no server
// and no storage), so SwiftPM loads and plans a fraction of the root package's graph before every
// build. The same sources are products of the root package too (`swift run counter-preview`),
// whose `features` table declares each preview: `Tools/boundary-check --update` writes this
// manifest's list from it, and the boundary check fails while the two differ.
//
//   swift build --package-path Apps/Previews --product counter-preview
//   Apps/Previews/.build/debug/counter-preview
import PackageDescription

/// A feature's preview, `Apps/Previews/<name>-preview`: the terminal core, the feature's screen,
/// the feature, what it uses and its offline or in-memory clients — the root's library products.
func preview(_ name: String, _ modules: [String]) -> Target {
  .executableTarget(
    name: name + "-preview",
    dependencies: (["TerminalFrontend"] + modules + ["ComposableArchitecture"]).map {
      .product(name: $0, package: "ComposableApp")
    },
    path: name + "-preview")
}

let package = Package(
  name: "Previews",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ComposableApp", path: "../..")],
  targets: [
    // BEGIN GENERATED previews: `Tools/boundary-check --update` writes these lines
    preview(
      "counter",
      [
        "CounterTerminal", "CounterFeature", "FactClient", "RandomNumberClient",
        "FactClientOffline",
      ]),
    preview(
      "search", ["SearchTerminal", "SearchFeature", "WeatherClient", "WeatherClientOffline"]),
    preview("settings", ["SettingsTerminal", "SettingsFeature", "SettingsClient", "Units"]),
    preview(
      "episodes", ["EpisodesTerminal", "EpisodesFeature", "FavoriteClient", "FavoritingFeature"]),
    // END GENERATED previews
  ]
)
