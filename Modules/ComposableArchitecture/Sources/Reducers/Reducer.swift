/// A type that evolves a feature's state in response to actions and describes the effects to run.
///
/// Conform by implementing ``body-swift.property`` (compose other reducers) or
/// ``reduce(into:action:)`` (a leaf of logic). The ``Reducer()`` macro adds the conformance and
/// makes the `Action` enum `@CasePathable`, as most features want:
///
/// ```swift
/// @Reducer
/// struct Counter {
///   @ObservableState
///   struct State: Equatable { var count = 0 }
///   enum Action { case incrementButtonTapped }
///
///   var body: some ReducerOf<Self> {
///     Reduce { state, action in
///       switch action {
///       case .incrementButtonTapped:
///         state.count += 1
///         return .none
///       }
///     }
///   }
/// }
/// ```
public protocol Reducer<State, Action> {
  /// The state the reducer evolves.
  associatedtype State
  /// The actions the reducer handles.
  associatedtype Action
  /// The type of ``body-swift.property``; `Never` for reducers that implement
  /// ``reduce(into:action:)``.
  associatedtype Body

  /// Evolves the state for an action and returns the effects to run.
  ///
  /// Called by the store; reducers never call each other's `reduce` directly, they compose in
  /// ``body-swift.property``.
  func reduce(into state: inout State, action: Action) -> Effect<Action>

  /// The reducers this reducer is made of, run in order on the same state.
  @ReducerBuilder<State, Action>
  var body: Body { get }

  /// The logic a store runs for this reducer, with every `body` inside it built once.
  ///
  /// The runtime's own operators implement it so that a store can resolve a whole tree; a
  /// feature never implements or calls it. See ``_ResolvedReducer``.
  func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<State, Action>
}

/// A reducer with the state and action of another, e.g. `some ReducerOf<Self>`.
public typealias ReducerOf<R: Reducer> = Reducer<R.State, R.Action>

extension Reducer where Body == Never {
  /// A reducer that implements ``reduce(into:action:)`` has no body.
  public var body: Body {
    fatalError(
      """
      '\(Self.self)' has no body. Reducers that implement 'reduce(into:action:)' must not \
      access 'body'.
      """
    )
  }
}

extension Reducer where Body: Reducer, Body.State == State, Body.Action == Action {
  /// Runs the reducers of ``body-swift.property``.
  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    body.reduce(into: &state, action: action)
  }
}

extension Optional: Reducer where Wrapped: Reducer {
  /// A missing reducer does nothing; this is what an `if` without `else` in a builder makes.
  @inlinable
  public func reduce(into state: inout Wrapped.State, action: Wrapped.Action) -> Effect<
    Wrapped.Action
  > {
    switch self {
    case .some(let wrapped): return wrapped.reduce(into: &state, action: action)
    case .none: return .none
    }
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Wrapped.State, Wrapped.Action> {
    switch self {
    case .some(let wrapped): return wrapped._resolve(&resolution)
    case .none: return _ResolvedReducer { _, _ in .none }
    }
  }

  public typealias Body = Never
}
