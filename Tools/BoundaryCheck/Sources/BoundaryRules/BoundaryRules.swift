/// A dependency between two targets of the package that breaks a boundary rule.
public struct Violation: Equatable, Sendable, CustomStringConvertible {
  public var from: String
  public var to: String
  public var rule: String

  public init(from: String, to: String, rule: String) {
    self.from = from
    self.to = to
    self.rule = rule
  }

  /// `SearchFeature -> WeatherClientLive: a feature must not depend on a live module`
  public var description: String { "\(from) -> \(to): \(rule)" }
}

/// The dependency rules between the layers of the monorepo (docs/architecture.md, "Module graph").
///
/// Only edges between targets of the package are checked; products of other packages
/// (swift-dependencies, SwiftNIO, …) are allowed or not by review, not by this tool. Test targets
/// may depend on anything. For every other edge the first rule that it breaks is reported:
///
/// - only the composition root (a library under `Apps/`), tools (`Tools/`) and tests depend on
///   live modules — `*Live`, `*Offline` and the live plumbing (`Live*`) — and previews on offline
///   ones; only the composition root, previews, adapters, support modules and tests on front
///   ends and their adapters; only executables (`Apps/`) and tests on the composition root; only tools and tests
///   on tools;
/// - an executable depends only on the composition root;
/// - a preview (`Apps/Previews/<name>`) depends on the runtime, features, client interfaces,
///   offline clients, front ends and adapters — never on a live client, the live plumbing or the
///   composition root;
/// - a front end's core (`Modules/Frontends/<Name>`) knows no feature: it depends on the runtime,
///   the session recording, the configuration module, support modules and other front-end
///   modules only (not even a client interface: the executable hands it every client its
///   sessions use);
/// - an adapter (`Modules/Frontends/Adapters/…`) depends on the runtime, front-end cores, other
///   adapters, features, client interfaces and the configuration module;
/// - a feature depends on the runtime, client interfaces and, where allowed, other features:
///   `AppFeature` on any feature, `EpisodesFeature` on `FavoritingFeature`;
/// - a client interface and the configuration module (`Modules/Configuration/`) depend on
///   nothing of ours;
/// - a live client depends only on its own interface, the live plumbing and the configuration
///   module; an offline client only on its own interface; the plumbing only on other plumbing;
/// - a tool (a benchmark and its support) may depend on anything of ours but front ends and the
///   composition root;
/// - the runtime depends only on itself (its macros); the session recording
///   (`Modules/ComposableArchitecture/Recording`) only on the runtime, and only front ends, the
///   composition root, support modules, tools and tests depend on it: features stay plain TCA.
public struct BoundaryRules: Sendable {
  /// Feature-to-feature edges that are allowed: the key may depend on each feature in its value.
  /// `"*"` means any feature.
  public var allowedFeatureDependencies: [String: Set<String>]

  public init(
    allowedFeatureDependencies: [String: Set<String>] = [
      "AppFeature": ["*"],
      "EpisodesFeature": ["FavoritingFeature"],
    ]
  ) {
    self.allowedFeatureDependencies = allowedFeatureDependencies
  }

  /// `AppFeature` on any feature, `EpisodesFeature` on `FavoritingFeature`: the allowed
  /// feature-to-feature edges in words, for messages and the module graph page.
  public static func describe(_ allowed: [String: Set<String>]) -> String {
    allowed.sorted {
      ($0.value.contains("*") ? 0 : 1, $0.key) < ($1.value.contains("*") ? 0 : 1, $1.key)
    }
    .map { source, destinations in
      destinations.contains("*")
        ? "`\(source)` on any feature"
        : "`\(source)` on " + destinations.sorted().map { "`\($0)`" }.joined(separator: ", ")
    }
    .joined(separator: ", ")
  }

  /// Every edge of `graph` that breaks a rule, in the order of the manifest.
  public func violations(in graph: PackageGraph) -> [Violation] {
    let kinds = Dictionary(
      graph.targets.map { ($0.name, ModuleKind(of: $0)) }, uniquingKeysWith: { first, _ in first })
    var violations: [Violation] = []
    for target in graph.targets {
      let sourceKind = kinds[target.name] ?? .other
      for dependency in target.dependencies {
        // A product of another package is not ours; `byName` may name either.
        if case .product = dependency { continue }
        guard let destinationKind = kinds[dependency.name] else { continue }
        if let rule = brokenRule(
          from: target.name, sourceKind, to: dependency.name, destinationKind)
        {
          violations.append(Violation(from: target.name, to: dependency.name, rule: rule))
        }
      }
    }
    return violations
  }

