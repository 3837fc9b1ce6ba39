import Synchronization

/// A case key path resolved once into its embed and extract functions.
///
/// Applying a case key path builds its `Case` every time and extracts through `Any`. For an enum
/// that resolves its case paths (``_CasePathResolving``, which `@Reducer` gives every `Action` and
/// enum `State`), the key path is looked up once and extraction is the enum's own pattern match.
/// Other enums, and key paths that go more than one case deep, keep the general path.
@usableFromInline
package struct CaseEmbedding<Root, Value>: @unchecked Sendable {
  // The closures are the enum's generated case path or the library's `Case`, both pure
  // functions; the type is unchecked only because `AnyCasePath`'s closures are not `@Sendable`.
  @usableFromInline let extractValue: (Root) -> Value?
  @usableFromInline let embedValue: @Sendable (Value) -> Root

  @usableFromInline
  package init(_ keyPath: CaseKeyPath<Root, Value>) {
    if let functions = caseFunctions(for: keyPath, in: Root.self) as? _CaseFunctions<Root, Value> {
      self.extractValue = functions.extract
      self.embedValue = functions.embed
    } else {
      let resolved = Case(keyPath)
      self.extractValue = { resolved._extract(from: $0) }
      // A `Case` built from a `CaseKeyPath<Root, Value>` always embeds into `Root`.
      self.embedValue = { resolved._embed($0) as! Root }
    }
  }

  /// A type-erased case path, as the deprecated `AnyCasePath` overloads pass.
  @usableFromInline
  init(_ casePath: AnyCasePath<Root, Value>) {
    self.init(extract: casePath.extract(from:), embed: casePath.embed)
  }

  @usableFromInline
  init(extract: @escaping (Root) -> Value?, embed: @escaping (Value) -> Root) {
    self.extractValue = extract
    // `AnyCasePath`'s closures are pure but not declared `@Sendable` (see above).
    nonisolated(unsafe) let embed = embed
    self.embedValue = { embed($0) }
  }

  @inlinable
  package func extract(from root: Root) -> Value? {
    extractValue(root)
  }

  @inlinable
  func embed(_ value: Value) -> Root {
    embedValue(value)
  }
}

/// An enum that can turn its own case key paths into typed case paths, once.
///
/// The `@Reducer` macro conforms `Action` and enum `State` through ``_CasePathResolving()``;
/// the runtime's own action enums conform by hand. `_$casePath(for:)` returns the
/// `AnyCasePath<Self, Value>` of a one-case-deep key path such as `\.child`, or `nil`.
public protocol _CasePathResolving: CasePathable {
  static func _$casePath(for keyPath: AnyKeyPath) -> Any?
}

/// The embed and extract functions of one case of an enum, as ``_CasePathResolving`` hands them
/// out: the case's constructor and a pattern match.
public struct _CaseFunctions<Root, Value>: Sendable {
  let embed: @Sendable (Value) -> Root
  let extract: @Sendable (Root) -> Value?

  public init(
    embed: @escaping @Sendable (Value) -> Root,
    extract: @escaping @Sendable (Root) -> Value?
  ) {
    self.embed = embed
    self.extract = extract
  }
}

/// What `_$casePath(for:)` answered for a key path: the enum's ``_CaseFunctions`` (a `Sendable`
/// value, returned as `Any`), or `nil` when it has none to give.
private struct KnownCase: @unchecked Sendable {
  let functions: Any?
}

/// A case key path as a table key. Key paths are immutable; this one is only hashed and compared.
private struct CaseKey: Hashable, @unchecked Sendable {
  let keyPath: AnyKeyPath
}

/// Every case key path resolved so far in this process (see ``caseFunctions(for:in:)``).
private let knownCases = Mutex<[CaseKey: KnownCase]>([:])

/// The enum's ``_CaseFunctions`` for one of its case key paths, looked up once per key path in a
/// process.
///
/// `_$casePath(for:)` compares the key path with each of the enum's own, and every comparison
/// instantiates a key path literal through the runtime's mangled-name look-up — about 8,000
/// instructions each, so the 10th case of an action cost 80,000 — at every resolution of every
/// `Scope`, `ifLet` and `forEach`: each new store, and each child feature's first action. Key
/// paths that name the same case are equal and hash alike, so the answer is kept.
@usableFromInline
func caseFunctions<Root>(for keyPath: AnyKeyPath, in root: Root.Type) -> Any? {
  let key = CaseKey(keyPath: keyPath)
  if let known = knownCases.withLock({ $0[key] }) { return known.functions }
  let functions = (root as? any _CasePathResolving.Type)?._$casePath(for: keyPath)
  knownCases.withLock { $0[key] = KnownCase(functions: functions) }
  return functions
}
