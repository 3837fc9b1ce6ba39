import BoundaryRules
import Foundation

/// A feature as the app's composition sees it: what the features table in `Package.swift` and
/// the feature's adapters declare, read from the package graph and the adapters' sources.
///
/// A feature with adapters is a tab of the app, composed by `AppFeature` with a `Scope` and shown
/// by both front ends; a feature without one (Favoriting) is composed by the features that use
/// it, not by the app.
public struct ComposedFeature: Equatable, Sendable {
  /// The table's name: `Counter`.
  public var name: String
  /// Its module: `CounterFeature`.
  public var module: String
  /// The reducer the app scopes to, the adapters' `Root`: `CounterList`.
  public var root: String
  /// The tab: the web section's id, or the lowercased name when the section names none:
  /// `counters`. It is the `AppFeature.Tab` case and raw value, and the page's address.
  public var tab: String
  /// The terminal adapter's module and screen type.
  public var screen: AdapterType
  /// The web adapter's module and page type.
  public var page: AdapterType

  public init(
    name: String, module: String, root: String, tab: String, screen: AdapterType,
    page: AdapterType
  ) {
    self.name = name
    self.module = module
    self.root = root
    self.tab = tab
    self.screen = screen
    self.page = page
  }

  /// The property of `AppFeature.State` and the case of `AppFeature.Action`: the root reducer's
  /// name with a lowercase first letter (`counterList`).
  public var property: String { root.prefix(1).lowercased() + root.dropFirst() }

  /// The name `preview-server --feature` takes: `counter`.
  public var previewName: String { name.lowercased() }
}

/// A type an adapter module declares: `CounterTerminal.CounterListScreen`.
public struct AdapterType: Equatable, Sendable {
  public var module: String
  public var type: String

  public init(module: String, type: String) {
    self.module = module
    self.type = type
  }
}

/// A terminal preview the root manifest declares: `Apps/Previews/counter-preview`, and the
/// modules it links besides the terminal core and the runtime.
public struct PreviewTarget: Equatable, Sendable {
  public var name: String
  public var modules: [String]

  public init(name: String, modules: [String]) {
    self.name = name
    self.modules = modules
  }
}

/// Something the composition cannot be derived from, named for the person who adds a feature.
public struct CompositionError: Error, Equatable, CustomStringConvertible {
  public var description: String

  public init(_ description: String) { self.description = description }
}

extension ComposedFeature {
  static let featuresFolder = "Modules/Features/"
  static let adaptersFolder = "Modules/Frontends/Adapters/"
  static let previewsFolder = "Apps/Previews/"

  /// The app's features in the order of the features table, each with what its adapters
  /// declare. `readSources` gives the Swift sources of a folder of the repository (its path
  /// relative to the root) as (file name, text) pairs.
  public static func features(
    in graph: PackageGraph, readSources: (String) throws -> [(file: String, text: String)]
  ) throws -> [ComposedFeature] {
    var problems: [String] = []
    var features: [ComposedFeature] = []
    for target in graph.targets where target.type == "regular" {
      let path = target.effectivePath
      guard path.hasPrefix(featuresFolder), target.name.hasSuffix("Feature"),
        target.name != "AppFeature"
      else { continue }
      let name = String(target.name.dropLast("Feature".count))
      let adapters = graph.targets.filter {
        $0.effectivePath.hasPrefix(adaptersFolder + name + "/")
      }
      guard !adapters.isEmpty else { continue }
      var screen: (AdapterType, root: String)?
      var page: (AdapterType, root: String, section: String?)?
      for adapter in adapters {
        let sources = try readSources(adapter.effectivePath)
        let place = "\(adapter.name) (\(adapter.effectivePath))"
        if adapter.name == name + "Terminal" {
          switch declaration(conformingTo: "TerminalScreen", in: sources) {
          case .found(let type, let root):
            screen = (AdapterType(module: adapter.name, type: type), root)
          case .problem(let problem): problems.append("\(place): \(problem)")
          }
        } else if adapter.name == name + "Web" {
          switch declaration(conformingTo: "WebFeature", in: sources) {
          case .found(let type, let root):
            page = (
              AdapterType(module: adapter.name, type: type), root, sectionID(in: sources)
            )
          case .problem(let problem): problems.append("\(place): \(problem)")
          }
        }
      }
      guard let root = screen?.root ?? page?.root else { continue }
      guard let screen, let page else {
        problems.append(
          "\(name) is a tab of the app, which both front ends show: it needs a terminal adapter "
            + "(\(name)Terminal) and a web adapter (\(name)Web); it has only "
            + (screen.map { _ in "\(name)Terminal" } ?? "\(name)Web"))
        continue
      }
      if screen.root != page.root {
        problems.append(
          "\(name)'s adapters lift different reducers: \(screen.0.type) has Root = \(screen.root), "
            + "\(page.0.type) has Root = \(page.root); the app scopes to one")
        continue
      }
      let tab = page.section ?? name.lowercased()
      guard isIdentifier(tab) else {
        problems.append(
          "\(name)'s tab '\(tab)' (its web section's id) must be a Swift identifier in lowercase "
            + "letters and digits: it is a case of AppFeature.Tab")
        continue
      }
      features.append(
        ComposedFeature(
          name: name, module: target.name, root: root, tab: tab, screen: screen.0,
          page: page.0))
    }
    for (index, feature) in features.enumerated() {
      for other in features[..<index] {
        if other.tab == feature.tab {
          problems.append("\(other.name) and \(feature.name) claim the same tab '\(feature.tab)'")
        }
        if other.property == feature.property {
          problems.append(
            "\(other.name) and \(feature.name) both lift \(feature.root): the app would have two "
              + "'\(feature.property)' properties")
        }
      }
    }
    guard problems.isEmpty else {
      throw CompositionError(problems.joined(separator: "\n"))
    }
    return features
  }

