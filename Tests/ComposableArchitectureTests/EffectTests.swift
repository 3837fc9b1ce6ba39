import ComposableArchitecture
import Foundation
import Testing

@MainActor
struct EffectTests {
  @Test func sendEffectsAreProcessedSynchronouslyInOrder() {
    let store = Store(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        state.append(action)
        switch action {
        case "a": return .merge(.send("b"), .send("c"))
        case "b": return .send("d")
        default: return .none
        }
      }
    }
    store.send("a")
    #expect(store.state == ["a", "b", "c", "d"])
  }

  /// What a caller may rely on about an effect's answer: never during the `send` that started
  /// the effect, always once the send's task has finished. When it arrives in between, relative
  /// to other work on the main actor, is not fixed — here or in TCA (see docs/compatibility.md).
  @Test func anEffectsAnswerArrivesAfterTheSendAndBeforeItsTaskFinishes() async {
    enum Action { case tapped, response }
    let store = Store(initialState: false) {
      Reduce<Bool, Action> { state, action in
        switch action {
        case .tapped:
          state = true
          return .run { send in await send(.response) }
        case .response:
          state = false
          return .none
        }
      }
    }
    let task = store.send(.tapped)
    #expect(store.state == true, "the effect has not answered during the send")
    await task.finish()
    #expect(store.state == false)
  }

  @Test func lotsOfSynchronousActionsDoNotOverflowTheStack() {
    let store = Store(initialState: 0) {
      Reduce<Int, Void> { state, _ in
        state += 1
        return state < 100_000 ? .send(()) : .none
      }
    }
    store.send(())
    #expect(store.state == 100_000)
  }

  @Test func actionsFromEffectsAreProcessedInOrder() async {
    let store = TestStore(initialState: [Int]()) {
      Reduce<[Int], Int> { state, action in
        guard action == 0 else {
          state.append(action)
          return .none
        }
        return .run { send in
          for value in 1...5 { await send(value) }
        }
      }
    }
    await store.send(0)
    for value in 1...5 {
      await store.receive(value) { $0.append(value) }
    }
  }

  @Test func concatenateRunsEffectsOneAfterAnother() async {
    let clock = TestClock()
    let store = TestStore(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        guard action == "start" else {
          state.append(action)
          return .none
        }
        return .concatenate(
          .run { send in
            try await clock.sleep(for: .seconds(2))
            await send("first")
          },
          .send("second"),
          .run { send in
            try await clock.sleep(for: .seconds(1))
            await send("third")
          }
        )
      }
    }
    await store.send("start")
    await clock.advance(by: .seconds(2))
    await store.receive("first") { $0 = ["first"] }
    await store.receive("second") { $0 = ["first", "second"] }
    await clock.advance(by: .seconds(1))
    await store.receive("third") { $0 = ["first", "second", "third"] }
  }

  @Test func mapTransformsEveryAction() async {
    let store = TestStore(initialState: [String]()) {
      Reduce<[String], String> { state, action in
        guard action == "start" else {
          state.append(action)
          return .none
        }
        return Effect<Int>.merge(.send(1), .run { send in await send(2) })
          .map { "mapped \($0)" }
      }
    }
    await store.send("start")
    await store.receive("mapped 1") { $0 = ["mapped 1"] }
    await store.receive("mapped 2") { $0 = ["mapped 1", "mapped 2"] }
  }

  @Test func unhandledErrorInRunIsReported() async {
    struct Failure: Error {}
    let store = Store(initialState: 0) {
      Reduce<Int, Void> { _, _ in
        .run { _ in throw Failure() }
      }
    }
    await withKnownIssue {
      await store.send(()).finish()
    } matching: { issue in
      message(of: issue).contains(
        "An \"Effect.run\" returned from \"ComposableArchitectureTests/EffectTests.swift:")
        && message(of: issue).contains("threw an unhandled error")
        && message(of: issue).contains("EffectTests.Failure")
    }
  }

  @Test func catchHandlerReceivesTheError() async {
    struct Failure: Error, Equatable {}
    let store = TestStore(initialState: "") {
      Reduce<String, String> { state, action in
        guard action == "start" else {
          state = action
          return .none
        }
        return .run { _ in
          throw Failure()
        } catch: { error, send in
          await send("caught \(error is Failure)")
        }
      }
    }
    await store.send("start")
    await store.receive("caught true") { $0 = "caught true" }
  }

  @Test func cancellationErrorsAreNotReportedAndNeverReachTheHandler() async {
    let reachedHandler = LockIsolated(false)
    let store = Store(initialState: 0) {
      Reduce<Int, Int> { _, action in
        switch action {
        case 0:
          return .run { _ in
            try await Task.never()
          } catch: { _, _ in
            reachedHandler.setValue(true)
          }
          .cancellable(id: "never")
        default:
          return .cancel(id: "never")
        }
      }
    }
    let task = store.send(0)
    await Task.megaYield()
    store.send(1)
    await task.finish()
    #expect(reachedHandler.value == false)
  }
}
