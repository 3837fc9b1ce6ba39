import ConcurrencyExtras
import CustomDump
import Foundation

/// A place a shared value is loaded from: `@SharedReader(.someKey) var value = 0`.
///
/// A key loads the value once, when the first `Shared`/`SharedReader` with its ``id`` is created,
/// and may push later changes (made outside the app) through ``subscribe(context:subscriber:)``.
/// Every `Shared` created with keys of the same `id` shares one reference.
public protocol SharedReaderKey<Value>: Sendable {
  associatedtype Value: Sendable
  associatedtype ID: Hashable = Self

  /// What identifies the stored value: keys with equal ids share one reference.
  var id: ID { get }

  /// Loads the value; `continuation` is resumed exactly once, with `nil` for "keep the initial
  /// value".
  func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>)

  /// Subscribes to changes made outside the app; the subscription is cancelled when the shared
  /// reference goes away.
  func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>)
    -> SharedSubscription
}

extension SharedReaderKey where ID == Self {
  public var id: ID { self }
}

/// A place a shared value is loaded from and saved to: `@Shared(.fileStorage(url)) var value = 0`.
public protocol SharedKey<Value>: SharedReaderKey {
  /// Saves the value; called after every change made with `withLock` (``SaveContext/didSet``) and
  /// by `Shared.save()` (``SaveContext/userInitiated``).
  func save(_ value: Value, context: SaveContext, continuation: SaveContinuation)
}

/// Why a key is asked to load.
public enum LoadContext<Value> {
  /// The first `Shared` of the key is being created with this value as its default.
  case initialValue(Value)
  /// `Shared.load()` was called.
  case userInitiated

  /// The default value, when there is one.
  public var initialValue: Value? {
    guard case .initialValue(let value) = self else { return nil }
    return value
  }
}

extension LoadContext: Sendable where Value: Sendable {}

/// Why a key is asked to save.
public enum SaveContext: Hashable, Sendable {
  /// The value changed through `withLock`.
  case didSet
  /// `Shared.save()` was called: save now, without throttling.
  case userInitiated
}

/// Resumes a load: with a value, with `nil` (keep the initial value) or with an error.
public struct LoadContinuation<Value>: Sendable {
  private let callback: @Sendable (Result<Value?, any Error>) -> Void

  public init(callback: @escaping @Sendable (Result<Value?, any Error>) -> Void) {
    self.callback = callback
  }

  public func resume(returning value: Value) { callback(.success(value)) }
  public func resume(throwing error: any Error) { callback(.failure(error)) }
  /// Keeps the initial value (the stored value is missing).
  public func resumeReturningInitialValue() { callback(.success(nil)) }
  public func resume(with result: Result<Value?, any Error>) { callback(result) }
}

/// Resumes a save.
public struct SaveContinuation: Sendable {
  private let callback: @Sendable (Result<Void, any Error>) -> Void

  public init(callback: @escaping @Sendable (Result<Void, any Error>) -> Void) {
    self.callback = callback
  }

  public func resume() { callback(.success(())) }
  public func resume(throwing error: any Error) { callback(.failure(error)) }
  public func resume(with result: Result<Void, any Error>) { callback(result) }
}

/// Receives the changes a key observes outside the app.
public struct SharedSubscriber<Value>: Sendable {
  private let callback: @Sendable (Result<Value?, any Error>) -> Void

  public init(callback: @escaping @Sendable (Result<Value?, any Error>) -> Void) {
    self.callback = callback
  }

  public func yield(_ value: Value) { callback(.success(value)) }
  public func yield(throwing error: any Error) { callback(.failure(error)) }
  /// The stored value went away: the initial value stands again.
  public func yieldReturningInitialValue() { callback(.success(nil)) }
  public func yield(with result: Result<Value?, any Error>) { callback(result) }
}

/// Cancels a key's subscription.
public struct SharedSubscription: Sendable {
  private let onCancel: @Sendable () -> Void

  public init(_ cancel: @escaping @Sendable () -> Void) {
    self.onCancel = cancel
  }

  public func cancel() { onCancel() }
}

// MARK: - Keys with a default value

extension SharedReaderKey {
  /// A key with its default value: `Self[.inMemory("count"), default: 0]`, so that
  /// `@Shared(.count) var count` needs no default at the use site.
  public typealias Default = _SharedKeyDefault<Self>
}

/// A key and the default value its shared value starts from.
public struct _SharedKeyDefault<Base: SharedReaderKey>: SharedReaderKey {
  public typealias Value = Base.Value

  public let base: Base
  let defaultValue: @Sendable () -> Base.Value

