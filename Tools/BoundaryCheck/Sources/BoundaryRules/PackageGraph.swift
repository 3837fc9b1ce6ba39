import Foundation

/// The part of `swift package dump-package` that the rules read: each target's name, path, type
/// and dependencies.
public struct PackageGraph: Decodable, Sendable, Equatable {
  public var name: String
  public var targets: [Target]

  public init(name: String, targets: [Target]) {
    self.name = name
    self.targets = targets
  }

  /// Decodes the JSON that `swift package dump-package` prints.
  public init(dumpPackageJSON data: Data) throws {
    self = try JSONDecoder().decode(PackageGraph.self, from: data)
  }

  public struct Target: Decodable, Sendable, Equatable {
    public var name: String
    /// The target's folder relative to the package root; `nil` when the manifest uses the default.
    public var path: String?
    /// `regular`, `executable`, `test`, `macro`, `plugin`, …
    public var type: String
    public var dependencies: [Dependency]

    public init(name: String, path: String?, type: String, dependencies: [Dependency]) {
      self.name = name
      self.path = path
      self.type = type
      self.dependencies = dependencies
    }

    /// The folder the target's sources live in: its `path`, or SwiftPM's default.
    public var effectivePath: String {
      if let path {
        return path.split(separator: "/").filter { $0 != "." }.joined(separator: "/")
      }
      return type == "test" ? "Tests/\(name)" : "Sources/\(name)"
    }
  }

  /// One entry of a target's `dependencies`, in the three spellings a manifest allows.
  public enum Dependency: Decodable, Sendable, Equatable {
    /// `"Name"`: a target of this package, or a product of a dependency with that name.
    case byName(String)
    /// `.target(name:)`: a target of this package.
    case target(String)
    /// `.product(name:package:)`: a product of another package.
    case product(name: String, package: String?)

    /// The name the dependency refers to.
    public var name: String {
      switch self {
      case .byName(let name), .target(let name), .product(let name, _): name
      }
    }

    private enum CodingKeys: String, CodingKey {
      case byName, target, product
    }

    public init(from decoder: any Decoder) throws {
      // dump-package writes each dependency as a one-key object whose value is an array:
      // {"byName": [name, condition]}, {"target": [name, condition]},
      // {"product": [name, package, moduleAliases, condition]}.
      let container = try decoder.container(keyedBy: CodingKeys.self)
      if var fields = try? container.nestedUnkeyedContainer(forKey: .byName) {
        self = .byName(try fields.decode(String.self))
      } else if var fields = try? container.nestedUnkeyedContainer(forKey: .target) {
        self = .target(try fields.decode(String.self))
      } else if var fields = try? container.nestedUnkeyedContainer(forKey: .product) {
        let name = try fields.decode(String.self)
        let package = try fields.decodeIfPresent(String.self)
        self = .product(name: name, package: package)
      } else {
        throw DecodingError.dataCorrupted(
          .init(
            codingPath: decoder.codingPath,
            debugDescription: "a dependency must be one of byName, target or product"))
      }
    }
  }
}
