// swift-tools-version: 6.1
//
// Checks the module boundaries of the root package: which layer may depend on which.
// No dependencies beyond the toolchain, so it builds in seconds. Run it with
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
    .executableTarget(name: "boundary-check", dependencies: ["BoundaryRules"]),
    .testTarget(
      name: "BoundaryRulesTests",
      dependencies: ["BoundaryRules"],
      resources: [.copy("Fixtures")]
    ),
  ]
)
