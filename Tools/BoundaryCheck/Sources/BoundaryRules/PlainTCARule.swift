import Foundation

/// A use, in a feature's source, of a name the runtime has and TCA has not.
public struct SourceViolation: Equatable, Sendable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var name: String
  public var rule: String

  public init(file: String, line: Int, name: String, rule: String) {
    self.file = file
    self.line = line
    self.name = name
    self.rule = rule
  }

  /// `Modules/Features/CounterFeature/Counter.swift:16: RecordDecodable: a feature …`
  public var description: String { "\(file):\(line): \(name): \(rule)" }
}

/// Features are plain TCA: a feature module compiles against TCA itself, so it names nothing that
/// only this project's runtime declares. What the runtime adds to TCA's API — recording and
/// replay — is declared in the folders `projectOnlyFolders` lists; every public type, protocol,
/// macro and type alias declared there is a name a feature must not write. (Our `@Reducer` and
/// `@ObservableState` write what a replay needs; an enum beside its reducer is read through its
/// case paths; a plain model through `Decodable`.)
///
/// The graph rules already keep a feature from depending on a module that is not the runtime, a
/// client interface or an allowed feature; this rule looks inside the runtime's one module.
public struct PlainTCARule: Sendable {
  public static let rule =
    "a feature must be plain TCA; this name is the project's runtime's only (recording and replay)"

  /// Folders of the repository whose public declarations TCA does not have.
  public static let projectOnlyFolders = [
    "Modules/ComposableArchitecture/Sources/RecordedValues",
    "Modules/ComposableArchitecture/Recording",
    // The runtime's JSON, which the recording and the web front end share.
    "Modules/ComposableArchitecture/JSON",
  ]

  public var projectOnlyNames: Set<String>

  public init(projectOnlyNames: Set<String>) {
    self.projectOnlyNames = projectOnlyNames
  }

  /// The names `source` declares `public` (or `open`) at file scope: types, protocols, macros,
  /// type aliases. (Not members — `RecordedValue.Alert`, a `state` property —, whose names are
  /// no names of their own: a feature reaches them through the types.)
  public static func publicNames(in source: String) -> Set<String> {
    let pattern =
      #"(?m)^(?:public|open)\s+(?:(?:final|static|indirect|nonisolated|mutating)\s+)*"#
      + #"(?:struct|enum|class|actor|protocol|macro|typealias)\s+([A-Za-z_][A-Za-z0-9_]*)"#
    let expression = try! NSRegularExpression(pattern: pattern)
    let text = code(of: source)
    let range = NSRange(text.startIndex..., in: text)
    return Set(
      expression.matches(in: text, range: range).compactMap {
        Range($0.range(at: 1), in: text).map { String(text[$0]) }
      })
  }

  /// Every use in `source` (the file `file`) of a project-only name, line by line; comments and
  /// string literals do not count.
  public func violations(file: String, source: String) -> [SourceViolation] {
    var found: [SourceViolation] = []
    for (index, line) in Self.code(of: source).split(
      separator: "\n", omittingEmptySubsequences: false
    ).enumerated() {
      for word in Self.identifiers(in: line) where projectOnlyNames.contains(word) {
        found.append(SourceViolation(file: file, line: index + 1, name: word, rule: Self.rule))
      }
    }
    return found
  }

  /// The identifiers of a line of code, in order.
  static func identifiers(in line: Substring) -> [String] {
    var words: [String] = []
    var current = ""
    for character in line {
      if character.isLetter || character.isNumber || character == "_" {
        current.append(character)
      } else {
        if !current.isEmpty, !(current.first!.isNumber) { words.append(current) }
        current = ""
      }
    }
    if !current.isEmpty, !(current.first!.isNumber) { words.append(current) }
    return words
  }

  /// `source` with comments and string literals blanked out (line breaks kept, so line numbers
  /// stay): `//` to the end of the line, `/* … */`, and `"…"` / `"""…"""` literals.
  static func code(of source: String) -> String {
    var output = ""
    var characters = Array(source)[...]
    while let character = characters.first {
      if characters.starts(with: "//") {
        while let next = characters.first, next != "\n" { characters.removeFirst() }
      } else if characters.starts(with: "/*") {
        characters.removeFirst(2)
        while !characters.isEmpty, !characters.starts(with: "*/") {
          if characters.removeFirst() == "\n" { output.append("\n") }
        }
        characters = characters.dropFirst(2)
      } else if character == "\"" {
        let delimiter = characters.starts(with: "\"\"\"") ? "\"\"\"" : "\""
        characters.removeFirst(delimiter.count)
        while !characters.isEmpty, !characters.starts(with: delimiter) {
          let removed = characters.removeFirst()
          if removed == "\\", !characters.isEmpty { characters.removeFirst() }
          if removed == "\n" { output.append("\n") }
        }
        characters = characters.dropFirst(delimiter.count)
        output.append("\"\"")
      } else {
        output.append(characters.removeFirst())
      }
    }
    return output
  }
}

extension PlainTCARule {
  /// The rule for the repository at `root`: the project-only names read from its folders.
  public init(repositoryRoot root: URL) throws {
    var names: Set<String> = []
    for folder in Self.projectOnlyFolders {
      for file in try Self.swiftFiles(under: root.appendingPathComponent(folder)) {
        names.formUnion(Self.publicNames(in: try String(contentsOf: file, encoding: .utf8)))
      }
    }
    self.init(projectOnlyNames: names)
  }

  /// Every use of a project-only name in the sources of the graph's feature modules.
  public func violations(in graph: PackageGraph, repositoryRoot root: URL) throws
    -> [SourceViolation]
  {
    var found: [SourceViolation] = []
    for target in graph.targets where ModuleKind(of: target) == .feature {
      let folder = root.appendingPathComponent(target.effectivePath)
      for file in try Self.swiftFiles(under: folder) {
        let relative = target.effectivePath + file.path.dropFirst(folder.path.count)
        found += violations(
          file: relative, source: try String(contentsOf: file, encoding: .utf8))
      }
    }
    return found
  }

  static func swiftFiles(under folder: URL) throws -> [URL] {
    guard
      let enumerator = FileManager.default.enumerator(
        at: folder, includingPropertiesForKeys: nil)
    else { return [] }
    return enumerator.compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" }
      .sorted { $0.path < $1.path }
  }
}
