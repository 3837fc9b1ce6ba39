/// Groups reducers so that a modifier applies to all of them.
///
/// ```swift
/// CombineReducers {
///   Scope(state: \.child, action: \.child) { Child() }
///   Reduce { state, action in … }
/// }
/// .onChange(of: \.child.value) { oldValue, state in … }
/// ```
public struct CombineReducers<State, Action, Reducers: Reducer<State, Action>>: Reducer {
  @usableFromInline let reducers: Reducers

  /// Runs the reducers of the builder in order.
  @inlinable
  public init(
    @ReducerBuilder<State, Action> _ build: () -> Reducers
  ) {
    self.reducers = build()
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reducers.reduce(into: &state, action: action)
  }

  @inlinable
  public func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<State, Action> {
    reducers._resolve(&resolution)
  }

  public typealias Body = Never
}
