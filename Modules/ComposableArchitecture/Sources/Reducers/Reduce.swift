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

  /// Creates a reducer from a closure that evolves the state and returns effects.
  @inlinable
  public init(_ reduce: @escaping (_ state: inout State, _ action: Action) -> Effect<Action>) {
    self.reduce = reduce
  }

  /// Erases the type of another reducer.
  @inlinable
  public init(_ reducer: some Reducer<State, Action>) {
    self.reduce = { reducer.reduce(into: &$0, action: $1) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    reduce(&state, action)
  }

  public typealias Body = Never
}
