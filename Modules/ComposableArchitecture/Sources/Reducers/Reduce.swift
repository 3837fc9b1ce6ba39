/// A reducer made from a closure: the usual place for a feature's own logic.
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .incrementButtonTapped:
///     state.count += 1
///     return .none
///   }
/// }
/// ```
public struct Reduce<State, Action>: Reducer {
  @usableFromInline
  let reduce: (inout State, Action) -> Effect<Action>
  /// For an erased reducer: resolves it, so that a store runs its body built once.
  @usableFromInline
  let resolveErased: ((inout _Resolution) -> _ResolvedReducer<State, Action>)?

  /// Creates a reducer from a closure that evolves the state and returns effects.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
    self.resolveErased = nil
  }

  /// Erases the type of another reducer.
  @inlinable
  public init(_ reducer: some Reducer<State, Action>) {
    self.reduce = { reducer.reduce(into: &$0, action: $1) }
    self.resolveErased = { reducer._resolve(&$0) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }

  @inlinable
  public func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<State, Action> {
    resolveErased?(&resolution) ?? _ResolvedReducer(reduce)
  }

  public typealias Body = Never
}