  /// The terminal previews the manifest declares, in its order.
  public static func previews(in graph: PackageGraph) -> [PreviewTarget] {
    graph.targets.compactMap { target in
      let path = target.effectivePath
      guard target.type == "executable", path.hasPrefix(previewsFolder),
        target.name.hasSuffix("-preview")
      else { return nil }
      let implied: Set = ["TerminalFrontend", "ComposableArchitecture"]
      return PreviewTarget(
        name: String(target.name.dropLast("-preview".count)),
        modules: target.dependencies.map(\.name).filter { !implied.contains($0) })
    }
  }

  enum Declaration: Equatable {
    case found(type: String, root: String)
    case problem(String)
  }

  /// The one type the sources declare conforming to `proto`, and the reducer its
  /// `typealias Root` names.
  static func declaration(
    conformingTo proto: String, in sources: [(file: String, text: String)]
  ) -> Declaration {
    let typePattern = try! NSRegularExpression(
      pattern: #"(?m)^\s*(?:public\s+)?(?:enum|struct|final\s+class|class)\s+(\w+)\s*:([^{]*)\{"#)
    let rootPattern = try! NSRegularExpression(pattern: #"typealias\s+Root\s*=\s*(\w+)"#)
    var found: [(type: String, root: String?, file: String)] = []
    for source in sources {
      let text = source.text as NSString
      let matches = typePattern.matches(
        in: source.text, range: NSRange(location: 0, length: text.length))
      for (index, match) in matches.enumerated() {
        let conformances = text.substring(with: match.range(at: 2))
          .split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard conformances.contains(proto) else { continue }
        // Its `Root` is declared in its body: before the next type of the file.
        let end =
          index + 1 < matches.count ? matches[index + 1].range.location : text.length
        let body = NSRange(location: match.range.location, length: end - match.range.location)
        let root = rootPattern.firstMatch(in: source.text, range: body).map {
          text.substring(with: $0.range(at: 1))
        }
        found.append((text.substring(with: match.range(at: 1)), root, source.file))
      }
    }
    guard let first = found.first else {
      return .problem("declares no type conforming to \(proto)")
    }
    guard found.count == 1 else {
      return .problem(
        "declares \(found.count) types conforming to \(proto) ("
          + found.map(\.type).joined(separator: ", ") + "); the app lifts one")
    }
    guard let root = first.root else {
      return .problem(
        "\(first.type) (\(first.file)) must name the reducer it shows: `public typealias Root = …`")
    }
    return .found(type: first.type, root: root)
  }

  /// The id of the web section: `PageSection(id: "counters", …)`.
  static func sectionID(in sources: [(file: String, text: String)]) -> String? {
    let pattern = try! NSRegularExpression(pattern: #"PageSection\(\s*id:\s*"([^"]*)""#)
    for source in sources {
      let text = source.text as NSString
      if let match = pattern.firstMatch(
        in: source.text, range: NSRange(location: 0, length: text.length))
      {
        return text.substring(with: match.range(at: 1))
      }
    }
    return nil
  }

  static func isIdentifier(_ name: String) -> Bool {
    guard let first = name.first, first.isLowercase, first.isASCII else { return false }
    return name.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber) }
  }
}