  /// `Self[.inMemory("count"), default: 0]`.
  public static subscript(
    _ key: Base, default value: @autoclosure @escaping @Sendable () -> Base.Value
  ) -> Self {
    Self(base: key, defaultValue: value)
  }

  public var id: Base.ID { base.id }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    base.load(
      context: .initialValue(context.initialValue ?? defaultValue()), continuation: continuation)
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>)
    -> SharedSubscription
  {
    base.subscribe(context: context, subscriber: subscriber)
  }
}

extension _SharedKeyDefault: SharedKey where Base: SharedKey {
  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    base.save(value, context: context, continuation: continuation)
  }
}

// MARK: - One reference per key

/// Loads and saves a root's value through its key, and remembers the errors.
@usableFromInline
package final class _SharedPersistence<Value>: @unchecked Sendable {
  private let lock = NSLock()
  private let saver: (@Sendable (Value, SaveContext, SaveContinuation) -> Void)?
  private let loader: @Sendable (LoadContext<Value>, LoadContinuation<Value>) -> Void
  var subscription: SharedSubscription?
  private var _loadError: (any Error)?
  private var _saveError: (any Error)?
  let keyDescription: String

  init<Key: SharedReaderKey<Value>>(reading key: Key) {
    self.loader = { key.load(context: $0, continuation: $1) }
    self.saver = nil
    self.keyDescription = String(describing: key)
  }

  init<Key: SharedKey<Value>>(key: Key) {
    self.loader = { key.load(context: $0, continuation: $1) }
    self.saver = { key.save($0, context: $1, continuation: $2) }
    self.keyDescription = String(describing: key)
  }

  var loadError: (any Error)? {
    get { lock.withLock { _loadError } }
    set { lock.withLock { _loadError = newValue } }
  }

  var saveError: (any Error)? {
    get { lock.withLock { _saveError } }
    set { lock.withLock { _saveError = newValue } }
  }

  func load(_ context: LoadContext<Value>, into root: _SharedRoot<Value>) {
    let initial = UncheckedSendable(context.initialValue)
    loader(
      context,
      LoadContinuation { [weak root, weak self] result in
        switch result {
        case .success(let value?):
          root?.replaceLive(value)
          self?.loadError = nil
        case .success(nil):
          if let initial = initial.value { root?.replaceLive(initial) }
          self?.loadError = nil
        case .failure(let error):
          self?.loadError = error
        }
      })
  }

  func save(_ value: Value, context: SaveContext) {
    saver?(
      value, context,
      SaveContinuation { [weak self] result in
        switch result {
        case .success: self?.saveError = nil
        case .failure(let error): self?.saveError = error
        }
      })
  }

  /// Saves and waits until the key has resumed.
  func saveNow(_ value: Value) async throws {
    guard let saver else { return }
    try await withCheckedThrowingContinuation {
      (continuation: CheckedContinuation<Void, any Error>) in
      saver(
        value, .userInitiated,
        SaveContinuation { [weak self] result in
          switch result {
          case .success: self?.saveError = nil
          case .failure(let error): self?.saveError = error
          }
          continuation.resume(with: result)
        })
    }
  }
}

/// The live references of persisted shared values, by key id: a second `Shared` of the same key
/// finds the first one's reference.
enum _SharedReferences {
  private final class Weak: @unchecked Sendable {
    weak var root: _SharedRootBase?
    init(_ root: _SharedRootBase) { self.root = root }
  }

  private static let lock = NSLock()
  nonisolated(unsafe) private static var references: [AnyHashable: Weak] = [:]

  /// The reference of `key`, created (and loaded) if there is none.
  static func root<Key: SharedReaderKey>(
    for key: Key, initialValue: @autoclosure () -> Key.Value,
    persistence: () -> _SharedPersistence<Key.Value>
  ) -> _SharedRoot<Key.Value> {
    let id = AnyHashable(key.id)
    let (root, isNew): (_SharedRoot<Key.Value>, Bool) = lock.withLock {
      if let existing = references[id]?.root as? _SharedRoot<Key.Value> {
        return (existing, false)
      }
      if references.count > 64 { references = references.filter { $0.value.root != nil } }
      let root = _SharedRoot(initialValue(), persistence: persistence())
      references[id] = Weak(root)
      return (root, true)
    }
    guard isNew, let persistence = root.persistence else { return root }
    let initial = root.read(.live)
    persistence.load(.initialValue(initial), into: root)
    persistence.subscription = key.subscribe(
      context: .initialValue(initial),
      subscriber: SharedSubscriber { [weak root] result in
        switch result {
        case .success(let value?): root?.replaceLive(value)
        case .success(nil): root?.replaceLive(initial)
        case .failure(let error): root?.persistence?.loadError = error
        }
      })
    return root
  }
}
