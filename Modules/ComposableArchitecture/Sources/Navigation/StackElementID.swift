import Synchronization

/// The identity of an element of a ``StackState``: a generation number, counted up from 0 by the
/// `stackElementID` dependency and never reused.
///
/// In tests an integer literal names an element: `store.send(\.path[id: 0].counter.tapped)`.
public struct StackElementID: Hashable, Sendable {
  /// The generation of the element: the order in which ids were made.
  @_spi(Internals) public var generation: Int

  @_spi(Internals) public init(generation: Int) {
    self.generation = generation
  }
}

extension StackElementID: CustomDebugStringConvertible, CustomDumpStringConvertible {
  public var debugDescription: String { "#\(generation)" }
  public var customDumpDescription: String { debugDescription }
}

extension StackElementID: CustomStringConvertible {
  public var description: String { debugDescription }
}

extension StackElementID: ExpressibleByIntegerLiteral {
  /// An id by its generation. Only tests may name ids this way: in an app, ids come from the
  /// stack.
  public init(integerLiteral value: Int) {
    guard isTesting else {
      fatalError(
        """
        Specifying stack element IDs by integer literal is not allowed outside of tests.

        In tests, integer literal stack element IDs can be used as a shorthand to the \
        auto-incrementing generation of the current dependency context. This can be useful when \
        asserting against actions received by a specific element.
        """)
    }
    self.init(generation: value)
  }
}

/// Makes the ids of stack elements: 0, 1, 2… for the lifetime of a dependency context.
@_spi(Internals) public struct StackElementIDGenerator: Sendable {
  private let counter: Counter

  private final class Counter: Sendable {
    let value: Mutex<Int>
    init(_ value: Int) { self.value = Mutex(value) }
  }

  package init(startingAt generation: Int = 0) {
    self.counter = Counter(generation)
  }

  /// The next id; the one after it is then next.
  public func next() -> StackElementID {
    StackElementID(
      generation: counter.value.withLock { value in
        defer { value += 1 }
        return value
      })
  }

  /// The next id, without using it.
  public func peek() -> StackElementID {
    StackElementID(generation: counter.value.withLock { $0 })
  }

  public func callAsFunction() -> StackElementID { next() }

  /// Runs `body` with the generator continuing from `generation` (or from where it is), then
  /// puts it back where it was: the ids `body` takes are not used up.
  func running<R>(from generation: Int?, _ body: () throws -> R) rethrows -> R {
    let saved = counter.value.withLock { value in
      defer { if let generation { value = generation } }
      return value
    }
    defer { counter.value.withLock { $0 = saved } }
    return try body()
  }
}

extension StackElementIDGenerator: DependencyKey {
  public static var liveValue: Self { Self() }
  public static var testValue: Self { Self() }
}

extension DependencyValues {
  /// Makes the ids of the elements appended to a ``StackState``.
  @_spi(Internals) public var stackElementID: StackElementIDGenerator {
    get { self[StackElementIDGenerator.self] }
    set { self[StackElementIDGenerator.self] = newValue }
  }
}
