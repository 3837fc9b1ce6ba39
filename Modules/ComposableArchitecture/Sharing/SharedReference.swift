import ConcurrencyExtras
import CustomDump
import Foundation
import Synchronization

/// Which copy of a shared value a read sees. Outside a test store's assertion there is one copy,
/// the live value; while a test store asserts, the state "before" (and as the test expects it)
/// sees the last asserted value, and the state "after" sees the value the step left.
@usableFromInline
package enum _SharedSide: Sendable {
  case live
  case expected
  case actual
}

/// A readable place holding a shared value: a root reference, or a member of one.
///
/// Subclasses only; the runtime's `Shared` and `SharedReader` hold one of these.
@usableFromInline
package class _SharedReadableBox<Value>: @unchecked Sendable {
  /// The reference the value lives in; its lock guards every read and write.
  package var root: _SharedRootBase { fatalError("subclass") }

  /// The root reference when this box is one (set once, as the box is made): `Shared`'s plain
  /// read then goes to it directly, in code specialized where the read is made, instead of
  /// through the box's overridden, generic `value(_:)`. `nil` for a member or an unwrapped
  /// optional.
  @usableFromInline package final var rootReference: _SharedRoot<Value>?

  /// The value as `side` sees it.
  package func value(_ side: _SharedSide) -> Value { fatalError("subclass") }

  /// The side a plain read sees: the expected copy while a test store asserts, else the live one.
  package final var currentSide: _SharedSide {
    root.isAsserting ? .expected : .live
  }

  /// The value a plain read sees, and the left side of a comparison (the state before a step, or
  /// as the test expects it).
  @usableFromInline package final var current: Value { value(currentSide) }

  /// The right side of a comparison: while a test store asserts, the value the step left.
  package final var actual: Value { value(root.isAsserting ? .actual : .live) }

  /// The load and save of the key the value lives under, if it is a root with a key.
  package final var persistence: _SharedPersistence<Value>? {
    (root as? _SharedRoot<Value>)?.persistence
  }
}

/// A readable and writable place holding a shared value.
@usableFromInline
package class _SharedBox<Value>: _SharedReadableBox<Value>, @unchecked Sendable {
  /// Runs `body` with exclusive access to the value. While a test store asserts, the expected copy
  /// is changed; otherwise the live value, which is then saved to the key, if any.
  package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    fatalError("subclass")
  }
}

/// The part of a root reference that does not depend on the value's type: its lock and the test
/// store that tracks it.
@usableFromInline
package class _SharedRootBase: @unchecked Sendable {
  /// Set once any shared reference exists, so that test stores of features without shared state
  /// never walk their state looking for it.
  package static let anyCreated = Atomic<Bool>(false)

  @usableFromInline package let lock = _ReentrantLock()
  /// The test store tracking this reference, if any (weak: the reference may outlive it).
  package weak var tracker: SharedChangeTracker?

  package init() {
    Self.anyCreated.store(true, ordering: .relaxed)
  }

  @usableFromInline package var isAsserting: Bool {
    guard let tracker else { return false }
    return tracker.isAsserting
  }

  // Type-erased hooks for `SharedChangeTracker`.
  package func startTracking(by tracker: SharedChangeTracker) { fatalError("subclass") }
  package func beginAssertion(expectedFromActual: Bool, actual: Any?) { fatalError("subclass") }
  package func endAssertion(accepting actual: Any?) { fatalError("subclass") }
  package func liveValue() -> Any { fatalError("subclass") }
  package func unassertedChange() -> String? { fatalError("subclass") }
  package func stepChangedValue() -> Bool { fatalError("subclass") }
  package func stepWroteValue() -> Bool { fatalError("subclass") }
}

/// The reference a shared value lives in.
@usableFromInline
package final class _SharedRoot<Value>: _SharedRootBase, @unchecked Sendable {
  /// The value (read and written under the lock).
  @usableFromInline package private(set) var live: Value
  /// The value the tracking test store last accepted.
  private var asserted: Value?
  /// During an assertion: the copy the test's expectations change.
  private var expected: Value?
  /// During an assertion of a received action: the value right after that action.
  private var actualOverride: Value?
  /// Whether the value was written (even with an equal value) since the tracking test store
  /// last accepted it.
  private var writtenSinceAccepted = false
  /// Saves the live value after each change, for a value with a persistence key.
  package let persistence: _SharedPersistence<Value>?

  package init(_ value: Value, persistence: _SharedPersistence<Value>? = nil) {
    self.live = value
    self.persistence = persistence
    super.init()
  }

  deinit {
    persistence?.subscription?.cancel()
  }

  /// A plain read (``_SharedReadableBox/current``) of a root: the live value, or while a test
  /// store asserts the expected one. Inlinable, so that the caller's specialization copies the
  /// value without generic code (a page reading a shared value per row spent 5 % of app-server's
  /// CPU in the generic path).
  @inlinable package final func readCurrent() -> Value {
    if isAsserting { return read(.expected) }
    return lock.withLock { live }
  }

  @usableFromInline package func read(_ side: _SharedSide) -> Value {
    lock.withLock {
      switch side {
      case .live: live
      case .expected: expected ?? asserted ?? live
      case .actual: actualOverride ?? live
      }
    }
  }

  package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    // Saving happens after the lock is released: a key's save may take time.
    let (result, saved): (R, Value?) = try lock.withLock {
      if isAsserting {
        var copy = expected ?? asserted ?? live
        defer { expected = copy }
        return (try body(&copy), nil)
      }
      var copy = live
      let result = try body(&copy)
      live = copy
      if tracker != nil { writtenSinceAccepted = true }
      return (result, copy)
    }
    if let saved { persistence?.save(saved, context: .didSet) }
    return result
  }

  /// Replaces the live value without saving it (a value loaded from, or pushed by, the key).
  package func replaceLive(_ value: Value) {
    lock.withLock { live = value }
  }

  package override func startTracking(by tracker: SharedChangeTracker) {
    lock.withLock {
      guard self.tracker !== tracker else { return }
      self.tracker = tracker
      asserted = live
      writtenSinceAccepted = false
    }
  }

  package override func beginAssertion(expectedFromActual: Bool, actual: Any?) {
    lock.withLock {
      actualOverride = actual as? Value
      expected = expectedFromActual ? (actualOverride ?? live) : (asserted ?? live)
    }
  }

  package override func endAssertion(accepting actual: Any?) {
    lock.withLock {
      asserted = (actual as? Value) ?? actualOverride ?? live
      expected = nil
      actualOverride = nil
      writtenSinceAccepted = false
    }
  }

  package override func liveValue() -> Any {
    lock.withLock { live }
  }

  package override func stepChangedValue() -> Bool {
    let (asserted, actual) = lock.withLock { (self.asserted, actualOverride ?? live) }
    guard let asserted else { return false }
    return diff(asserted, actual) != nil
  }

  package override func stepWroteValue() -> Bool {
    lock.withLock { writtenSinceAccepted }
  }

  package override func unassertedChange() -> String? {
    let (asserted, live) = lock.withLock { (self.asserted, self.live) }
    guard let asserted else { return nil }
    return diff(asserted, live, format: .proportional)
  }
}

