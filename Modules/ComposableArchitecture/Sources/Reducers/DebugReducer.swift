import Dispatch
import Logging

/// Describes how ``Reducer/_printChanges(_:)`` reports each action and the state change it made.
public struct _ReducerPrinter<State, Action>: Sendable {
  private let _printChange:
    @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State) -> Void

  /// Creates a printer from a closure, called right after each action, or asynchronously on
  /// `queue` when one is given (a serial queue keeps the order of the actions).
  public init(
    printChange:
      @escaping @Sendable (_ receivedAction: Action, _ oldState: State, _ newState: State)
      -> Void,
    queue: DispatchQueue? = nil
  ) {
    guard let queue else {
      self._printChange = printChange
      return
    }
    self._printChange = { action, oldState, newState in
      let values = UncheckedSendable((action, oldState, newState))
      queue.async { printChange(values.value.0, values.value.1, values.value.2) }
    }
  }

  /// Reports one action and the change it made.
  public func printChange(receivedAction: Action, oldState: State, newState: State) {
    _printChange(receivedAction, oldState, newState)
  }
}

extension _ReducerPrinter {
  /// Logs the action and a diff of the state, through swift-log
  /// (label `ComposableArchitecture.printChanges`, level `info`).
  public static var customDump: Self {
    Self { action, oldState, newState in
      var message = "received action:\n"
      CustomDump.customDump(action, to: &message, indent: 2)
      message.append("\n")
      message.append(diff(oldState, newState).map { "\($0)\n" } ?? "  (No state changes)\n")
      printChangesLogger.info("\(message)")
    }
  }

  /// Logs only the action's case labels.
  public static var actionLabels: Self {
    Self { action, _, _ in
      printChangesLogger.info("received action: \(debugCaseOutput(action))")
    }
  }
}

private let printChangesLogger = Logger(label: "ComposableArchitecture.printChanges")

extension Reducer {
  /// Logs every action this reducer receives and the state change it makes, in debug builds.
  /// Release builds pass actions through untouched.
  ///
  /// ```swift
  /// Store(initialState: Search.State()) {
  ///   Search()._printChanges()
  /// }
  /// ```
  @inlinable
  public func _printChanges(
    _ printer: _ReducerPrinter<State, Action>? = .customDump
  ) -> _PrintChangesReducer<Self> {
    _PrintChangesReducer(base: self, printer: printer)
  }
}

/// The reducer built by ``Reducer/_printChanges(_:)``.
public struct _PrintChangesReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let printer: _ReducerPrinter<Base.State, Base.Action>?

  @usableFromInline
  init(base: Base, printer: _ReducerPrinter<Base.State, Base.Action>?) {
    self.base = base
    self.printer = printer
  }

  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    #if DEBUG
      if let printer {
        let oldState = state
        let effects = base.reduce(into: &state, action: action)
        // Printed synchronously, so the output of action N always precedes that of action N + 1.
        printer.printChange(receivedAction: action, oldState: oldState, newState: state)
        return effects
      }
    #endif
    return base.reduce(into: &state, action: action)
  }

  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Base.State, Base.Action> {
    let base = self.base._resolve(&resolution)
    #if DEBUG
      if let printer {
        return _ResolvedReducer { state, action in
          let oldState = state
          let effects = base.run(&state, action)
          printer.printChange(receivedAction: action, oldState: oldState, newState: state)
          return effects
        }
      }
    #endif
    return base
  }

  public typealias Body = Never
}
