import Foundation
import Synchronization

extension Effect {
  /// Registers this effect under an identifier so that it can be cancelled with ``cancel(id:)``.
  ///
  /// With `cancelInFlight: true`, the effects already registered under `id` are cancelled before
  /// this one starts; the store does both in the same step, so the two never run side by side.
  ///
  /// Identifiers are scoped: each root store has its own namespace, and the effects of an element
  /// of a `forEach` (or of an `ifLet` child) are registered under that element's path, so the same
  /// identifier in two elements never collides. The type of the identifier is part of it, so
  /// `CancelID.timer` of one feature never cancels another feature's `CancelID.timer`.
  ///
  /// ```swift
  /// return .run { send in … }
  ///   .cancellable(id: CancelID.search, cancelInFlight: true)
  /// ```
  @inlinable
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = operation { return .none }
    return Self(operation: .cancellable(self, id: EffectID(id), cancelInFlight: cancelInFlight))
  }

  /// An effect that cancels the effects registered under an identifier, including the effects a
  /// child registered under the same identifier. It completes immediately.
  @inlinable
  public static func cancel(id: some Hashable & Sendable) -> Self {
    Self(operation: .cancel(EffectID(id)))
  }

  /// An effect that cancels the effects registered under each of the identifiers.
  public static func cancel(ids: some Sequence<some Hashable & Sendable>) -> Self {
    .merge(ids.map { Self.cancel(id: $0) })
  }
}

extension Task where Success == Never, Failure == Never {
  /// Cancels the effects registered under an identifier, from inside an effect.
  ///
  /// Inside an effect, the identifier is resolved against the store and the path of the effect
  /// that calls it, as a `.cancel(id:)` effect returned by the same reducer would be. Outside an
  /// effect there is no store to resolve against, and the effects registered under `id` at the
  /// root of every live store are cancelled.
  public static func cancel(id: some Hashable & Sendable) {
    _cancelReportingAny(id: id)
  }

  /// ``cancel(id:)`` that says whether an effect was registered under `id` to be cancelled.
  @discardableResult
  static func _cancelReportingAny(id: some Hashable & Sendable) -> Bool {
    guard let context = EffectContext.current else {
      let id = EffectID(id, path: [])
      var any = false
      for registry in CancellationRegistry.live.registries() where registry.cancel(id) {
        any = true
      }
      return any
    }
    return context.registry.cancel(EffectID(id, path: context.path))
  }
}

/// Runs an operation registered under a cancellation identifier, from inside an effect.
///
/// With `cancelInFlight: true` a previous operation with the same identifier is cancelled first.
/// Outside an effect the operation simply runs.
///
/// ```swift
/// return .run { send in
///   try await withTaskCancellation(id: CancelID.debounce, cancelInFlight: true) {
///     try await clock.sleep(for: .milliseconds(300))
///     await send(.debounced)
///   }
/// }
/// ```
public func withTaskCancellation<T: Sendable>(
  id: some Hashable & Sendable,
  cancelInFlight: Bool = false,
  operation: @escaping @Sendable () async throws -> T
) async throws -> T {
  guard let context = EffectContext.current else {
    return try await operation()
  }
  let effectID = EffectID(id, path: context.path)
  if cancelInFlight {
    context.registry.cancel(effectID)
  }
  let handle = EffectHandle(registeredUnder: .one(effectID))
  context.registry.register(handle)
  defer { context.registry.remove(handle) }
  let task = Task { try await operation() }
  handle.attach(task)
  return try await withTaskCancellationHandler {
    try await task.value
  } onCancel: {
    task.cancel()
  }
}

/// A path of identities from a root store down to the reducer that created an effect: one
/// component per `forEach` element or `ifLet`/presentation child on the way.
@usableFromInline
struct EffectPath: Hashable, Sendable, ExpressibleByArrayLiteral {
  var components: [AnyHashableSendable]

  @usableFromInline
  init(arrayLiteral elements: AnyHashableSendable...) {
    self.components = elements
  }

  init(_ components: [AnyHashableSendable]) {
    self.components = components
  }

  @usableFromInline
  func prepending(_ component: AnyHashableSendable) -> Self {
    var result = [component]
    result.append(contentsOf: components)
    return Self(result)
  }

  /// This path and each of its ancestors, the root first.
  var prefixes: [EffectPath] {
    (0...components.count).map { Self(Array(components.prefix($0))) }
  }
}

/// A cancellation identifier: the user's value, its type, and the path it was used at.
///
/// Comparing two identifiers compares their types first, so that `CancelID.timer` of one
/// feature never equals another feature's `CancelID.timer`, and the values only when the types
/// match — without `AnyHashable`'s dynamic casts.
///
/// An object, created once per `.cancellable(id:)` or `.cancel(id:)`: the identifier is copied
/// into the effect's handle and the registry, and a copy is then a retain instead of a copy of an
/// existential value and a path through value witnesses (about 1,000 instructions per cancellable
/// round trip more than the allocation costs).
@usableFromInline
final class EffectID: Hashable, Sendable {
  let type: ObjectIdentifier
  let value: any Hashable & Sendable
  let path: EffectPath

