// boundary-check [--module-graph] [--sources ROOT] [FILE]
//
// Reads the JSON of `swift package dump-package` from FILE (or standard input when FILE is
// omitted or "-") and prints every dependency that breaks a module boundary rule; with
// --sources, also every use of a project-only name in a feature's sources under ROOT (features
// are plain TCA); with --module-graph, prints docs/module-graph.md for that graph instead; with
// --compose ROOT, checks (or with --write, writes) what the app's composition derives from the
// features table (Sources/Composition).
// Exit status: 0 when every rule holds, 1 when some edge breaks one, 2 when the input is unusable.

import BoundaryRules
import Composition
import Foundation

func fail(_ message: String, status: Int32) -> Never {
  FileHandle.standardError.write(Data("boundary-check: \(message)\n".utf8))
  exit(status)
}

var arguments = Array(CommandLine.arguments.dropFirst())
if arguments.contains("-h") || arguments.contains("--help") {
  print(
    """
    usage: boundary-check [--module-graph] [--sources ROOT] [FILE]
      Checks the dependency graph printed by `swift package dump-package` (read from FILE, or
      from standard input) against the module boundary rules, and names each offending edge.
      --sources ROOT  also check the sources under ROOT: the features' are plain TCA (they name
                      nothing the runtime's recording declares), and every target imports only
                      the modules of the package it declares; names the file and line
      --module-graph  print the Markdown page of the graph (docs/module-graph.md) instead
      --compose ROOT  check that the files the app's composition derives from the features
                      table and the adapters are current under ROOT; names each stale file
      --write         with --compose: write them, and print the path of each file written
    """)
  exit(0)
}
/// Takes `flag` out of the arguments: whether it was there.
@MainActor func takeFlag(_ flag: String) -> Bool {
  defer { arguments.removeAll { $0 == flag } }
  return arguments.contains(flag)
}

/// Takes `option` and the folder after it out of the arguments.
@MainActor func takeFolder(_ option: String) -> URL? {
  guard let index = arguments.firstIndex(of: option) else { return nil }
  guard index + 1 < arguments.count else {
    fail("\(option) needs the repository's root", status: 2)
  }
  defer { arguments.removeSubrange(index...(index + 1)) }
  return URL(fileURLWithPath: arguments[index + 1])
}

let printsModuleGraph = takeFlag("--module-graph")
let sourcesRoot = takeFolder("--sources")
let compositionRoot = takeFolder("--compose")
let writesComposition = takeFlag("--write")
guard arguments.count <= 1 else {
  fail("expected at most one argument, the dump-package JSON file", status: 2)
}

let input: Data
do {
  if let path = arguments.first, path != "-" {
    input = try Data(contentsOf: URL(fileURLWithPath: path))
  } else {
    input = FileHandle.standardInput.readDataToEndOfFile()
  }
} catch {
  fail(
    "cannot read \(arguments.first ?? "standard input"): \(error.localizedDescription)", status: 2)
}

let graph: PackageGraph
do {
  graph = try PackageGraph(dumpPackageJSON: input)
} catch {
  fail("the input is not the JSON of `swift package dump-package`: \(error)", status: 2)
}

if printsModuleGraph {
  print(ModuleGraphDocument(graph: graph).markdown, terminator: "")
  exit(0)
}

if let root = compositionRoot {
  let composition: Composition
  do {
    composition = Composition(
      features: try ComposedFeature.features(in: graph) { folder in
        let directory = root.appendingPathComponent(folder)
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        return try names.filter { $0.hasSuffix(".swift") }.sorted().map { name in
          (name, try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8))
        }
      },
      previews: ComposedFeature.previews(in: graph))
  } catch let error as CompositionError {
    fail("the app's composition cannot be derived:\n\(error)", status: 1)
  } catch {
    fail("cannot read the adapters' sources under \(root.path): \(error)", status: 2)
  }
  var stale: [String] = []
  for output in composition.outputs {
    let file = root.appendingPathComponent(output.path)
    let current = try? String(contentsOf: file, encoding: .utf8)
    do {
      if writesComposition {
        if try output.isCurrent(current) { continue }
        let text = try output.applied(to: current)
        if text != current {
          try text.write(to: file, atomically: true, encoding: .utf8)
          print(output.path)
        }
      } else if try !output.isCurrent(current) {
        stale.append(output.path)
      }
    } catch {
      fail("\(error)", status: 1)
    }
  }
  guard stale.isEmpty else {
    for path in stale {
      print("\(path): not what the features table and the adapters give")
    }
    fail(
      "\(stale.count) derived file(s) of the composition are stale; run Tools/boundary-check "
        + "--update", status: 1)
  }
  if !writesComposition {
    print(
      "boundary-check: the composition is what the features table gives "
        + "(\(composition.features.count) tabs, \(composition.previews.count) previews)")
  }
  exit(0)
}

var sourceViolations: [SourceViolation] = []
if let sourcesRoot {
  do {
    let rule = try PlainTCARule(repositoryRoot: sourcesRoot)
    guard !rule.projectOnlyNames.isEmpty else {
      fail(
        "found no project-only names under \(sourcesRoot.path) in "
          + PlainTCARule.projectOnlyFolders.joined(separator: ", "), status: 2)
    }
    sourceViolations = try rule.violations(in: graph, repositoryRoot: sourcesRoot)
    sourceViolations += try ImportRule().violations(in: graph, repositoryRoot: sourcesRoot)
  } catch {
    fail("cannot read the sources under \(sourcesRoot.path): \(error)", status: 2)
  }
  for violation in sourceViolations {
    print(violation)
  }
  if sourceViolations.isEmpty {
    print(
      "boundary-check: every feature's sources are plain TCA, and every target imports only "
        + "the modules of the package it declares")
  }
}

let violations = BoundaryRules().violations(in: graph)
if violations.isEmpty, sourceViolations.isEmpty {
  print(
    "boundary-check: \(graph.targets.count) targets of \(graph.name), every boundary rule holds")
  exit(0)
}
for violation in violations {
  print(violation)
}
if violations.isEmpty {
  fail(
    "\(sourceViolations.count) source line(s) break a rule: a project-only name in a feature "
      + "(PlainTCARule) or an undeclared import (ImportRule)",
    status: 1)
}
let count = violations.count == 1 ? "1 dependency breaks" : "\(violations.count) dependencies break"
fail("\(count) a module boundary rule (see Tools/BoundaryCheck and docs/benchmarks.md)", status: 1)
