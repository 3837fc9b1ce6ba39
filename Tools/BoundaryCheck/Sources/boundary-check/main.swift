// boundary-check [--module-graph] [--sources ROOT] [FILE]
//
// Reads the JSON of `swift package dump-package` from FILE (or standard input when FILE is
// omitted or "-") and prints every dependency that breaks a module boundary rule; with
// --sources, also every use of a project-only name in a feature's sources under ROOT (features
// are plain TCA); with --module-graph, prints docs/module-graph.md for that graph instead.
// Exit status: 0 when every rule holds, 1 when some edge breaks one, 2 when the input is unusable.

import BoundaryRules
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
      --sources ROOT  also check that the features' sources under ROOT are plain TCA: they name
                      nothing the runtime's recording declares, and name the file and line
      --module-graph  print the Markdown page of the graph (docs/module-graph.md) instead
    """)
  exit(0)
}
let printsModuleGraph = arguments.contains("--module-graph")
arguments.removeAll { $0 == "--module-graph" }
var sourcesRoot: URL?
if let index = arguments.firstIndex(of: "--sources") {
  guard index + 1 < arguments.count else { fail("--sources needs the repository's root", status: 2) }
  sourcesRoot = URL(fileURLWithPath: arguments[index + 1])
  arguments.removeSubrange(index...(index + 1))
}
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
  } catch {
    fail("cannot read the sources under \(sourcesRoot.path): \(error)", status: 2)
  }
  for violation in sourceViolations {
    print(violation)
  }
  if sourceViolations.isEmpty {
    print("boundary-check: every feature's sources are plain TCA")
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
    "\(sourceViolations.count) use(s) of project-only names in features (see PlainTCARule)",
    status: 1)
}
let count = violations.count == 1 ? "1 dependency breaks" : "\(violations.count) dependencies break"
fail("\(count) a module boundary rule (see Tools/BoundaryCheck and docs/benchmarks.md)", status: 1)
