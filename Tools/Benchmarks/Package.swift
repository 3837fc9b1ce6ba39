// swift-tools-version: 6.1
//
// Runtime benchmarks for the ComposableArchitecture module of the root package.
// Run them with `Tools/runtime-benchmark` (or, from this folder,
// `swift package --allow-writing-to-package-directory benchmark`). See docs/benchmarks.md.

import Foundation
import PackageDescription

// The runtime under test: the root package of this repository, or another checkout of it named by
// BENCHMARK_RUNTIME_PATH (to measure a proposed runtime change against the same baselines).
let runtimeDirectory = URL(
  fileURLWithPath: Context.environment["BENCHMARK_RUNTIME_PATH"] ?? "../..",
  relativeTo: URL(fileURLWithPath: Context.packageDirectory + "/")
).standardizedFileURL
// A path dependency is identified by its folder's name, whatever the clone is called.
let runtimePackage = runtimeDirectory.lastPathComponent

let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: runtimeDirectory.path),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "RuntimeBenchmarks",
      dependencies: [
        .product(name: "ComposableArchitecture", package: runtimePackage),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/RuntimeBenchmarks",
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "benchmark")
      ]
    )
  ]
)
