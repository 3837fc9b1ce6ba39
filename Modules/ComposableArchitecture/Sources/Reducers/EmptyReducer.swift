/// A reducer that changes nothing and returns no effect.
public struct EmptyReducer<State, Action>: Reducer {
  @inlinable
  public init() {}

  @inlinable
  public func reduce(into _: inout State, action _: Action) -> Effect<Action> {
    .none
  }

  @inlinable
  public func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<State, Action> {
    _ResolvedReducer { _, _ in .none }
  }

  public typealias Body = Never
}
