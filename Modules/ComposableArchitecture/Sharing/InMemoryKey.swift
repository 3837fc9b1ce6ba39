import ConcurrencyExtras
import CustomDump
import Dependencies
import Foundation

extension SharedReaderKey {
  /// A value shared in memory under `key`, for the life of the process (in tests, of the test):
  /// `@Shared(.inMemory("count")) var count = 0`.
  public static func inMemory<Value>(_ key: String) -> Self where Self == InMemoryKey<Value> {
    InMemoryKey(key)
  }
}

/// A key that keeps a value in memory (``SharedReaderKey/inMemory(_:)``).
///
/// The values live in ``InMemoryStorage``, a dependency: one storage per process in an app, a
/// fresh one per test.
public struct InMemoryKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  private let key: String
  private let storage: InMemoryStorage

  init(_ key: String) {
    @Dependency(\.defaultInMemoryStorage) var storage
    self.key = key
    self.storage = storage
  }

  public var id: InMemoryKeyID { InMemoryKeyID(key: key, storage: ObjectIdentifier(storage)) }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    if let value = storage.value(forKey: key) as? Value {
      continuation.resume(returning: value)
    } else {
      if let initial = context.initialValue { storage.set(initial, forKey: key) }
      continuation.resumeReturningInitialValue()
    }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>)
    -> SharedSubscription
  {
    SharedSubscription {}
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    storage.set(value, forKey: key)
    continuation.resume()
  }

  public var description: String { ".inMemory(\(String(reflecting: key)))" }
}

/// What identifies an in-memory value: its key in its storage.
public struct InMemoryKeyID: Hashable, Sendable {
  let key: String
  let storage: ObjectIdentifier
}

/// The values of ``InMemoryKey``s.
public final class InMemoryStorage: @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String: any Sendable] = [:]

  public init() {}

  func value(forKey key: String) -> (any Sendable)? {
    lock.withLock { values[key] }
  }

  func set(_ value: any Sendable, forKey key: String) {
    lock.withLock { values[key] = value }
  }
}

private enum DefaultInMemoryStorageKey: DependencyKey {
  static var liveValue: InMemoryStorage { InMemoryStorage() }
  static var testValue: InMemoryStorage { InMemoryStorage() }
}

extension DependencyValues {
  /// The storage of `.inMemory` shared values.
  public var defaultInMemoryStorage: InMemoryStorage {
    get { self[DefaultInMemoryStorageKey.self] }
    set { self[DefaultInMemoryStorageKey.self] = newValue }
  }
}
