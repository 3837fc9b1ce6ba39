import ComposableArchitecture
import CounterFeature
import TerminalFrontend

/// The counters: one row per counter with its count, timer, fact and random number; the removal
/// confirmation in a box.
public enum CounterListScreen: TerminalScreen {
  public typealias Root = CounterList

  public static func render(_ state: CounterList.State, view: ViewState, style: Style) -> [String] {
    var lines: [String] = []
    if state.counters.isEmpty {
      lines.append(style.dim("No counters. Press a to add one."))
    }
    // Counts are right-aligned to the widest, so the timer column stays put as counts grow.
    let countWidth = state.counters.map { String($0.count).count }.max() ?? 1
    for (index, counter) in state.counters.enumerated() {
      let marker = ScreenRenderer.marker(index == view.selectedCounter, style: style)
      let count = String(counter.count)
      let padding = String(repeating: " ", count: countWidth - count.count)
      var line =
        "\(marker) \(CounterList.counterName(number: index + 1))   count: \(padding)\(style.bold(count))"
      line += "   timer: \(counter.isTimerOn ? style.green("on ⏱") : "off")"
      lines.append(line)
      if counter.isFactRequestInFlight {
        lines.append("    fact: \(style.yellow("⟳ loading…"))")
      } else if let fact = counter.fact {
        lines.append("    fact: \(fact)")
      }
      if let error = counter.factError {
        lines.append("    \(style.red("fact failed: \(error)"))")
      }
      if counter.isRandomNumberRequestInFlight {
        lines.append("    random: \(style.yellow("⟳ loading…"))")
      }
      if let error = counter.randomNumberError {
        lines.append("    \(style.red("random number failed: \(error)"))")
      }
    }
    if case .confirmRemoval(let alert) = state.destination {
      lines += ScreenRenderer.confirmation(
        alert.title, message: alert.message, confirm: alert.buttons.first?.label)
    }
    return lines
  }

  public static func help(_ state: CounterList.State, view: ViewState) -> String {
    // While the confirmation is up, only its keys do anything here.
    if case .confirmRemoval(let alert) = state.destination {
      return ScreenRenderer.confirmationHelp(confirm: alert.buttons.first?.label)
    }
    return "↑/↓ select · +/- count · f fact · r random · t timer · a add · x remove"
  }

  public static func action(
    for key: Key, state: CounterList.State, view: inout ViewState
  ) -> CounterList.Action? {
    if case .confirmRemoval(let alert) = state.destination {
      return answer(
        key,
        confirm: alert.buttons.first?.action.action.map {
          .destination(.presented(.confirmRemoval($0)))
        },
        cancel: .destination(.dismiss))
    }
    let counters = state.counters
    if let row = moved(view.selectedCounter, by: key, count: counters.count) {
      view.selectedCounter = row
      return nil
    }
    if key == .character("a") { return .addCounterButtonTapped }
    guard !counters.isEmpty else { return nil }
    let id = counters[view.selectedCounter].id
    let action: Counter.Action
    switch key {
    case .character("+"), .character("="): action = .incrementButtonTapped
    case .character("-"), .character("_"): action = .decrementButtonTapped
    case .character("f"): action = .factButtonTapped
    case .character("r"): action = .randomNumberButtonTapped
    case .character("t"): action = .timerButtonTapped
    case .character("x"), .character("d"): return .removeCounterButtonTapped(id: id)
    default: return nil
    }
    return .counters(.element(id: id, action: action))
  }

  public static func update(
    _ view: inout ViewState, after action: CounterList.Action?, state: CounterList.State
  ) {
    if case .addCounterButtonTapped? = action {
      view.selectedCounter = state.counters.count - 1
    }
    view.selectedCounter = clamp(view.selectedCounter, count: state.counters.count)
  }
}

extension ViewState {
  /// The selected row of the counters screen.
  public var selectedCounter: Int {
    get { self[selection: "counters"] }
    set { self[selection: "counters"] = newValue }
  }
}
