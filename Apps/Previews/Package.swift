// swift-tools-version: 6.1
// The terminal previews as a package of their own, for the edit loop of a team that owns one
// feature: its package graph holds only what the previews link (the runtime's packages, no server
// and no storage), so SwiftPM loads and plans a fraction of the root package's graph before every
// build. The same sources are products of the root package too (`swift run counter-preview`).
//
//   swift build --package-path Apps/Previews --product counter-preview
//   Apps/Previews/.build/debug/counter-preview
//
// Nothing here names a feature: every `<name>-preview` folder beside this manifest is a preview,
// and it depends on the repository's modules its sources import — the rule the root manifest
// applies to the same folders. Tests/EndToEnd/preview_test.py checks that both declare the same.
import Foundation
import PackageDescription

let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// Modules of the toolchain, which a preview may import without depending on them.
let toolchainModules: Set<String> = [
  "Foundation", "FoundationEssentials", "Dispatch", "Glibc", "Musl", "Darwin", "Synchronization",
  "Observation", "Swift", "_Concurrency",
]

/// The modules the Swift files in `folder` import, in the order first met, toolchain's left out.
func importedModules(of folder: String) -> [String] {
  let directory = here.appendingPathComponent(folder)
  let paths = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String]
  let files = (paths ?? []).filter { $0.hasSuffix(".swift") }.sorted()
  var modules: [String] = []
  for file in files {
    let text =
      (try? String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)) ?? ""
    for line in text.split(separator: "\n") {
      let words = line.split(separator: " ").filter { !$0.hasPrefix("@") }
      guard words.count == 2, words[0] == "import" else { continue }
      let module = String(words[1])
      if !toolchainModules.contains(module), !modules.contains(module) { modules.append(module) }
    }
  }
  return modules
}

let previews = ((try? FileManager.default.contentsOfDirectory(atPath: here.path)) ?? [])
  .filter { $0.hasSuffix("-preview") }.sorted()

let package = Package(
  name: "Previews",
  platforms: [.macOS(.v15)],
  dependencies: [.package(name: "ComposableApp", path: "../..")],
  targets: previews.map { preview in
    .executableTarget(
      name: preview,
      dependencies: importedModules(of: preview).map {
        .product(name: $0, package: "ComposableApp")
      },
      path: preview
    )
  }
)