  @usableFromInline
  init<ID: Hashable & Sendable>(_ id: ID, path: EffectPath = []) {
    self.type = ObjectIdentifier(ID.self)
    self.value = id
    self.path = path
  }

  private init(type: ObjectIdentifier, value: any Hashable & Sendable, path: EffectPath) {
    self.type = type
    self.value = value
    self.path = path
  }

  /// The same identifier at another path.
  func at(_ path: EffectPath) -> EffectID {
    EffectID(type: type, value: value, path: path)
  }

  @usableFromInline
  func prepending(_ component: AnyHashableSendable) -> EffectID {
    at(path.prepending(component))
  }

  @usableFromInline
  static func == (lhs: EffectID, rhs: EffectID) -> Bool {
    lhs === rhs
      || (lhs.type == rhs.type && lhs.path == rhs.path
        && valuesOfTheSameTypeAreEqual(lhs.value, rhs.value))
  }

  @usableFromInline
  func hash(into hasher: inout Hasher) {
    hasher.combine(type)
    hasher.combine(value)
    if !path.components.isEmpty { hasher.combine(path) }
  }
}

/// Compares two identifier values already known to be of the same type (their types'
/// `ObjectIdentifier`s are equal), without the dynamic casts of `AnyHashable`.
private func valuesOfTheSameTypeAreEqual(
  _ lhs: any Hashable & Sendable, _ rhs: any Hashable & Sendable
) -> Bool {
  func open<Value: Hashable & Sendable>(_ lhs: Value) -> Bool {
    func open<Other: Hashable & Sendable>(_ rhs: Other) -> Bool {
      lhs == unsafeBitCast(rhs, to: Value.self)
    }
    return open(rhs)
  }
  return open(lhs)
}

/// The cancellation identifiers an effect is registered under: usually none or one, kept without
/// an array.
@usableFromInline
enum _CancelIDs: Sendable {
  case none
  case one(EffectID)
  case many([EffectID])

  @usableFromInline
  func appending(_ id: consuming EffectID) -> Self {
    switch self {
    case .none: .one(id)
    case .one(let first): .many([first, id])
    case .many(let ids): .many(ids + [id])
    }
  }

  /// Whether some identifier has a path: it is then registered at each ancestor path too.
  var needsAncestorKeys: Bool {
    switch self {
    case .none: false
    case .one(let id): !id.path.components.isEmpty
    case .many: true
    }
  }

  var all: [EffectID] {
    switch self {
    case .none: []
    case .one(let id): [id]
    case .many(let ids): ids
    }
  }

  func forEachID(_ body: (EffectID) -> Void) {
    switch self {
    case .none: return
    case .one(let id): body(id)
    case .many(let ids): for id in ids { body(id) }
    }
  }
}

