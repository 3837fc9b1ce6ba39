/// Embeds a child reducer in a parent's domain.
///
/// The child runs on the part of the parent's state that `toChildState` points to, for the
/// actions that `toChildAction` extracts; every other action passes by. The child's effects are
/// embedded back into the parent's action.
///
/// ```swift
/// var body: some ReducerOf<Self> {
///   Scope(state: \.search, action: \.search) {
///     Search()
///   }
///   Reduce { state, action in … }
/// }
/// ```
public struct Scope<ParentState, ParentAction, Child: Reducer>: Reducer {
  @usableFromInline let toChildState: WritableKeyPath<ParentState, Child.State>
  @usableFromInline let toChildAction: CaseEmbedding<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Runs `child` on `ParentState[keyPath: state]` for the actions of case `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = toChildState
    self.toChildAction = CaseEmbedding(toChildAction)
    self.child = child()
  }

  /// Runs `child` on `ParentState[keyPath: state]` for the actions of case `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    _ toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(state: toChildState, action: toChildAction, child: child)
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    _resolvedStandalone().run(&state, action)
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<ParentState, ParentAction> {
    let child = self.child._resolve(&resolution)
    let toChildState = _StateAccess(self.toChildState)
    let toChildAction = self.toChildAction
    return _ResolvedReducer { state, action in
      guard let childAction = toChildAction.extract(from: action) else { return .none }
      let effect = toChildState.modify(&state) { child.run(&$0, childAction) }
      if case .none = effect.operation { return .none }
      return effect.transformed(toChildAction.embed, pathComponent: nil)
    }
  }

  public typealias Body = Never
}
