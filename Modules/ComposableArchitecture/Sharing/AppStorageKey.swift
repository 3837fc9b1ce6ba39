import ConcurrencyExtras
import CustomDump
import Dependencies
import Foundation

extension SharedReaderKey {
  /// A `Bool` kept in user defaults under `key`: `@Shared(.appStorage("isOn")) var isOn = false`.
  ///
  /// The store is `store`, or the `defaultAppStorage` dependency: `UserDefaults.standard` in an
  /// app, a store of its own per test. A key with nothing stored (or a value of another type)
  /// gives the default, which is then written, so every reader of the store sees it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Bool> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// An `Int` kept in user defaults under `key`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Int> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// A `Double` kept in user defaults under `key`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// A `String` kept in user defaults under `key`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// A `[String]` kept in user defaults under `key`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<[String]> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// A `URL` kept in user defaults under `key`, as its absolute string.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<URL> {
    AppStorageKey(key, lookup: _URLLookup(), store: store)
  }

  /// `Data` kept in user defaults under `key`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Data> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// A `Date` kept in user defaults under `key`.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date> {
    AppStorageKey(key, lookup: _CastLookup(), store: store)
  }

  /// A value kept in user defaults under `key` as its `Int` raw value.
  public static func appStorage<Value: RawRepresentable<Int> & Sendable>(
    _ key: String, store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key, lookup: _RawValueLookup(base: _CastLookup()), store: store)
  }

  /// A value kept in user defaults under `key` as its `String` raw value.
  public static func appStorage<Value: RawRepresentable<String> & Sendable>(
    _ key: String, store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value> {
    AppStorageKey(key, lookup: _RawValueLookup(base: _CastLookup()), store: store)
  }

  /// An optional `Bool` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Bool?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional `Int` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Int?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional `Double` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Double?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional `String` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<String?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional `[String]` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<[String]?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional `URL` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<URL?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _URLLookup()), store: store)
  }

  /// Optional `Data` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Data?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional `Date` kept in user defaults under `key`; `nil` removes it.
  public static func appStorage(_ key: String, store: UserDefaults? = nil) -> Self
  where Self == AppStorageKey<Date?> {
    AppStorageKey(key, lookup: _OptionalLookup(base: _CastLookup()), store: store)
  }

  /// An optional value kept in user defaults under `key` as its `Int` raw value.
  public static func appStorage<Value: RawRepresentable<Int> & Sendable>(
    _ key: String, store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value?> {
    AppStorageKey(
      key, lookup: _OptionalLookup(base: _RawValueLookup(base: _CastLookup())), store: store)
  }

  /// An optional value kept in user defaults under `key` as its `String` raw value.
  public static func appStorage<Value: RawRepresentable<String> & Sendable>(
    _ key: String, store: UserDefaults? = nil
  ) -> Self where Self == AppStorageKey<Value?> {
    AppStorageKey(
      key, lookup: _OptionalLookup(base: _RawValueLookup(base: _CastLookup())), store: store)
  }
}

/// A key that keeps a value in user defaults (``SharedReaderKey/appStorage(_:store:)``).
///
/// Keys of the same name in the same store share one reference. A change made to the store by
/// other code reaches the shared value when the store announces it with
/// `UserDefaults.didChangeNotification` — Apple's Foundation does; swift-corelibs-foundation
/// posts nothing, so on Linux such changes are seen only when a reference is created anew.
public struct AppStorageKey<Value: Sendable>: SharedKey, CustomStringConvertible {
  private let key: String
  private let lookup: any _AppStorageLookup<Value>
  private let store: UncheckedSendable<UserDefaults>

  init(_ key: String, lookup: some _AppStorageLookup<Value>, store: UserDefaults?) {
    @Dependency(\.defaultAppStorage) var defaultStore
    self.key = key
    self.lookup = lookup
    self.store = UncheckedSendable(store ?? defaultStore)
  }

  public var id: AppStorageKeyID {
    AppStorageKeyID(key: key, store: ObjectIdentifier(store.value))
  }

  public func load(context: LoadContext<Value>, continuation: LoadContinuation<Value>) {
    if let value = lookup.load(from: store.value, key: key) {
      continuation.resume(returning: value)
    } else {
      if let initial = context.initialValue { write(initial) }
      continuation.resumeReturningInitialValue()
    }
  }

  public func subscribe(context: LoadContext<Value>, subscriber: SharedSubscriber<Value>)
    -> SharedSubscription
  {
    let key = self.key
    let lookup = self.lookup
    let store = self.store
    let token = NotificationCenter.default.addObserver(
      forName: UserDefaults.didChangeNotification, object: store.value, queue: nil
    ) { _ in
      // The store announces its own writes too: a key's save is not news to its reference.
      guard !_AppStorageWriting.isWriting else { return }
      if let value = lookup.load(from: store.value, key: key) {
        subscriber.yield(value)
      } else {
        subscriber.yieldReturningInitialValue()
      }
    }
    let observer = UncheckedSendable(token)
    return SharedSubscription { NotificationCenter.default.removeObserver(observer.value) }
  }