/// The task of one running effect, as the registry knows it.
///
/// Unchecked `Sendable` because a subclass (`_RunningEffect`) adds references set once in its
/// initializer and never written again; the handle's own mutable state is behind its mutex.
@usableFromInline
package class EffectHandle: @unchecked Sendable {
  /// Every key the effect is registered under: each identifier at its own path and at each
  /// ancestor path, so that cancelling an identifier at a path reaches the descendants too.
  let keys: _CancelIDs
  /// Where the registry keeps the handle in its list of running effects (guarded by the
  /// registry's lock; atomic only so that the class is `Sendable`).
  package let slot = Atomic<Int>(-1)
  private let state = Mutex<State>(State())

  private struct State {
    var task: Task<Void, Never>?
    var cancelOther: (@Sendable () -> Void)?
    var isCancelled = false
  }

  @usableFromInline
  init(registeredUnder ids: consuming _CancelIDs) {
    if ids.needsAncestorKeys {
      self.keys = .many(ids.all.flatMap { id in id.path.prefixes.map { id.at($0) } })
    } else {
      self.keys = ids
    }
  }

  /// Binds the handle to the task that runs the effect. A handle cancelled before its task exists
  /// cancels the task on arrival.
  @usableFromInline
  func attach(_ task: Task<Void, Never>) {
    let cancelNow = state.withLock { state -> Bool in
      guard !state.isCancelled else { return true }
      state.task = task
      return false
    }
    if cancelNow { task.cancel() }
  }

  /// Binds the handle to a task of another type (`withTaskCancellation`'s).
  func attach<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) {
    let cancelNow = state.withLock { state -> Bool in
      guard !state.isCancelled else { return true }
      state.cancelOther = { task.cancel() }
      return false
    }
    if cancelNow { task.cancel() }
  }

  func cancel() {
    let (task, cancelOther) = state.withLock { state in
      state.isCancelled = true
      defer {
        state.task = nil
        state.cancelOther = nil
      }
      return (state.task, state.cancelOther)
    }
    task?.cancel()
    cancelOther?()
  }

  @usableFromInline
  package var isCancelled: Bool { state.withLock { $0.isCancelled } }

  /// How many of the effect's actions a replay holds back for their turn. While any is held the
  /// effect stays in its registry even if its task has ended, so that an action that cancels it
  /// before that turn still reaches it — and the held action is dropped, as a live store drops
  /// the send of an effect cancelled first.
  @usableFromInline let heldActions = Atomic<Int>(0)
  /// Set when the effect's task ended while an action of it was held: the registry removes it
  /// once the last one is released.
  let removalDeferred = Atomic<Bool>(false)
  /// The effect's number in a recorded session, 0 until a recording names it
  /// (`DependencyTape.number(of:)`).
  package let recordingNumber = Atomic<Int>(0)

  /// Notes an action of this effect held back by a replay.
  package func hold() {
    heldActions.add(1, ordering: .acquiringAndReleasing)
  }

  /// Notes a held action delivered or dropped; removes the effect from `registry` when its task
  /// has ended meanwhile and no other action of it is held.
  package func release(from registry: CancellationRegistry) {
    let remaining = heldActions.subtract(1, ordering: .acquiringAndReleasing).newValue
    if remaining == 0, removalDeferred.exchange(false, ordering: .acquiringAndReleasing) {
      registry.remove(self)
    }
  }

  /// Whether the registry must keep the effect although its task ended: an action of it is held.
  func defersRemoval() -> Bool {
    guard heldActions.load(ordering: .acquiring) > 0 else { return false }
    removalDeferred.store(true, ordering: .releasing)
    // Released meanwhile: whoever takes the flag back removes it.
    if heldActions.load(ordering: .acquiring) > 0 { return true }
    return !removalDeferred.exchange(false, ordering: .acquiringAndReleasing)
  }
}

