import ComposableArchitecture
import XCTest

/// Test stores in XCTest cases, which behave as TCA's do there. (The rest of this target uses
/// Swift Testing.)
final class XCTestParityTests: XCTestCase {
  /// A store some earlier code kept alive, as a leaked store of an earlier test would be.
  @MainActor static var survivor: TestStore<Int, Bool>?

  @MainActor
  func testATestStoreTurnsTheMainSerialExecutorOnAndPutsBackWhatItFound() async {
    assertAStoreTurnsTheExecutorOnAndPutsBackOff()
  }

  @MainActor
  func testAStoreLeftAliveDoesNotOverrideWhatTheNextTestSets() async {
    Self.survivor = TestStore(initialState: 0) { EmptyReducer() }
    defer { Self.survivor = nil }
    assertAStoreTurnsTheExecutorOnAndPutsBackOff()
  }

  /// With the executor turned off, a new store turns it on and puts it back off when it goes.
  @MainActor
  private func assertAStoreTurnsTheExecutorOnAndPutsBackOff(line: UInt = #line) {
    uncheckedUseMainSerialExecutor = false
    var store: TestStore<Int, Bool>? = TestStore(initialState: 0) { EmptyReducer() }
    XCTAssertTrue(uncheckedUseMainSerialExecutor, line: line)
    store = nil
    XCTAssertFalse(uncheckedUseMainSerialExecutor, line: line)
    _ = store
  }

  /// XCTest off Apple's systems cannot expect a failure: skipped assertions must be shown
  /// without failing the test (this test fails if they are reported as an issue).
  @MainActor
  func testSkippedAssertionsAreShownWithoutFailingTheTest() async {
    let store = TestStore(initialState: 0) {
      Reduce<Int, Bool> { state, action in
        state += 1
        return action ? .send(false) : .none
      }
    }
    store.exhaustivity = .off(showSkippedAssertions: true)
    await store.send(true) { $0 = 1 }
    await store.skipReceivedActions(strict: false)
    XCTAssertEqual(store.state, 2)
  }
}
