import Foundation

/// Every target imports only the modules of the package it declares as dependencies.
///
/// SwiftPM puts every module it has built on the search path, so a target that imports a module
/// of the package it does not declare still compiles whenever something else built that module
/// first: the graph the other rules check is then not the graph the code uses. This rule reads
/// the `import` declarations of every target's sources (comments and string literals left out,
/// `@testable`, `@_exported` and `import struct M.Name` included) and names each one that imports
/// a target of the package which is neither the target itself nor one of its declared
/// dependencies. Modules of other packages are not checked: a product's modules are not in the
/// manifest's dump.
public struct ImportRule: Sendable {
  public static let rule = "imports a module of the package it does not declare as a dependency"

  public init() {}

  /// The modules `source` imports, with the (1-based) line of each import.
  public static func imports(in source: String) -> [(module: String, line: Int)] {
    let pattern =
      #"^\s*(?:@[A-Za-z_]+(?:\([^)]*\))?\s+)*import\s+"#
      + #"(?:(?:typealias|struct|class|enum|protocol|let|var|func)\s+)?([A-Za-z_][A-Za-z0-9_]*)"#
    let expression = try! NSRegularExpression(pattern: pattern)
    var found: [(module: String, line: Int)] = []
    let lines = PlainTCARule.code(of: source).split(
      separator: "\n", omittingEmptySubsequences: false)
    for (index, line) in lines.enumerated() {
      let text = String(line)
      let range = NSRange(text.startIndex..., in: text)
      guard let match = expression.firstMatch(in: text, range: range),
        let name = Range(match.range(at: 1), in: text)
      else { continue }
      found.append((String(text[name]), index + 1))
    }
    return found
  }

  /// Each undeclared import of `target`, given its sources as (path, text) pairs.
  public func violations(
    of target: PackageGraph.Target, in graph: PackageGraph, sources: [(path: String, text: String)]
  ) -> [SourceViolation] {
    let packageModules = Set(graph.targets.map(\.name))
    let declared = Set(target.dependencies.map(\.name)).union([target.name])
    var found: [SourceViolation] = []
    for source in sources {
      for (module, line) in Self.imports(in: source.text)
      where packageModules.contains(module) && !declared.contains(module) {
        found.append(
          SourceViolation(
            file: source.path, line: line, name: module, rule: "\(target.name) \(Self.rule)"))
      }
    }
    return found
  }

  /// Every undeclared import of every target of `graph`, reading its sources under `root`.
  public func violations(in graph: PackageGraph, repositoryRoot root: URL) throws
    -> [SourceViolation]
  {
    var found: [SourceViolation] = []
    for target in graph.targets {
      let folder = root.appendingPathComponent(target.effectivePath)
      let sources = try PlainTCARule.swiftFiles(under: folder).map { file in
        (
          path: target.effectivePath + file.path.dropFirst(folder.path.count),
          text: try String(contentsOf: file, encoding: .utf8)
        )
      }
      found += violations(of: target, in: graph, sources: sources)
    }
    return found
  }
}
