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
  public func cancellable(id: some Hashable & Sendable, cancelInFlight: Bool = false) -> Self {
    if case .none = operation { return .none }
    return Self(operation: .cancellable(self, id: EffectID(id), cancelInFlight: cancelInFlight))
  }

  /// An effect that cancels the effects registered under an identifier, including the effects a
  /// child registered under the same identifier. It completes immediately.
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
  /// The identifier is resolved against the store and the path of the effect that calls it, as a
  /// `.cancel(id:)` effect returned by the same reducer would be. Outside an effect it does nothing.
  public static func cancel(id: some Hashable & Sendable) {
    guard let context = EffectContext.current else { return }
    context.registry.cancel(EffectID(id, path: context.path))
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
  let handle = EffectHandle(registeredUnder: [effectID])
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
@usableFromInline
struct EffectID: Hashable, Sendable {
  let type: ObjectIdentifier
  let value: AnyHashableSendable
  var path: EffectPath

  init<ID: Hashable & Sendable>(_ id: ID, path: EffectPath = []) {
    self.type = ObjectIdentifier(ID.self)
    self.value = AnyHashableSendable(id)
    self.path = path
  }

  func prepending(_ component: AnyHashableSendable) -> Self {
    var copy = self
    copy.path = path.prepending(component)
    return copy
  }
}

/// The task of one running effect, as the registry knows it.
final class EffectHandle: Sendable, Hashable {
  /// Every key the effect is registered under: each identifier at its own path and at each
  /// ancestor path, so that cancelling an identifier at a path reaches the descendants too.
  let keys: [EffectID]
  private let state = Mutex<State>(State())

  private struct State {
    var cancelTask: (@Sendable () -> Void)?
    var isCancelled = false
  }

  init(registeredUnder ids: [EffectID]) {
    var keys: [EffectID] = []
    for id in ids {
      for prefix in id.path.prefixes {
        var key = id
        key.path = prefix
        keys.append(key)
      }
    }
    self.keys = keys
  }

  /// Binds the handle to the task that runs the effect. A handle cancelled before its task exists
  /// cancels the task on arrival.
  func attach<Success: Sendable, Failure: Error>(_ task: Task<Success, Failure>) {
    let cancelNow = state.withLock { state -> Bool in
      guard !state.isCancelled else { return true }
      state.cancelTask = { task.cancel() }
      return false
    }
    if cancelNow { task.cancel() }
  }

  func cancel() {
    let cancelTask = state.withLock { state -> (@Sendable () -> Void)? in
      state.isCancelled = true
      defer { state.cancelTask = nil }
      return state.cancelTask
    }
    cancelTask?()
  }

  static func == (lhs: EffectHandle, rhs: EffectHandle) -> Bool { lhs === rhs }
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

/// The running effects of one root store, indexed by cancellation identifier.
///
/// Each root store owns one registry, which is what isolates effect identifiers between stores
/// (two visitors of the web server never cancel each other's effects). It is guarded by a mutex
/// because effects finish, and may call `Task.cancel(id:)`, from any thread. Tasks are cancelled
/// outside the lock, since a cancellation handler may call back into the registry.
final class CancellationRegistry: Sendable {
  private let state = Mutex<State>(State())

  private struct State {
    var byID: [EffectID: Set<EffectHandle>] = [:]
    var all: Set<EffectHandle> = []
  }

  func register(_ handle: EffectHandle) {
    state.withLock { state in
      state.all.insert(handle)
      for key in handle.keys {
        state.byID[key, default: []].insert(handle)
      }
    }
  }

  func remove(_ handle: EffectHandle) {
    state.withLock { state in
      state.all.remove(handle)
      for key in handle.keys {
        guard var handles = state.byID[key] else { continue }
        handles.remove(handle)
        state.byID[key] = handles.isEmpty ? nil : handles
      }
    }
  }

  /// Cancels the effects registered under `id` at its path or below it.
  func cancel(_ id: EffectID) {
    let handles = state.withLock { $0.byID.removeValue(forKey: id) }
    for handle in handles ?? [] {
      handle.cancel()
    }
  }

  /// Cancels every running effect.
  func cancelAll() {
    let handles = state.withLock { state -> Set<EffectHandle> in
      defer { state.byID = [:] }
      return state.all
    }
    for handle in handles {
      handle.cancel()
    }
  }

  /// The number of effects still running.
  var count: Int { state.withLock { $0.all.count } }

  /// The number of identifier keys still registered; zero once every effect has finished.
  var keyCount: Int { state.withLock { $0.byID.count } }
}

/// What an effect's task knows about where it runs: its store's registry and its path.
struct EffectContext: Sendable {
  let registry: CancellationRegistry
  let path: EffectPath

  @TaskLocal static var current: EffectContext?
}
