import ConcurrencyExtras
import CustomDump
import Foundation

/// A read-only view of a shared value: `@SharedReader(.inMemory("count")) var count = 0`, or
/// `SharedReader($count)` from a `Shared`.
///
/// It sees every change made through the `Shared` values of the same reference, and cannot make
/// any.
@dynamicMemberLookup
@propertyWrapper
public struct SharedReader<Value> {
  package let box: _SharedReadableBox<Value>

  init(box: _SharedReadableBox<Value>) {
    self.box = box
  }

  /// A reader of `shared`.
  public init(_ shared: Shared<Value>) {
    self.init(box: shared.box)
  }

  /// A reader of a constant value.
  public init(value: sending Value) {
    self.init(box: _SharedRootBox(_SharedRoot(value)))
  }

  public init(projectedValue: Self) {
    self = projectedValue
  }

  /// The value.
  public var wrappedValue: Value { box.current }

  /// The reader itself: `$count`.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// A member as its own reader: `$settings.displayName`.
  public subscript<Member>(dynamicMember keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader<Member>(box: _SharedReadOnlyMemberBox(box, keyPath))
  }

  /// The error of the last load from the key, if it failed.
  public var loadError: (any Error)? {
    box.persistence?.loadError
  }

  /// Whether a load is in progress: always `false`, keys load synchronously here.
  public var isLoading: Bool { false }
}

extension SharedReader {
  /// A value read through `key`, starting from `value` when the key has nothing stored.
  public init(wrappedValue value: @autoclosure () -> Value, _ key: some SharedReaderKey<Value>)
  where Value: Sendable {
    self.init(box: _SharedRootBox(Self.root(key, value())))
  }

  /// A value read through a key that brings its default: `@SharedReader(.count) var count`.
  public init<Key: SharedReaderKey<Value>>(_ key: _SharedKeyDefault<Key>) where Value: Sendable {
    self.init(box: _SharedRootBox(Self.root(key, key.defaultValue())))
  }

  /// An optional value read through `key`, `nil` until something is stored.
  @_disfavoredOverload
  public init<Wrapped: Sendable>(_ key: some SharedReaderKey<Value>) where Value == Wrapped? {
    self.init(wrappedValue: nil, key)
  }

  private static func root<Key: SharedReaderKey<Value>>(
    _ key: Key, _ value: @autoclosure () -> Value
  ) -> _SharedRoot<Value> {
    _SharedReferences.root(
      for: key, initialValue: value(), persistence: { _SharedPersistence(reading: key) })
  }
}

extension SharedReader: @unchecked Sendable {}

extension SharedReader: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.box.current == rhs.box.actual
  }
}

extension SharedReader: Identifiable where Value: Identifiable {
  public var id: Value.ID { wrappedValue.id }
}

extension SharedReader: CustomStringConvertible {
  public var description: String {
    "SharedReader<\(typeName(Value.self, genericsAbbreviated: false))>(\(wrappedValue))"
  }
}

extension SharedReader: CustomReflectable {
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

extension SharedReader: CustomDumpRepresentable {
  public var customDumpValue: Any { wrappedValue }
}

extension SharedReader: _CustomDiffObject {
  public var _customDiffValues: (Any, Any) {
    (box.current, box.actual)
  }

  public var _objectIdentifier: ObjectIdentifier { ObjectIdentifier(box) }
}

extension SharedReader: _SharedTrackable {
  package var sharedRoot: _SharedRootBase { box.root }
  package var sharedBox: AnyObject { box }
  package func expectationMismatch() -> String? {
    diff(box.value(.expected), box.value(.actual), format: .proportional)
  }
}
