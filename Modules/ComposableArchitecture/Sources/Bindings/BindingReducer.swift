/// Applies binding actions to state. Put it first in a body, so that the logic after it sees the
/// new value.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   BindingReducer()
///   Reduce { state, action in … }
/// }
/// ```
public struct BindingReducer<State, Action, ViewAction: BindableAction>: Reducer
where ViewAction.State == State {
  @usableFromInline let toViewAction: (Action) -> ViewAction?

  /// A binding reducer for a feature whose action is itself bindable.
  @inlinable
  public init() where Action == ViewAction {
    self.toViewAction = { $0 }
  }

  /// A binding reducer for bindable actions nested in a case of the feature's action.
  @inlinable
  public init(action toViewAction: CaseKeyPath<Action, ViewAction>) {
    let embedding = CaseEmbedding(toViewAction)
    self.toViewAction = { embedding.extract(from: $0) }
  }

  @inlinable
  public func reduce(into state: inout State, action: Action) -> Effect<Action> {
    guard let bindingAction = toViewAction(action)?.binding else { return .none }
    bindingAction.apply(to: &state)
    return .none
  }

  public typealias Body = Never
}
