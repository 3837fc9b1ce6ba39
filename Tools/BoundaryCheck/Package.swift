// swift-tools-version: 6.1
//
// Checks the module boundaries of the root package (which layer may depend on which), and writes
// what the app's composition derives from the features table. No dependencies beyond the
// toolchain, so it builds in seconds. Run it with
// `Tools/boundary-check` from the repository root; see docs/benchmarks.md and the rules in
// Sources/BoundaryRules/BoundaryRules.swift.

import PackageDescription

let package = Package(
  name: "BoundaryCheck",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "boundary-check", targets: ["boundary-check"])
  ],
  targets: [
    .target(name: "BoundaryRules"),
    // What the app's composition derives from the features table (Sources/Composition).
    .target(name: "Composition", dependencies: ["BoundaryRules"]),
    .executableTarget(name: "boundary-check", dependencies: ["BoundaryRules", "Composition"]),
    .testTarget(
      name: "BoundaryRulesTests",
      dependencies: ["BoundaryRules", "Composition"],
      resources: [.copy("Fixtures")]
    ),
  ]
)
