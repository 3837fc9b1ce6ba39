import ComposableArchitecture
import CounterFeature
import Foundation
import WebFrontend

/// The counters on the page: the list, each counter's buttons, and the removal confirmation.
public enum CounterListPage: WebFeature {
  public typealias Root = CounterList

  /// Its section of the page (the counter list and the removal confirmation): `Public/counters.html` and `Public/counters.js`.
  public static let section: PageSection? = PageSection(
    id: "counters", title: "Counters", bundle: .module)

  static let counterID = ["id": "a counter id, a UUID string"]

  public static let routes: [WebRoute<CounterList>] = [
    WebRoute("counter.add") { _ in .addCounterButtonTapped },
    // Asks for confirmation (`removalConfirmation`).
    WebRoute("counter.remove", counterID, read: id) { id, state throws(ActionRefusal) in
      try requireCounter(id, in: state)
      return .removeCounterButtonTapped(id: id)
    },
    // The Remove button of the confirmation.
    WebRoute("counter.confirmRemove") { state throws(ActionRefusal) in
      guard case .confirmRemoval(let alert) = state.destination,
        let remove = alert.buttons.first?.action.action
      else {
        throw ActionRefusal.conflict("no removal confirmation is shown")
      }
      return .destination(.presented(.confirmRemoval(remove)))
    },
    // The Cancel button of the confirmation.
    WebRoute("counter.cancelRemove") { state throws(ActionRefusal) in
      guard case .confirmRemoval = state.destination else {
        throw ActionRefusal.conflict("no removal confirmation is shown")
      }
      return .destination(.dismiss)
    },
    counterRoute("counter.increment", .incrementButtonTapped),
    counterRoute("counter.decrement", .decrementButtonTapped),
    counterRoute("counter.fact", .factButtonTapped),
    counterRoute("counter.random", .randomNumberButtonTapped),
    // Turns the counter's timer on or off.
    counterRoute("counter.timer", .timerButtonTapped),
  ]

  public struct View: Codable, Equatable, Sendable {
    public var counters: [CounterView]
    /// The confirmation of a counter's removal, while it is shown (`counter.confirmRemove` /
    /// `counter.cancelRemove`).
    public var removalConfirmation: ConfirmationView?
  }

  /// One counter of the list.
  public struct CounterView: Codable, Equatable, Sendable {
    public var id: UUID
    /// "Counter 2": the name its removal confirmation uses.
    public var name: String
    public var count: Int
    public var fact: String?
    public var factError: String?
    public var isFactRequestInFlight: Bool
    public var isRandomNumberRequestInFlight: Bool
    public var randomNumberError: String?
    public var isTimerOn: Bool
  }

  public static func view(of state: CounterList.State) -> View {
    let removal: AlertState<CounterList.Removal>? =
      if case .confirmRemoval(let alert) = state.destination { alert } else { nil }
    return View(
      counters: state.counters.enumerated().map { index, counter in
        CounterView(
          id: counter.id, name: CounterList.counterName(number: index + 1), count: counter.count,
          fact: counter.fact,
          factError: counter.factError, isFactRequestInFlight: counter.isFactRequestInFlight,
          isRandomNumberRequestInFlight: counter.isRandomNumberRequestInFlight,
          randomNumberError: counter.randomNumberError, isTimerOn: counter.isTimerOn)
      },
      removalConfirmation: ConfirmationView(removal))
  }

  /// `{"type": type, "id": "<uuid>"}`: `action` for the counter with that id.
  private static func counterRoute(_ type: String, _ action: Counter.Action) -> WebRoute<
    CounterList
  > {
    WebRoute(type, counterID, read: id) { id, state throws(ActionRefusal) in
      try requireCounter(id, in: state)
      return .counters(.element(id: id, action: action))
    }
  }

  private static func id(_ fields: ActionFields) throws(DecodingFailure) -> UUID {
    try fields.uuid("id")
  }

  private static func requireCounter(_ id: UUID, in state: CounterList.State) throws(ActionRefusal)
  {
    guard state.counters[id: id] != nil else {
      throw ActionRefusal.invalid("no counter with id \(id.uuidString)")
    }
  }
}

extension CounterListPage {
  /// The section alone, on the feature's own reducer: what `preview-server` serves for it.
  public static var preview: WebPreview<Self> {
    alone(CounterList(), initialState: { CounterList.State() })
  }
}