  public func save(_ value: Value, context: SaveContext, continuation: SaveContinuation) {
    write(value)
    continuation.resume()
  }

  private func write(_ value: Value) {
    _AppStorageWriting.$isWriting.withValue(true) {
      lookup.save(value, to: store.value, key: key)
    }
  }

  public var description: String { ".appStorage(\(String(reflecting: key)))" }
}

/// What identifies a value in user defaults: its key in its store.
public struct AppStorageKeyID: Hashable, Sendable {
  let key: String
  let store: ObjectIdentifier
}

private enum _AppStorageWriting {
  @TaskLocal static var isWriting = false
}

/// How a value of one type is read from and written to user defaults.
public protocol _AppStorageLookup<Value>: Sendable {
  associatedtype Value: Sendable
  /// The stored value, or `nil` when nothing of this type is stored under `key`.
  func load(from store: UserDefaults, key: String) -> Value?
  func save(_ value: Value, to store: UserDefaults, key: String)
}

/// A property-list type user defaults keeps as it is.
public struct _CastLookup<Value: Sendable>: _AppStorageLookup {
  public func load(from store: UserDefaults, key: String) -> Value? {
    store.object(forKey: key) as? Value
  }

  public func save(_ value: Value, to store: UserDefaults, key: String) {
    store.set(value, forKey: key)
  }
}

/// A URL, kept as its absolute string (swift-corelibs-foundation's `set(_:forKey:)` for URLs
/// does not give the URL back), or read from data Apple's Foundation archived.
public struct _URLLookup: _AppStorageLookup {
  public func load(from store: UserDefaults, key: String) -> URL? {
    switch store.object(forKey: key) {
    case let string as String: URL(string: string)
    case is Data: store.url(forKey: key)
    default: nil
    }
  }

  public func save(_ value: URL, to store: UserDefaults, key: String) {
    store.set(value.absoluteString, forKey: key)
  }
}

/// A raw-representable value, kept as its raw value; a raw value that makes no value reads as
/// nothing stored.
public struct _RawValueLookup<Value: RawRepresentable & Sendable, Base: _AppStorageLookup>:
  _AppStorageLookup
where Base.Value == Value.RawValue {
  let base: Base

  public func load(from store: UserDefaults, key: String) -> Value? {
    base.load(from: store, key: key).flatMap(Value.init(rawValue:))
  }

  public func save(_ value: Value, to store: UserDefaults, key: String) {
    base.save(value.rawValue, to: store, key: key)
  }
}

/// An optional value: `nil` is kept as nothing stored.
public struct _OptionalLookup<Base: _AppStorageLookup>: _AppStorageLookup {
  let base: Base

  public func load(from store: UserDefaults, key: String) -> Base.Value?? {
    base.load(from: store, key: key).map { .some($0) }
  }

  public func save(_ value: Base.Value?, to store: UserDefaults, key: String) {
    if let value {
      base.save(value, to: store, key: key)
    } else {
      store.removeObject(forKey: key)
    }
  }
}

private enum DefaultAppStorageKey: DependencyKey {
  static var liveValue: UncheckedSendable<UserDefaults> { UncheckedSendable(.standard) }
  /// A store of its own for each test.
  static var testValue: UncheckedSendable<UserDefaults> { UncheckedSendable(_TestUserDefaults()) }
}

/// The user defaults of one test: values kept in memory, never written to a file.
/// (swift-corelibs-foundation writes every changed suite to a file when the process exits, so a
/// suite per test would leave a file in the temporary folder per test.) Defaults registered with
/// `register(defaults:)` are read as from any store.
final class _TestUserDefaults: UserDefaults, @unchecked Sendable {
  private let lock = NSLock()
  private var values: [String: Any] = [:]

  init() {
    super.init(suiteName: "composable-architecture.test-app-storage.\(UUID().uuidString)")!
  }

  override func object(forKey defaultName: String) -> Any? {
    lock.withLock { values[defaultName] } ?? super.object(forKey: defaultName)
  }

  override func set(_ value: Any?, forKey defaultName: String) {
    lock.withLock { values[defaultName] = value }
  }

  override func removeObject(forKey defaultName: String) {
    lock.withLock { values[defaultName] = nil }
  }

  override func dictionaryRepresentation() -> [String: Any] {
    super.dictionaryRepresentation().merging(lock.withLock { values }) { $1 }
  }

  override func synchronize() -> Bool { true }
}

extension DependencyValues {
  /// Where `.appStorage` shared values are kept: `UserDefaults.standard` in an app, a fresh
  /// store of its own in each test.
  public var defaultAppStorage: UserDefaults {
    get { self[DefaultAppStorageKey.self].value }
    set { self[DefaultAppStorageKey.self] = UncheckedSendable(newValue) }
  }
}
