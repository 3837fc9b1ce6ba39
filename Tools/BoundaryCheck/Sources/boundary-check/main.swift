// boundary-check [--module-graph] [FILE]
//
// Reads the JSON of `swift package dump-package` from FILE (or standard input when FILE is
// omitted or "-") and prints every dependency that breaks a module boundary rule; with
// --module-graph, prints docs/module-graph.md for that graph instead.
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
    usage: boundary-check [--module-graph] [FILE]
      Checks the dependency graph printed by `swift package dump-package` (read from FILE, or
      from standard input) against the module boundary rules, and names each offending edge.
      --module-graph  print the Markdown page of the graph (docs/module-graph.md) instead
    """)
  exit(0)
}
let printsModuleGraph = arguments.contains("--module-graph")
arguments.removeAll { $0 == "--module-graph" }
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

let violations = BoundaryRules().violations(in: graph)
if violations.isEmpty {
  print(
    "boundary-check: \(graph.targets.count) targets of \(graph.name), every boundary rule holds")
  exit(0)
}
for violation in violations {
  print(violation)
}
let count = violations.count == 1 ? "1 dependency breaks" : "\(violations.count) dependencies break"
fail("\(count) a module boundary rule (see Tools/BoundaryCheck and docs/benchmarks.md)", status: 1)
