import ConcurrencyExtras
import CustomDump
import Foundation
import Synchronization

/// How a test store asserts shared state.
///
/// Shared values are references, so the state before and after a step hold the same one. The
/// tracker keeps, for every reference found in the store's state, the value the test last
/// accepted. While the store asserts a step, the state "before" (and the copy the test's closure
/// changes) reads that value and the state "after" reads the value the step left — the value right
/// after the received action for a `receive` — so that an unasserted change is a difference like
/// any other. After each assertion the values the step left are accepted.
@usableFromInline
package final class SharedChangeTracker: @unchecked Sendable {
  private let lock = NSLock()
  private var roots: [ObjectIdentifier: _SharedRootBase] = [:]
  private let asserting = Atomic<Bool>(false)

  @usableFromInline package init() {}

  package var isAsserting: Bool { asserting.load(ordering: .relaxed) }

  /// Starts tracking every shared reference reachable from `value`.
  @usableFromInline package func register(_ value: Any) {
    guard _SharedRootBase.anyCreated.load(ordering: .relaxed) else { return }
    var visited = Set<ObjectIdentifier>()
    Self.forEachRoot(in: value, depth: 0, visited: &visited) { root in
      root.startTracking(by: self)
      lock.withLock { roots[ObjectIdentifier(root)] = root }
    }
  }

  /// The tracked references reachable from `value`.
  private func trackedRoots(in value: Any) -> [_SharedRootBase] {
    guard _SharedRootBase.anyCreated.load(ordering: .relaxed) else { return [] }
    let tracked = lock.withLock { self.roots }
    guard !tracked.isEmpty else { return [] }
    var visited = Set<ObjectIdentifier>()
    var found: [ObjectIdentifier: _SharedRootBase] = [:]
    Self.forEachRoot(in: value, depth: 0, visited: &visited) { root in
      let id = ObjectIdentifier(root)
      if tracked[id] != nil { found[id] = root }
    }
    return Array(found.values)
  }

  package static func forEachRoot(
    in value: Any, depth: Int, visited: inout Set<ObjectIdentifier>,
    _ body: (_SharedRootBase) -> Void
  ) {
    forEachReference(in: value, depth: depth, visited: &visited) { body($0.sharedRoot) }
  }

  /// The shared references reachable from `value`, each as the state holds it (a root, or a
  /// part of one: `$user.name`, `Shared($syncUps[id: id])`).
  package static func forEachReference(
    in value: Any, depth: Int, visited: inout Set<ObjectIdentifier>,
    _ body: (any _SharedTrackable) -> Void
  ) {
    if let trackable = value as? any _SharedTrackable {
      body(trackable)
      return
    }
    guard depth < 48 else { return }
    let mirror = Mirror(reflecting: value)
    if mirror.displayStyle == .class {
      guard visited.insert(ObjectIdentifier(value as AnyObject)).inserted else { return }
    }
    for child in mirror.children {
      forEachReference(in: child.value, depth: depth + 1, visited: &visited, body)
    }
    var superclass = mirror.superclassMirror
    while let mirror = superclass {
      for child in mirror.children {
        forEachReference(in: child.value, depth: depth + 1, visited: &visited, body)
      }
      superclass = mirror.superclassMirror
    }
  }

  /// The live value of every tracked reference, recorded with a received action.
  @usableFromInline package func capture() -> [ObjectIdentifier: Any] {
    guard _SharedRootBase.anyCreated.load(ordering: .relaxed) else { return [:] }
    let roots = lock.withLock { self.roots }
    guard !roots.isEmpty else { return [:] }
    return roots.mapValues { $0.liveValue() }
  }

  /// Runs an assertion: `body` sees the expected values on the "before" side — the accepted ones,
  /// or the step's own with `expectedFromActual` — and `actual` (or the live values) on the
  /// "after" side. Afterwards those values are accepted.
  package func asserting<R>(
    expectedFromActual: Bool = false, actual: [ObjectIdentifier: Any]? = nil, _ body: () -> R
  ) -> R {
    guard _SharedRootBase.anyCreated.load(ordering: .relaxed) else { return body() }
    let roots = lock.withLock { self.roots }
    guard !roots.isEmpty else { return body() }
    for (id, root) in roots {
      root.beginAssertion(expectedFromActual: expectedFromActual, actual: actual?[id])
    }
    asserting.store(true, ordering: .relaxed)
    defer {
      asserting.store(false, ordering: .relaxed)
      for (id, root) in roots { root.endAssertion(accepting: actual?[id]) }
    }
    return body()
  }

  /// Restarts the expected side from the accepted values, within an assertion.
  package func restartExpectations(actual: [ObjectIdentifier: Any]? = nil) {
    let roots = lock.withLock { self.roots }
    for (id, root) in roots {
      root.beginAssertion(expectedFromActual: false, actual: actual?[id])
    }
  }

  /// Accepts `values` (or the live values) as asserted, as skipping actions does.
  package func accept(_ values: [ObjectIdentifier: Any]? = nil) {
    let roots = lock.withLock { self.roots }
    for (id, root) in roots { root.endAssertion(accepting: values?[id]) }
  }

  /// Within an assertion: the differences between the expected and the actual value of each
  /// tracked reference the expected state holds, as the state sees it. Comparing whole states is
  /// not enough: a collection that was not itself mutated compares equal by the identity of its
  /// storage, without looking at the references inside it. (A reference the test's expectation
  /// replaced by another is compared by value, as part of the state.)
  ///
  /// A reference to a part of a shared value (`Shared($syncUps[id: id])`) is compared as that
  /// part, as TCA does: a change elsewhere in the value (another sync-up removed) is no change
  /// the state shows.
  package func expectationMismatches(in expected: Any) -> [String] {
    guard _SharedRootBase.anyCreated.load(ordering: .relaxed) else { return [] }
    let tracked = lock.withLock { self.roots }
    guard !tracked.isEmpty else { return [] }
    var visited = Set<ObjectIdentifier>()
    var seen = Set<ObjectIdentifier>()
    var mismatches: [String] = []
    Self.forEachReference(in: expected, depth: 0, visited: &visited) { reference in
      guard tracked[ObjectIdentifier(reference.sharedRoot)] != nil,
        seen.insert(ObjectIdentifier(reference.sharedBox)).inserted,
        let mismatch = reference.expectationMismatch()
      else { return }
      mismatches.append(mismatch)
    }
    return mismatches
  }

  /// Within an assertion: whether the step changed the value of a tracked reference that the
  /// state it left holds, from the accepted value.
  package func stepChangedAnyReference(in actual: Any) -> Bool {
    trackedRoots(in: actual).contains { $0.stepChangedValue() }
  }

  /// Within an assertion: whether the step wrote a tracked reference that the state it left
  /// holds, even with the value it had — then a test's closure that writes it too is no
  /// "unnecessary" expectation.
  package func stepWroteAnyReference(in actual: Any) -> Bool {
    trackedRoots(in: actual).contains { $0.stepWroteValue() }
  }

  /// The differences between the accepted and the live value of each reference that changed
  /// since the last assertion.
  package func unassertedChanges() -> [String] {
    let roots = lock.withLock { self.roots }
    return roots.values.compactMap { $0.unassertedChange() }
  }
}
