/// A reducer tree as a store runs it: every `body` in it evaluated once, every operator holding
/// its children's resolved logic. Resolving is the runtime's business; features never see it.
///
/// TCA evaluates `body` on every action, so a `Scope` rebuilds its key paths and case paths for
/// every action at every level. A store here resolves its reducer once, under its dependencies,
/// and runs the resolved tree for every action. That keeps TCA's semantics because a `body` is a
/// pure function of the reducer's value and the dependencies in effect while it is built:
/// - the store resolves again whenever its dependencies change (a `TestStore` whose
///   `dependencies` a test sets between steps);
/// - `.dependency(_:_:)` resolves its base under the overridden dependencies, and still applies
///   them while the base reduces;
/// - `@Dependency` properties read inside `Reduce` closures are read per action, as before.
/// A `body` that reads something that changes between actions without being a dependency (the
/// wall clock, a global) is frozen at resolution; `docs/compatibility.md` lists that difference.
///
/// A reducer that contains itself (a recursive feature whose `forEach` element is the feature
/// itself) is resolved lazily at each recursive edge, the first time an action reaches it.
public struct _ResolvedReducer<State, Action> {
  @usableFromInline
  let run: (inout State, Action) -> Effect<Action>

  @inlinable
  public init(_ run: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.run = run
  }

  @inlinable
  public func callAsFunction(_ state: inout State, _ action: Action) -> Effect<Action> {
    run(&state, action)
  }
}

/// What a resolution in progress knows: the body-based reducer types it is resolving, so that a
/// type met again inside itself (recursion) is resolved lazily instead of forever, and whether
/// the part being resolved is one whose state may not exist yet.
public struct _Resolution {
  @usableFromInline
  var resolving: [ObjectIdentifier] = []
  /// Whether a reducer with a `body` met now waits for its first action (see
  /// ``deferringBodies(_:)``).
  @usableFromInline
  var defersBodies = false

  @inlinable
  public init() {}

  /// Resolves a child whose state may not exist — an `ifLet`'s or `ifCaseLet`'s child, a
  /// presented destination, a stack's screens, a `Scope` into one case of an enum state: every
  /// reducer with a `body` in it is resolved at the first action that reaches it, so that a
  /// store pays nothing for features its user never opened.
  @inlinable
  mutating func deferringBodies<R>(_ resolve: (inout Self) -> R) -> R {
    let deferred = defersBodies
    defersBodies = true
    defer { defersBodies = deferred }
    return resolve(&self)
  }

  /// Resolves a child at once although it may sit below a deferred part: a `forEach`'s element
  /// feature, whose actions are the list's everyday traffic and whose tree is resolved once for
  /// all its elements. (A recursive feature still unfolds lazily.)
  @inlinable
  mutating func resolvingAtOnce<R>(_ resolve: (inout Self) -> R) -> R {
    let deferred = defersBodies
    defersBodies = false
    defer { defersBodies = deferred }
    return resolve(&self)
  }
}

extension Reducer {
  /// This reducer resolved on its own, outside any store: what `reduce(into:action:)` of an
  /// operator runs when a feature calls it directly.
  @inlinable
  func _resolvedStandalone() -> _ResolvedReducer<State, Action> {
    var resolution = _Resolution()
    return _resolve(&resolution)
  }
}

extension Reducer where Body == Never {
  /// A reducer that implements `reduce(into:action:)` resolves to itself.
  @inlinable
  public func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<State, Action> {
    _ResolvedReducer { state, action in self.reduce(into: &state, action: action) }
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// A reducer with a `body` resolves to its body, resolved: at once, unless it is part of a
  /// child whose state may not exist (``_Resolution/deferringBodies(_:)``) or it contains itself;
  /// then the first time an action reaches it (see ``_LazyResolution``).
  @inlinable
  public func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<State, Action> {
    let type = ObjectIdentifier(Self.self)
    guard !resolution.defersBodies, !resolution.resolving.contains(type) else {
      return _LazyResolution<State, Action>(type: type) { body._resolve(&$0) }.resolved
    }
    resolution.resolving.append(type)
    defer { resolution.resolving.removeLast() }
    return body._resolve(&resolution)
  }
}

/// A child feature's part of a reducer tree, resolved the first time an action reaches it, under
/// the dependencies of that action — the ones the store's resolution would have used, since a
/// store reduces with its own dependencies installed.
///
/// A store resolves its root and the features its state always holds (a `Scope` into a field)
/// when it is made; a feature whose state may not exist (an `ifLet`'s or `ifCaseLet`'s child, a
/// presented destination, a stack's screens, one case of an enum state) waits for its first
/// action — except a `forEach`'s element feature, resolved with its list
/// (``_Resolution/resolvingAtOnce(_:)``). A store whose user never opens a sheet or pushes a
/// screen never builds those features' reducers, so a server with thousands of idle sessions
/// does not pay, per session, for features nobody used; and the features every action may reach
/// cost no first-action resolution (instantiating a `body`'s key paths costs about 17,000
/// instructions a level) nor an indirect call per send. It also makes recursion free: a feature
/// that contains itself unfolds one level per action that reaches it, never forever. A lazy
/// level costs a send one indirect call more (about 20 instructions).
@usableFromInline
final class _LazyResolution<State, Action> {
  @usableFromInline let type: ObjectIdentifier
  @usableFromInline let resolveBody: (inout _Resolution) -> _ResolvedReducer<State, Action>
  /// The resolved body once an action reached it; set once, never replaced.
  @usableFromInline var body: _ResolvedBody<State, Action>?
  /// `body` again, for calls that need not retain it: this object keeps it alive, and it is
  /// never replaced. Read and written only in the store's isolation domain, like the rest of its
  /// tree.
  @usableFromInline @exclusivity(unchecked) var unretainedBody:
    Unmanaged<_ResolvedBody<State, Action>>?

