// swift-tools-version: 6.1
//
// Runtime benchmarks for the ComposableArchitecture module of the root package.
// Run them with `Tools/runtime-benchmark` (or, from this folder,
// `swift package --allow-writing-to-package-directory benchmark`). See docs/benchmarks.md.

import PackageDescription

let package = Package(
  name: "Benchmarks",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(path: "../.."),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "RuntimeBenchmarks",
      dependencies: [
        .product(name: "ComposableArchitecture", package: "main"),
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/RuntimeBenchmarks",
      plugins: [
        .plugin(name: "BenchmarkPlugin", package: "benchmark")
      ]
    )
  ]
)
