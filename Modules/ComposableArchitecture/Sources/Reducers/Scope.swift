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
  /// Where the child's state lives: a field of the parent, or one case of an enum parent.
  @usableFromInline
  enum ChildLocation {
    case field(WritableKeyPath<ParentState, Child.State>)
    case `case`(CaseEmbedding<ParentState, Child.State>, SourceLocation)
  }

  @usableFromInline let toChildState: ChildLocation
  @usableFromInline let toChildAction: CaseEmbedding<ParentAction, Child.Action>
  @usableFromInline let child: Child

  /// Runs `child` on `ParentState[keyPath: state]` for the actions of case `action`.
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .field(toChildState)
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

  /// Runs `child` on one case of enum state, for the actions of case `action`, while the state is
  /// in that case. A child action that arrives while the state is in another case is reported.
  @available(
    *, deprecated,
    message: "Use a '@Reducer enum' or 'ifCaseLet(_:action:)' on a base reducer, instead."
  )
  @inlinable
  public init<ChildState, ChildAction>(
    state toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.init(
      _caseState: toChildState, action: toChildAction, child: child,
      fileID: fileID, filePath: filePath, line: line, column: column)
  }

  /// The enum-case scope that `@Reducer enum` writes into its `body`, one per reducer case.
  @inlinable
  public init<ChildState, ChildAction>(
    _caseState toChildState: CaseKeyPath<ParentState, ChildState>,
    action toChildAction: CaseKeyPath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .case(
      CaseEmbedding(toChildState),
      SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
    self.toChildAction = CaseEmbedding(toChildAction)
    self.child = child()
  }

  @inlinable
  public func reduce(into state: inout ParentState, action: ParentAction) -> Effect<ParentAction> {
    _resolvedStandalone().run(&state, action)
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<ParentState, ParentAction> {
    let toChildAction = self.toChildAction
    switch self.toChildState {
    case .field(let keyPath):
      // A field's state always exists: its child is part of the parent, resolved with it.
      let child = self.child._resolve(&resolution)
      let toChildState = _StateAccess(keyPath)
      return _ResolvedReducer { state, action in
        guard let childAction = toChildAction.extract(from: action) else { return .none }
        let effect = toChildState.modify(&state) { child.run(&$0, childAction) }
        if case .none = effect.operation { return .none }
        return effect.transformed(toChildAction.embed, pathComponent: nil)
      }
    case .case(let toChildState, let location):
      // One case of an enum: its child waits for the first action that reaches it.
      let child = resolution.deferringBodies { self.child._resolve(&$0) }
      return _ResolvedReducer { state, action in
        guard let childAction = toChildAction.extract(from: action) else { return .none }
        guard var childState = toChildState.extract(from: state) else {
          reportScopeChildActionInOtherCase(action: action, state: state, location: location)
          return .none
        }
        let effect = child.run(&childState, childAction)
        state = toChildState.embed(childState)
        if case .none = effect.operation { return .none }
        return effect.transformed(toChildAction.embed, pathComponent: nil)
      }
    }
  }

  public typealias Body = Never
}

@usableFromInline
func reportScopeChildActionInOtherCase(action: Any, state: Any, location: SourceLocation) {
  reportIssue(
    """
    A "Scope" at "\(location.fileID):\(location.line)" received a child action when child state \
    was set to a different case.

      Action:
        \(debugCaseOutput(action))
      State:
        \(debugCaseOutput(state))

    This is generally considered an application logic error, and can happen for a few \
    reasons:

    A parent reducer set "\(typeName(type(of: state)))" to a different case before the \
    scoped reducer ran. Child reducers must run before any parent reducer sets child state \
    to a different case. This ensures that child reducers can handle their actions while \
    their state is still available. Consider using "Reducer.ifCaseLet" to embed this \
    child reducer in the parent reducer that change its state to ensure the child reducer \
    runs first.

    \(otherCaseReasons)
    """,
    fileID: location.fileID,
    filePath: location.filePath,
    line: location.line,
    column: location.column
  )
}
