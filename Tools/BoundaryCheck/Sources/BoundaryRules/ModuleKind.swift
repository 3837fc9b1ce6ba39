/// The layer a target belongs to, decided by where its sources live.
public enum ModuleKind: Equatable, Sendable, CustomStringConvertible {
  /// `Modules/ComposableArchitecture/…`: the runtime and its macros.
  case runtime
  /// `Modules/ComposableArchitecture/Recording`: recording a store's session and replaying it,
  /// which this project adds to TCA. It watches a store through the runtime's step hook; front
  /// ends, the composition root, tools and tests use it, never a feature.
  case recording
  /// `Modules/Vocabulary/<Name>`: words of the app that features and client interfaces share
  /// (`Units`' `TemperatureUnit`). It depends on nothing of ours; anything may depend on it.
  case vocabulary
  /// `Modules/Features/<Name>`.
  case feature
  /// `Modules/Clients/<Name>`: what features compile against.
  case clientInterface
  /// `Modules/Clients/<Name>Live`: the live implementation of the interface `<Name>`.
  case liveClient(interface: String)
  /// `Modules/Clients/<Name>Offline`: an implementation of the interface `<Name>` from embedded
  /// data, without the network. It counts as live: only executables, tools and tests link it.
  case offlineClient(interface: String)
  /// `Modules/Clients/Live<Something>` (today `LiveHTTP`): plumbing shared by live modules. Its
  /// name starts with `Live` instead of ending with it, on purpose: it implements no interface.
  case livePlumbing
  /// `Modules/Frontends/<Name>`: a front end's core, which renders and drives the store of any
  /// root feature it is handed, and knows no feature.
  case frontend
  /// `Modules/Frontends/Adapters/<Feature>/<FrontEnd>`: one feature's part of one front end (its
  /// terminal screen, its web routes and view), written against the feature alone.
  case frontendAdapter
  /// `Modules/Configuration/…`: settings shared by the front ends and the composition root.
  case configuration
  /// A library under `Apps/`: the one module that links live modules and front ends, shared by
  /// the executables beside it.
  case compositionRoot
  /// `Apps/<name>`: the executables.
  case executable
  /// `Apps/Previews/<name>`: an executable that runs one feature alone, on offline or in-memory
  /// clients; it is its own composition root.
  case preview
  /// `Tools/…`: benchmarks and their support, built from the root package but shipped in no app.
  case tool
  /// A test target, wherever it lives.
  case test
  /// Anything else (`Modules/Support/…`, plugins, …): no layer rule names it.
  case other

  /// Classifies a target by its type and path.
  public init(of target: PackageGraph.Target) {
    if target.type == "test" {
      self = .test
      return
    }
    let components = target.effectivePath.split(separator: "/").map(String.init)
    switch (components.first, components.dropFirst().first) {
    case ("Apps", "Previews") where target.type == "executable":
      self = .preview
    case ("Apps", _):
      self = target.type == "executable" ? .executable : .compositionRoot
    case ("Tools", _):
      self = .tool
    case ("Modules", "ComposableArchitecture") where components.dropFirst(2).first == "Recording":
      self = .recording
    case ("Modules", "ComposableArchitecture"):
      self = .runtime
    case ("Modules", "Vocabulary") where components.count > 2:
      self = .vocabulary
    case ("Modules", "Features") where components.count > 2:
      self = .feature
    case ("Modules", "Frontends") where components.count > 3 && components[2] == "Adapters":
      self = .frontendAdapter
    case ("Modules", "Frontends") where components.count > 2 && components[2] != "Adapters":
      self = .frontend
    case ("Modules", "Configuration") where components.count > 2:
      self = .configuration
    case ("Modules", "Clients") where components.count > 2:
      let folder = components[2]
      if folder.hasSuffix("Live"), folder != "Live" {
        self = .liveClient(interface: String(folder.dropLast("Live".count)))
      } else if folder.hasSuffix("Offline"), folder != "Offline" {
        self = .offlineClient(interface: String(folder.dropLast("Offline".count)))
      } else if folder.hasPrefix("Live") {
        self = .livePlumbing
      } else {
        self = .clientInterface
      }
    default:
      self = .other
    }
  }

  /// Whether only executables and tests may depend on a module of this kind.
  var isLive: Bool {
    switch self {
    case .liveClient, .offlineClient, .livePlumbing: true
    default: false
    }
  }

  public var description: String {
    switch self {
    case .runtime: "runtime"
    case .recording: "session recording"
    case .vocabulary: "vocabulary module"
    case .feature: "feature"
    case .clientInterface: "client interface"
    case .liveClient(let interface): "live client of \(interface)"
    case .offlineClient(let interface): "offline client of \(interface)"
    case .livePlumbing: "live plumbing"
    case .frontend: "front end"
    case .frontendAdapter: "front-end adapter"
    case .configuration: "configuration module"
    case .compositionRoot: "composition root"
    case .executable: "executable"
    case .preview: "preview executable"
    case .tool: "tool"
    case .test: "test"
    case .other: "module outside the layers"
    }
  }
}
