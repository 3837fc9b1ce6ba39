import ComposableArchitecture
import Foundation

/// A list of counters: add one, remove one after a confirmation.
///
/// Counters are composed with `forEach`, so removing a counter cancels its effects (a running
/// timer stops). Removal asks first: an `AlertState` presented through the ``Destination`` enum
/// reducer, and the counter keeps running until the user confirms.
@Reducer
public struct CounterList: Sendable {
  @ObservableState
  public struct State: Equatable, Sendable {
    public var counters: IdentifiedArrayOf<Counter.State>
    /// What is presented over the list: the confirmation of a counter's removal.
    @Presents public var destination: Destination.State?

    /// Starts with one counter (its id from the `uuid` dependency) unless `counters` is given.
    public init(counters: IdentifiedArrayOf<Counter.State>? = nil) {
      @Dependency(\.uuid) var uuid
      self.counters = counters ?? [Counter.State(id: uuid())]
    }

    /// Puts back counters that were kept (a session resumed after a restart): requests that were
    /// in flight are forgotten, a duplicate id is dropped, the confirmation is closed. Returns the
    /// ids of the counters whose timer was running: each is off until its own
    /// ``Counter/Action/timerButtonTapped`` starts it again (``CounterList/restartTimers(_:)``).
    public mutating func restore(_ kept: [Counter.State]) -> [Counter.State.ID] {
      var counters = IdentifiedArrayOf<Counter.State>()
      var timers: [Counter.State.ID] = []
      for var counter in kept where counters[id: counter.id] == nil {
        counter.isFactRequestInFlight = false
        counter.isRandomNumberRequestInFlight = false
        if counter.isTimerOn {
          counter.isTimerOn = false
          timers.append(counter.id)
        }
        counters.append(counter)
      }
      self.counters = counters
      self.destination = nil
      return timers
    }
  }

  /// What can be presented over the list.
  @Reducer
  public enum Destination {
    case confirmRemoval(AlertState<Removal>)
  }

  /// The buttons of the removal confirmation besides Cancel.
  @CasePathable
  public enum Removal: Equatable, Sendable {
    case remove(id: Counter.State.ID)
  }

  public enum Action: Sendable {
    case addCounterButtonTapped
    case counters(IdentifiedActionOf<Counter>)
    case destination(PresentationAction<Destination.Action>)
    case removeCounterButtonTapped(id: Counter.State.ID)
  }

  @Dependency(\.uuid) var uuid

  public init() {}

  public var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .addCounterButtonTapped:
        state.counters.append(Counter.State(id: uuid()))
        return .none

      case .removeCounterButtonTapped(let id):
        guard let index = state.counters.index(id: id) else { return .none }
        state.destination = .confirmRemoval(.removeCounter(id: id, number: index + 1))
        return .none

      case .destination(.presented(.confirmRemoval(.remove(let id)))):
        state.counters.remove(id: id)
        return .none

      case .counters, .destination:
        return .none
      }
    }
    .forEach(\.counters, action: \.counters) {
      Counter()
    }
    .ifLet(\.$destination, action: \.destination)
  }

  /// Starts the timers ``State/restore(_:)`` found running, one action each.
  public static func restartTimers(_ ids: [Counter.State.ID]) -> Effect<Action> {
    .merge(ids.map { .send(.counters(.element(id: $0, action: .timerButtonTapped))) })
  }

  /// What a counter is called where it is shown and in its removal confirmation: "Counter 2" for
  /// the second in the list.
  public static func counterName(number: Int) -> String {
    "Counter \(number)"
  }
}

extension CounterList.Destination.State: Equatable, Sendable {}
extension CounterList.Destination.Action: Equatable, Sendable {}

extension AlertState where Action == CounterList.Removal {
  /// "Remove Counter 2?" with a destructive Remove and a Cancel; the counter keeps running (a
  /// timer ticks) until it is removed.
  public static func removeCounter(id: UUID, number: Int) -> Self {
    Self {
      TextState("Remove \(CounterList.counterName(number: number))?")
    } actions: {
      ButtonState(role: .destructive, action: .remove(id: id)) { TextState("Remove") }
      ButtonState(role: .cancel) { TextState("Cancel") }
    } message: {
      TextState("Its count, fact and timer go with it.")
    }
  }
}
