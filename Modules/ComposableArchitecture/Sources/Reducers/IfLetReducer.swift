extension Reducer {
  /// Runs a child reducer on optional child state while it is non-`nil`.
  ///
  /// The child runs first, then this (the parent) reducer. A child action that arrives while the
  /// child state is `nil` is reported as an issue. When the parent sets the child state to `nil`,
  /// or replaces it with a value of another identity, every effect of the old child is cancelled.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.child, action: \.child) {
  ///     Child()
  ///   }
  /// ```
  @inlinable
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    @ReducerBuilder<WrappedState, WrappedAction> then wrapped: () -> Wrapped,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, Wrapped>
  where Wrapped.State == WrappedState, Wrapped.Action == WrappedAction {
    _IfLetReducer(
      parent: self,
      child: wrapped(),
      toChildState: toWrappedState,
      toChildAction: CaseEmbedding(toWrappedAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Integrates optional ephemeral state, such as an alert, that has no reducer of its own: it is
  /// set to `nil` after any of its actions.
  @inlinable
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: CaseKeyPath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    ifLet(
      toWrappedState, action: toWrappedAction, then: { EmptyReducer() }, fileID: fileID,
      filePath: filePath, line: line, column: column)
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: WritableKeyPath<Parent.State, Child.State?>
  @usableFromInline let toChildAction: CaseEmbedding<Parent.Action, Child.Action>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toChildState: WritableKeyPath<Parent.State, Child.State?>,
    toChildAction: CaseEmbedding<Parent.Action, Child.Action>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.location = location
  }

  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    let childAction = toChildAction.extract(from: action)
    var childEffects: Effect<Parent.Action> = .none
    if let childAction {
      if state[keyPath: toChildState] == nil {
        reportIssue(
          """
          An "ifLet" at "\(location.fileID):\(location.line)" received a child action when child \
          state was "nil".

            Action:
              \(debugCaseOutput(action))

          This is generally considered an application logic error, and can happen for a few \
          reasons:

          • A parent reducer set child state to "nil" before this reducer ran. This reducer must \
          run before any other reducer sets child state to "nil". This ensures that child reducers \
          can handle their actions while their state is still available.

          • An in-flight effect emitted this action when child state was "nil". While it may be \
          perfectly reasonable to ignore this action, consider canceling the associated effect \
          before child state becomes "nil", especially if it is a long-living effect.

          • This action was sent to the store while state was "nil". Make sure that actions for \
          this reducer can only be sent from a store when state is non-"nil".
          """,
          fileID: location.fileID,
          filePath: location.filePath,
          line: location.line,
          column: location.column
        )
      } else {
        let identity = ChildIdentity(keyPath: toChildState, value: state[keyPath: toChildState]!)
        let effect = child.reduce(into: &state[keyPath: toChildState]!, action: childAction)
        if case .none = effect.operation {
        } else {
          childEffects = effect.transformed(
            toChildAction.embed, pathComponent: identity.pathComponent
          )
          .cancellable(id: identity)
        }
      }
    }

    let identityBefore = state[keyPath: toChildState].map {
      ChildIdentity(keyPath: toChildState, value: $0)
    }
    let parentEffects = parent.reduce(into: &state, action: action)
    var identityAfter = state[keyPath: toChildState].map {
      ChildIdentity(keyPath: toChildState, value: $0)
    }

    if childAction != nil, identityBefore != nil, identityBefore == identityAfter,
      Child.State.self is any _EphemeralState.Type
    {
      state[keyPath: toChildState] = nil
      identityAfter = nil
    }

    var cancelEffects: Effect<Parent.Action> = .none
    if let identityBefore, identityBefore != identityAfter {
      cancelEffects = .cancel(id: identityBefore)
    }
    return childEffects.merge(with: parentEffects).merge(with: cancelEffects)
  }

  public typealias Body = Never
}