/// The running effects of one root store, indexed by cancellation identifier.
///
/// Each root store owns one registry, which is what isolates effect identifiers between stores
/// (two visitors of the web server never cancel each other's effects). It is guarded by a mutex
/// because effects finish, and may call `Task.cancel(id:)`, from any thread. Tasks are cancelled
/// outside the lock, since a cancellation handler may call back into the registry.
@usableFromInline
package final class CancellationRegistry: Sendable {
  private let state = Mutex<State>(State())

  /// Every registry whose store is alive, for `Task.cancel(id:)` outside an effect.
  static let live = LiveRegistries()

  @usableFromInline
  init() {
    Self.live.add(self)
  }

  private struct State {
    var byID = HandlesByID()
    /// Every running effect; each handle knows its index (its `slot`).
    var running: [EffectHandle] = []
  }

  /// The handles under one key: nearly always one, kept without an array.
  private enum Handles {
    case one(EffectHandle)
    case many([EffectHandle])

    var all: [EffectHandle] {
      switch self {
      case .one(let handle): [handle]
      case .many(let handles): handles
      }
    }

    func adding(_ handle: EffectHandle) -> Self {
      .many(all + [handle])
    }

    func removing(_ handle: EffectHandle) -> Self? {
      switch self {
      case .one(let only): return only === handle ? nil : self
      case .many(let handles):
        let kept = handles.filter { $0 !== handle }
        switch kept.count {
        case 0: return nil
        case 1: return .one(kept[0])
        default: return .many(kept)
        }
      }
    }
  }

  /// Handles by identifier. A store rarely has more than a few identifiers in use at once, so
  /// they live in a small array searched by comparison — no hashing per operation — until there
  /// are more than `smallLimit`, when a dictionary takes over. Each operation searches once and
  /// changes its entry in place.
  private struct HandlesByID {
    static let smallLimit = 16

    /// A struct rather than a tuple: the array's element is then copied by specialised code, not
    /// through a tuple's generic value witnesses.
    struct Entry {
      let id: EffectID
      var handles: Handles
    }

    var small: [Entry] = []
    var large: [EffectID: Handles]?

    var isEmpty: Bool { large?.isEmpty ?? small.isEmpty }
    var count: Int { large?.count ?? small.count }

    mutating func add(_ handle: EffectHandle, under id: EffectID) {
      if large != nil {
        if let handles = large![id] {
          large![id] = handles.adding(handle)
        } else {
          large![id] = .one(handle)
        }
        return
      }
      if let index = small.firstIndex(where: { $0.id == id }) {
        small[index].handles = small[index].handles.adding(handle)
      } else if small.count < Self.smallLimit {
        small.append(Entry(id: id, handles: .one(handle)))
      } else {
        var large = Dictionary(uniqueKeysWithValues: small.map { ($0.id, $0.handles) })
        large[id] = .one(handle)
        self.large = large
        small = []
      }
    }

    mutating func remove(_ handle: EffectHandle, under id: EffectID) {
      if large != nil {
        if let handles = large![id] { large![id] = handles.removing(handle) }
        return
      }
      guard let index = small.firstIndex(where: { $0.id == id }) else { return }
      if let kept = small[index].handles.removing(handle) {
        small[index].handles = kept
      } else {
        removeSmall(at: index)
      }
    }

    mutating func removeValue(forKey id: EffectID) -> Handles? {
      if large != nil { return large!.removeValue(forKey: id) }
      guard let index = small.firstIndex(where: { $0.id == id }) else { return nil }
      let handles = small[index].handles
      removeSmall(at: index)
      return handles
    }

    private mutating func removeSmall(at index: Int) {
      small.swapAt(index, small.count - 1)
      small.removeLast()
    }
  }

  @usableFromInline
  func register(_ handle: EffectHandle) {
    state.withLock { state in
      handle.slot.store(state.running.count, ordering: .relaxed)
      state.running.append(handle)
      handle.keys.forEachID { key in state.byID.add(handle, under: key) }
    }
  }

  @usableFromInline
  func remove(_ handle: EffectHandle) {
    if handle.defersRemoval() { return }
    state.withLock { state in
      let slot = handle.slot.load(ordering: .relaxed)
      guard slot >= 0, slot < state.running.count, state.running[slot] === handle else { return }
      let last = state.running.removeLast()
      if last !== handle {
        state.running[slot] = last
        last.slot.store(slot, ordering: .relaxed)
      }
      handle.slot.store(-1, ordering: .relaxed)
      handle.keys.forEachID { key in state.byID.remove(handle, under: key) }
    }
  }

  /// Cancels the effects registered under `id` at its path or below it.
  @usableFromInline
  /// Cancels the effects registered under `id`; returns whether there was any.
  @discardableResult
  func cancel(_ id: EffectID) -> Bool {
    // Nothing registered under any identifier (the usual case for `cancelInFlight`): no lookup.
    let handles = state.withLock { $0.byID.isEmpty ? nil : $0.byID.removeValue(forKey: id) }
    switch handles {
    case .none: return false
    case .one(let handle): handle.cancel()
    case .many(let handles): for handle in handles { handle.cancel() }
    }
    return true
  }

  /// How many effects are running.
  @usableFromInline package var runningCount: Int {
    state.withLock { $0.running.count }
  }

  /// Cancels every running effect.
  @usableFromInline
  package func cancelAll() {
    let handles = state.withLock { state -> [EffectHandle] in
      defer { state.byID = HandlesByID() }
      return state.running
    }
    for handle in handles {
      handle.cancel()
    }
  }

  /// The number of effects still running.
  var count: Int { state.withLock { $0.running.count } }

  /// The number of identifier keys still registered; zero once every effect has finished.
  var keyCount: Int { state.withLock { $0.byID.count } }
}

/// What an effect's task knows about where it runs: its store's registry and its path, for
/// `Task.cancel(id:)` and `withTaskCancellation(id:)` inside the effect. A running effect is its
/// own context (``_RunningEffect`` is a subclass): binding it copies a reference, not a value.
@usableFromInline
package class EffectContext: EffectHandle, @unchecked Sendable {
  @usableFromInline let registry: CancellationRegistry
  @usableFromInline let path: EffectPath

  @usableFromInline
  init(registry: CancellationRegistry, path: EffectPath, registeredUnder ids: consuming _CancelIDs)
  {
    self.registry = registry
    self.path = path
    super.init(registeredUnder: ids)
  }

  @TaskLocal package static var current: EffectContext?

  /// Runs `operation` with this context bound: a task it creates inherits the context.
  @usableFromInline
  func bound<Result>(_ operation: () -> Result) -> Result {
    Self.$current.withValue(self, operation: operation)
  }
}

/// Weak references to the registries of the stores alive in the process.
final class LiveRegistries: Sendable {
  private struct Entry {
    weak var registry: CancellationRegistry?
  }

  private let entries = Mutex<[Entry]>([])

  func add(_ registry: CancellationRegistry) {
    entries.withLock { entries in
      // Dropping the released entries whenever the list doubles keeps adding amortised O(1).
      if entries.count >= 64, entries.count.nonzeroBitCount == 1 {
        entries.removeAll { $0.registry == nil }
      }
      entries.append(Entry(registry: registry))
    }
  }

  func registries() -> [CancellationRegistry] {
    entries.withLock { entries in
      entries.removeAll { $0.registry == nil }
      return entries.compactMap(\.registry)
    }
  }
}