/// The root itself as a box.
package final class _SharedRootBox<Value>: _SharedBox<Value>, @unchecked Sendable {
  package let reference: _SharedRoot<Value>

  package init(_ reference: _SharedRoot<Value>) {
    self.reference = reference
    super.init()
    rootReference = reference
  }

  package override var root: _SharedRootBase { reference }
  package override func value(_ side: _SharedSide) -> Value { reference.read(side) }
  package override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try reference.withLock(body)
  }
}

/// A writable member of a shared value: `$user.name`.
package final class _SharedMemberBox<Parent, Value>: _SharedBox<Value>, @unchecked Sendable {
  package let parent: _SharedBox<Parent>
  package let keyPath: WritableKeyPath<Parent, Value>

  package init(_ parent: _SharedBox<Parent>, _ keyPath: WritableKeyPath<Parent, Value>) {
    self.parent = parent
    self.keyPath = keyPath
  }

  package override var root: _SharedRootBase { parent.root }
  package override func value(_ side: _SharedSide) -> Value { parent.value(side)[keyPath: keyPath] }
  package override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try parent.withLock { try body(&$0[keyPath: keyPath]) }
  }
}

/// A read-only member of a shared value: `$todos.count`, or any member of a `SharedReader`.
package final class _SharedReadOnlyMemberBox<Parent, Value>: _SharedReadableBox<Value>,
  @unchecked Sendable
{
  package let parent: _SharedReadableBox<Parent>
  package let keyPath: KeyPath<Parent, Value>

  package init(_ parent: _SharedReadableBox<Parent>, _ keyPath: KeyPath<Parent, Value>) {
    self.parent = parent
    self.keyPath = keyPath
  }

  package override var root: _SharedRootBase { parent.root }
  package override func value(_ side: _SharedSide) -> Value { parent.value(side)[keyPath: keyPath] }
}

/// A shared optional seen as present: `Shared($currentUser)`. Should the value become `nil`, the
/// last value read stands in for it.
package final class _SharedUnwrappedBox<Value>: _SharedBox<Value>, @unchecked Sendable {
  package let parent: _SharedBox<Value?>
  private let lock = NSLock()
  private var last: Value

  package init?(_ parent: _SharedBox<Value?>) {
    guard let value = parent.value(parent.currentSide) else { return nil }
    self.parent = parent
    self.last = value
  }

  package override var root: _SharedRootBase { parent.root }
  package override func value(_ side: _SharedSide) -> Value {
    guard let value = parent.value(side) else { return lock.withLock { last } }
    lock.withLock { last = value }
    return value
  }
  package override func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
    try parent.withLock { optional in
      var value = optional ?? lock.withLock { last }
      defer { optional = value }
      return try body(&value)
    }
  }
}

/// A lock that the thread holding it can take again — a shared value's `withLock` body may read
/// the same value — stored inline: no allocation, where `NSRecursiveLock` on Linux allocates the
/// object and three pthread structures (about 110 bytes for each shared value).
@usableFromInline
package struct _ReentrantLock: ~Copyable, Sendable {
  @usableFromInline let mutex = Mutex<Void>(())
  /// The thread holding the lock, or 0. Only the holder writes its own id here and clears it, so
  /// a thread that reads its own id holds the lock.
  @usableFromInline let owner = Atomic<UInt>(0)

  package init() {}

  @inlinable package func withLock<R, E: Error>(_ body: () throws(E) -> R) throws(E) -> R {
    let thread = UInt(bitPattern: Int(bitPattern: pthread_self()))
    if owner.load(ordering: .relaxed) == thread { return try body() }
    // The result stays on this thread: `Mutex` asks for a `sending` one only because it cannot
    // know that. (An optional, not a `Result`: a read of a shared value comes here, and the
    // generic `Result` was half of its cost.)
    nonisolated(unsafe) var result: R?
    try withoutActuallyEscaping(body) { (body) throws(E) in
      try mutex.withLock { (_) throws(E) in
        owner.store(thread, ordering: .relaxed)
        defer { owner.store(0, ordering: .relaxed) }
        result = try body()
      }
    }
    return result!
  }
}
