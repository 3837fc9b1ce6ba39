import Foundation
import Testing

@testable import ComposableArchitecture

/// A presented feature's dismissal ends the presentation's lifetime effect, which registers what
/// ends it only when its task first runs. A dismissal asked for before that (a close sent right
/// after the push, on a busy machine or in a replay, where the tasks start in another order) is
/// asked again until it reaches the effect; it used to be lost, and the screen stayed open with
/// its close effect waiting forever.
@MainActor
@Suite struct DismissOrderTests {
  @Test func aDismissalIsAskedAgainUntilThePresentationIsThere() async {
    let attempts = LockIsolated(0)
    let dismiss = DismissEffect.presented {
      attempts.withValue { $0 += 1 }
      // The lifetime effect's task registers on the third look.
      return attempts.value >= 3
    }
    let task = Task { await dismiss() }
    while attempts.value < 3 { await Task.yield() }
    // Reached: no more asking, and the effect waits for the feature to be removed.
    for _ in 0..<50 { await Task.yield() }
    #expect(attempts.value == 3)
    task.cancel()
    await task.value
  }

  @Test func aDismissalThatNeverReachesEndsWhenTheFeatureIsRemoved() async {
    let dismiss = DismissEffect.presented { false }
    let task = Task { await dismiss() }
    try? await Task.sleep(for: .milliseconds(20))
    task.cancel()
    await task.value
  }

  /// The whole path: a screen pushed and closed at once, many times, always pops.
  @Test func aScreenClosedRightAfterItsPushPops() async {
    let store = Store(initialState: Navigator.State()) { Navigator() }
    for number in 0..<200 {
      let id = StackElementID(integerLiteral: number)
      store.send(.path(.push(id: id, state: .closable(Closable.State()))))
      store.send(.path(.element(id: id, action: .closable(.closeButtonTapped))))
      let deadline = ContinuousClock.now + .seconds(10)
      while !store.path.isEmpty, ContinuousClock.now < deadline { await Task.yield() }
      #expect(store.path.isEmpty)
      if !store.path.isEmpty { break }
    }
  }
}
