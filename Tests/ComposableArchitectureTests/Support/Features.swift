import ComposableArchitecture
import Foundation

/// Small features the runtime tests exercise.
@Reducer
struct Counter {
  @ObservableState
  struct State: Equatable, Identifiable, Sendable {
    var id = 0
    var count = 0
    var isTimerOn = false
    var fact: String?
  }

  enum Action: Equatable, Sendable {
    case decrementButtonTapped
    case delayedIncrement
    case factButtonTapped
    case factResponse(String)
    case incrementButtonTapped
    case timerButtonTapped
    case timerTicked
  }

  @Dependency(\.continuousClock) var clock

  enum CancelID { case timer, delay }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .decrementButtonTapped:
        state.count -= 1
        return .none
      case .delayedIncrement:
        return .run { send in
          try await clock.sleep(for: .seconds(1))
          await send(.incrementButtonTapped)
        }
        .cancellable(id: CancelID.delay)
      case .factButtonTapped:
        return .run { [count = state.count] send in
          try await clock.sleep(for: .seconds(1))
          await send(.factResponse("\(count) is a number"))
        }
      case .factResponse(let fact):
        state.fact = fact
        return .none
      case .incrementButtonTapped:
        state.count += 1
        return .none
      case .timerButtonTapped:
        state.isTimerOn.toggle()
        return .run { [isTimerOn = state.isTimerOn] send in
          guard isTimerOn else { return }
          for await _ in clock.timer(interval: .seconds(1)) {
            await send(.timerTicked)
          }
        }
        .cancellable(id: CancelID.timer, cancelInFlight: true)
      case .timerTicked:
        state.count += 1
        return .none
      }
    }
  }
}

/// "start" runs an effect that sends "second" back; "second" runs an effect that sleeps a second
/// on `clock` and then records "second's effect" — for showing that a send's task follows the
/// effects of the actions its effects send back, on `Store` and on `StoreActor` alike.
struct SendsBackASecondAction: Reducer {
  let clock: TestClock<Duration>
  let finished: LockIsolated<[String]>

  func reduce(into state: inout Int, action: String) -> Effect<String> {
    switch action {
    case "start":
      return .run { send in await send("second") }
    case "second":
      return .run { [clock, finished] _ in
        try await clock.sleep(for: .seconds(1))
        finished.withValue { $0.append("second's effect") }
      }
    default:
      return .none
    }
  }
}

/// Every action runs an effect that waits until it is cancelled, then records "cancelled" — for
/// showing what cancels a store's effects, on `Store` and on `StoreActor` alike.
struct RunsUntilCancelled: Reducer {
  let events: LockIsolated<[String]>

  func reduce(into state: inout Int, action: Void) -> Effect<Void> {
    .run { [events] _ in
      await withTaskCancellationHandler {
        try? await Task.never()
      } onCancel: {
        events.withValue { $0.append("cancelled") }
      }
    }
  }
}
