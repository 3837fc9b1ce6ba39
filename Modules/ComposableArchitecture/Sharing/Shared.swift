import ConcurrencyExtras
import CustomDump
import Foundation

/// A value shared by reference between features, optionally persisted by a key.
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @Shared var count: Int                              // handed in by a parent
///   @Shared(.inMemory("isOn")) var isOn = false         // shared by key, in memory
///   @Shared(.fileStorage(.settingsURL)) var settings = UserSettings()
/// }
/// ```
///
/// Reading is plain (`state.count`); changing goes through the lock, so that no two changes
/// interleave: `state.$count.withLock { $0 += 1 }`. `$count.member` projects a member as its own
/// `Shared`. Two `Shared` values are equal when their values are.
///
/// In a `TestStore`, changes to shared state are asserted like any other state, in the step that
/// made them: `await store.send(.increment) { $0.$count.withLock { $0 = 1 } }`. A change no step
/// asserted fails the test when the store finishes ("Test store finished before asserting against
/// changes to shared state.").
@dynamicMemberLookup
@propertyWrapper
public struct Shared<Value> {
  @usableFromInline package let box: _SharedBox<Value>

  init(box: _SharedBox<Value>) {
    self.box = box
  }

  /// A shared reference to `value`, not persisted.
  public init(value: sending Value) {
    self.init(box: _SharedRootBox(_SharedRoot(value)))
  }

  /// `Shared($currentUser)`: the shared optional as a shared value, or `nil` when it is `nil`.
  public init?(_ base: Shared<Value?>) {
    guard let box = _SharedUnwrappedBox(base.box) else { return nil }
    self.init(box: box)
  }

  public init(projectedValue: Self) {
    self = projectedValue
  }

  /// The value. Change it with ``withLock(_:fileID:filePath:line:column:)``.
  public var wrappedValue: Value {
    @inlinable get {
      if let root = box.rootReference { return root.readCurrent() }
      return box.current
    }
    @available(
      *, unavailable,
      message: "Use '$shared.withLock' to modify a shared value with exclusive access."
    )
    nonmutating set { box.withLock { $0 = newValue } }
  }

  /// Changes the value with exclusive access; a persisted value is then saved.
  @discardableResult
  public func withLock<R>(
    _ operation: (inout Value) throws -> R,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) rethrows -> R {
    try box.withLock(operation)
  }

  /// The shared reference itself: `$count`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// A member as its own shared value: `$user.name`.
  public subscript<Member>(dynamicMember keyPath: WritableKeyPath<Value, Member>) -> Shared<Member>
  {
    Shared<Member>(box: _SharedMemberBox(box, keyPath))
  }

  /// A read-only member: `$todos.count`.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(box: _SharedReadOnlyMemberBox(box, keyPath))
  }

  /// The error of the last load from the key, if it failed; the value keeps its last good value.
  public var loadError: (any Error)? {
    box.persistence?.loadError
  }

  /// The error of the last save to the key, if it failed.
  public var saveError: (any Error)? {
    box.persistence?.saveError
  }

  /// Whether a load is in progress. The keys of this runtime load synchronously: always `false`.
  public var isLoading: Bool { false }

  /// Saves the value to its key now, without throttling.
  public func save() async throws {
    guard let root = box.root as? _SharedRoot<Value>, let persistence = root.persistence else {
      return
    }
    try await persistence.saveNow(root.read(.live))
  }

  /// Loads the value from its key again.
  public func load() async throws {
    guard let root = box.root as? _SharedRoot<Value>, let persistence = root.persistence else {
      return
    }
    persistence.load(.userInitiated, into: root)
    if let error = persistence.loadError { throw error }
  }
}

extension Shared {
  /// A value shared by `key`, starting from `value` when the key has nothing stored.
  public init(wrappedValue value: @autoclosure () -> Value, _ key: some SharedKey<Value>)
  where Value: Sendable {
    self.init(box: _SharedRootBox(Self.root(key, value())))
  }

  /// A value shared by a key that brings its default: `@Shared(.count) var count`.
  public init<Key: SharedKey<Value>>(_ key: _SharedKeyDefault<Key>) where Value: Sendable {
    self.init(box: _SharedRootBox(Self.root(key, key.defaultValue())))
  }

  /// A value shared by a key with a default of its own, overriding the key's default.
  @_disfavoredOverload
  public init<Key: SharedKey<Value>>(
    wrappedValue value: @autoclosure () -> Value, _ key: _SharedKeyDefault<Key>
  ) where Value: Sendable {
    self.init(box: _SharedRootBox(Self.root(key, value())))
  }

  /// An optional value shared by `key`, `nil` until something is stored.
  @_disfavoredOverload
  public init<Wrapped: Sendable>(_ key: some SharedKey<Value>) where Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }

  /// The reference of `key`: the existing one, or a new one loaded from the key.
  private static func root<Key: SharedKey<Value>>(_ key: Key, _ value: @autoclosure () -> Value)
    -> _SharedRoot<Value>
  {
    _SharedReferences.root(
      for: key, initialValue: value(), persistence: { _SharedPersistence(key: key) })
  }
}

extension Shared: @unchecked Sendable {}

extension Shared: Equatable where Value: Equatable {
  /// Equal when the values are. While a test store asserts, the left side (the state before the
  /// step, or as the test expects it) reads the expected value and the right side (the state the
  /// step left) the actual one.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box.current == rhs.box.actual
  }
}

extension Shared: Identifiable where Value: Identifiable {
  public var id: Value.ID { wrappedValue.id }
}

extension Shared: CustomStringConvertible {
  public var description: String {
    "Shared<\(typeName(Value.self, genericsAbbreviated: false))>(\(wrappedValue))"
  }
}

extension Shared: CustomReflectable {
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

extension Shared: CustomDumpRepresentable {
  public var customDumpValue: Any { wrappedValue }
}

extension Shared: _CustomDiffObject {
  public var _customDiffValues: (Any, Any) {
    (box.current, box.actual)
  }

  public var _objectIdentifier: ObjectIdentifier { ObjectIdentifier(box) }
}

extension Shared: _SharedTrackable {
  package var sharedRoot: _SharedRootBase { box.root }
  package var sharedBox: AnyObject { box }
  package func expectationMismatch() -> String? {
    diff(box.value(.expected), box.value(.actual), format: .proportional)
  }
}

/// What a test store looks for in its state to track shared references.
package protocol _SharedTrackable {
  var sharedRoot: _SharedRootBase { get }
  /// The place the value is read from: the root, or a part of it.
  var sharedBox: AnyObject { get }
  /// Within an assertion: how the value as this reference sees it differs between the expected
  /// and the actual side.
  func expectationMismatch() -> String?
}