  @usableFromInline
  init(
    type: ObjectIdentifier,
    resolveBody: @escaping (inout _Resolution) -> _ResolvedReducer<State, Action>
  ) {
    self.type = type
    self.resolveBody = resolveBody
  }

  @inlinable
  var resolved: _ResolvedReducer<State, Action> {
    _ResolvedReducer { state, action in
      guard let body = self.unretainedBody else { return self.resolve().run(&state, action) }
      return body._withUnsafeGuaranteedRef { $0.reducer.run(&state, action) }
    }
  }

  @usableFromInline
  func resolve() -> _ResolvedReducer<State, Action> {
    var resolution = _Resolution()
    resolution.resolving.append(type)
    let body = _ResolvedBody(resolveBody(&resolution))
    self.body = body
    unretainedBody = Unmanaged.passUnretained(body)
    return body.reducer
  }
}

/// A resolved body, held by reference so that ``_LazyResolution`` can call it without retaining.
@usableFromInline
final class _ResolvedBody<State, Action> {
  @usableFromInline let reducer: _ResolvedReducer<State, Action>

  @usableFromInline
  init(_ reducer: _ResolvedReducer<State, Action>) {
    self.reducer = reducer
  }
}

/// Reads and writes a child state inside a parent state through a key path. For a key path to a
/// stored property — the usual case — it goes straight to the property's offset, which costs a
/// few instructions instead of a key path projection.
@usableFromInline
struct _StateAccess<Root, Value> {
  @usableFromInline let keyPath: WritableKeyPath<Root, Value>
  @usableFromInline let offset: Int?

  @inlinable
  init(_ keyPath: WritableKeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  @inlinable
  func modify<Result>(_ root: inout Root, _ body: (inout Value) -> Result) -> Result {
    guard let offset else { return body(&root[keyPath: keyPath]) }
    return withUnsafeMutablePointer(to: &root) { pointer in
      body(
        &UnsafeMutableRawPointer(pointer).advanced(by: offset)
          .assumingMemoryBound(to: Value.self).pointee)
    }
  }

  /// Lends the value to `body` without copying it, nor the root: the root is borrowed in place
  /// (`inout` only so that its address can be taken; it is not written), where a by-value
  /// parameter would be copied to the stack first.
  @inlinable
  func read<Result>(_ root: inout Root, _ body: (Value) -> Result) -> Result {
    guard let offset else { return body(root[keyPath: keyPath]) }
    return withUnsafePointer(to: &root) { pointer in
      body(
        UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self)
          .pointee)
    }
  }

  @inlinable
  func get(_ root: inout Root) -> Value {
    read(&root) { $0 }
  }
}

/// Reads a value inside a state through a key path: straight from the property's offset when
/// the key path is to a stored property.
@usableFromInline
struct _StateRead<Root, Value> {
  @usableFromInline let keyPath: KeyPath<Root, Value>
  @usableFromInline let offset: Int?

  @inlinable
  init(_ keyPath: KeyPath<Root, Value>) {
    self.keyPath = keyPath
    self.offset = MemoryLayout<Root>.offset(of: keyPath)
  }

  /// Lends the value to `body` without copying it.
  @inlinable
  func read<Result>(_ root: Root, _ body: (Value) -> Result) -> Result {
    guard let offset else { return body(root[keyPath: keyPath]) }
    return withUnsafePointer(to: root) { pointer in
      body(
        UnsafeRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self)
          .pointee)
    }
  }

  @inlinable
  func get(_ root: Root) -> Value {
    read(root) { $0 }
  }
}
