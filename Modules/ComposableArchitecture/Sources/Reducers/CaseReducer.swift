/// A reducer that is an enum of features: `@Reducer enum Destination { case settings(Settings) }`.
///
/// `@Reducer` on an enum writes everything this protocol asks for: a `State` enum with each
/// case's `State`, an `Action` enum with each case's `Action`, a static `body` that runs each
/// case's reducer while the state is in that case, and ``scope(_:)`` with its `CaseScope`, which
/// turns a store of the enum into a store of the current case (``Store/case``).
///
/// ```swift
/// @Reducer
/// enum Destination {
///   case settings(Settings)
///   case confirmReset(ConfirmationDialogState<ResetDialog>)
///   enum ResetDialog { case confirm }
/// }
///
/// // In the parent:
/// .ifLet(\.$destination, action: \.destination)
///
/// // In a front end:
/// switch store.case {
/// case let .settings(store): render(store)
/// case let .confirmReset(dialog): render(dialog)
/// }
/// ```
public protocol CaseReducer<State, Action>: Reducer
where State: CaseReducerState, Body: Reducer, Body.State == State, Body.Action == Action {
  associatedtype State = State
  associatedtype Action = Action
  associatedtype Body
  /// One case per case of the reducer enum: a store for a feature case, the value of an ephemeral
  /// or ignored case.
  associatedtype CaseScope

  /// Runs the reducer of the case the state is in.
  @ReducerBuilder<State, Action>
  static var body: Body { get }

  /// A store of the enum, turned into its current case.
  @MainActor
  static func scope(_ store: Store<State, Action>) -> CaseScope
}

extension CaseReducer {
  /// The reducer of an enum reducer is its static ``body``.
  public var body: Body { Self.body }
}

/// The `State` of an enum reducer, which knows its reducer. `@Reducer enum` conforms it.
public protocol CaseReducerState {
  associatedtype StateReducer: CaseReducer where StateReducer.State == Self
}

extension Reducer {
  /// Integrates a presented enum reducer: `.ifLet(\.$destination, action: \.destination)` runs
  /// `Destination`'s cases without a trailing closure.
  @inlinable
  public func ifLet<DestinationState: CaseReducerState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    ifLet(
      toPresentationState, action: toPresentationAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// Integrates a navigation stack of an enum reducer: `.forEach(\.path, action: \.path)` runs
  /// `Path`'s cases without a trailing closure.
  @inlinable
  public func forEach<DestinationState: CaseReducerState, DestinationAction>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, DestinationState.StateReducer.Body>
  where DestinationState.StateReducer.Action == DestinationAction {
    forEach(
      toStackState, action: toStackAction,
      destination: { DestinationState.StateReducer.body },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

extension Store where State: CaseReducerState, State.StateReducer.Action == Action {
  /// The current case of an enum reducer's store: a store for a feature case, the value of an
  /// ephemeral case.
  ///
  /// ```swift
  /// switch store.case {
  /// case let .settings(settingsStore): SettingsView(store: settingsStore)
  /// case let .confirmReset(dialog): render(dialog)
  /// }
  /// ```
  public var `case`: State.StateReducer.CaseScope { State.StateReducer.scope(self) }
}