  /// The rule an edge breaks, or `nil` when it is allowed.
  func brokenRule(
    from source: String, _ sourceKind: ModuleKind,
    to destination: String, _ destinationKind: ModuleKind
  ) -> String? {
    switch sourceKind {
    case .test:
      return nil
    case .executable:
      if destinationKind == .compositionRoot { return nil }
      return "an executable may depend only on the composition root (not on a \(destinationKind))"
    case .tool:
      if destinationKind == .frontend || destinationKind == .compositionRoot {
        return "a tool must not depend on a front end or the composition root"
      }
      return nil
    case .compositionRoot:
      if destinationKind == .tool { return "only tools and tests may depend on a tool (Tools/)" }
      return nil
    case .preview:
      switch destinationKind {
      case .runtime, .vocabulary, .feature, .clientInterface, .offlineClient, .frontend,
        .frontendAdapter, .configuration:
        return nil
      case .liveClient, .livePlumbing:
        return "a preview runs on offline or in-memory clients: it must not depend on a live "
          + "client or the live plumbing"
      default:
        return "a preview may depend only on the runtime, features, client interfaces, offline "
          + "clients, front ends and their adapters (not on a \(destinationKind))"
      }
    default:
      break
    }
    if destinationKind == .tool {
      return "only tools and tests may depend on a tool (Tools/)"
    }
    if destinationKind == .vocabulary {
      if sourceKind == .vocabulary || sourceKind == .runtime || sourceKind == .configuration
        || sourceKind == .livePlumbing
      {
        return "only features, clients, front ends and what composes them may depend on the "
          + "vocabulary"
      }
      return nil
    }

    if destinationKind.isLive {
      switch sourceKind {
      case .feature:
        return "a feature must not depend on a live module"
      case .clientInterface:
        return "an interface module must not depend on a live module"
      case .liveClient, .livePlumbing:
        break  // their own rules below name what they may depend on
      case .offlineClient:
        break  // its own rule below names what it may depend on
      default:
        return "only the composition root, tools and tests may depend on a live module "
          + "(and previews on an offline one)"
      }
    }
    if destinationKind == .frontend || destinationKind == .frontendAdapter {
      if sourceKind == .frontendAdapter { return nil }
      // A front end in layers (the web front end's JSON, HTTP, sessions, routes): one module
      // of a front end's core on another; SwiftPM refuses a cycle between them.
      if sourceKind == .frontend, destinationKind == .frontend { return nil }
      // Test support (a feature's web adapter served alone for its tests).
      if sourceKind == .other { return nil }
      return "only the composition root, previews, adapters, support and tests may depend on a "
        + "front end"
    }
    if destinationKind == .compositionRoot {
      return "only executables (Apps/) and tests may depend on the composition root"
    }
    if destinationKind == .recording {
      switch sourceKind {
      case .frontend, .other:
        return nil
      default:
        return "only front ends, the composition root, support modules, tools and tests may "
          + "depend on the session recording (features stay plain TCA)"
      }
    }

    switch sourceKind {
    case .feature:
      switch destinationKind {
      case .runtime, .clientInterface:
        return nil
      case .feature:
        let allowed = allowedFeatureDependencies[source] ?? []
        if allowed.contains("*") || allowed.contains(destination) { return nil }
        return "a feature must not depend on another feature (allowed: "
          + Self.describe(allowedFeatureDependencies) + ")"
      default:
        return "a feature may depend only on the runtime, client interfaces and allowed "
          + "features (not on a \(destinationKind))"
      }
    case .clientInterface:
      return "an interface module must depend on nothing of ours but the vocabulary"
    case .liveClient(let interface):
      if destination == interface || destinationKind == .livePlumbing
        || destinationKind == .configuration
      {
        return nil
      }
      return "a live module may depend only on its own interface (\(interface)), the live "
        + "plumbing (LiveHTTP) and the configuration module"
    case .offlineClient(let interface):
      if destination == interface { return nil }
      return "an offline module may depend only on its own interface (\(interface))"
    case .livePlumbing:
      // Plumbing may build on plumbing (PostgreSQL storage implements LiveStorage's protocol),
      // never on an interface, a feature or the runtime.
      if destinationKind == .livePlumbing { return nil }
      return "the live plumbing may depend only on other live plumbing"
    case .vocabulary:
      return "a vocabulary module must depend on nothing of ours"
    case .runtime:
      if destinationKind == .runtime { return nil }
      return "the runtime must depend on nothing of ours"
    case .recording:
      if destinationKind == .runtime { return nil }
      return "the session recording may depend only on the runtime"
    case .configuration:
      return "the configuration module must depend on nothing of ours"
    case .frontend:
      switch destinationKind {
      case .runtime, .configuration, .other:
        return nil
      default:
        return "a front end knows no feature: it may depend only on the runtime, the session "
          + "recording, the configuration module, support modules and other front-end modules "
          + "(not on a \(destinationKind))"
      }
    case .frontendAdapter:
      switch destinationKind {
      case .runtime, .feature, .clientInterface, .configuration:
        return nil
      default:
        return "an adapter may depend only on the runtime, front ends, adapters, features, "
          + "client interfaces and the configuration module (not on a \(destinationKind))"
      }
    case .other, .executable, .test, .tool, .compositionRoot, .preview:
      return nil
    }
  }
}
