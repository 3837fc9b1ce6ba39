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

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _resolvedStandalone().run(&state, action)
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Parent.State, Parent.Action> {
    let parent = self.parent._resolve(&resolution)
    let child = resolution.deferringBodies { self.child._resolve(&$0) }
    let toChildState = _StateAccess(self.toChildState)
    let toChildAction = self.toChildAction
    let identification = _ChildIdentification<Child.State>(
      keyPath: IdentifierBox(self.toChildState))
    let location = self.location
    let isEphemeral = Child.State.self is any _EphemeralState.Type
    return _ResolvedReducer { state, action in
      let childAction = toChildAction.extract(from: action)
      var childEffects: Effect<Parent.Action> = .none
      if let childAction {
        // The child runs first; its effects belong to its identity.
        let effect = toChildState.modify(&state) { childState -> Effect<Child.Action>? in
          guard childState != nil else { return nil }
          return child.run(&childState!, childAction)
        }
        if let effect {
          if case .none = effect.operation {
          } else if let childState = toChildState.get(&state) {
            let identity = identification.identity(of: childState)
            childEffects = effect.transformed(
              toChildAction.embed, pathComponent: identity.pathComponent
            )
            .cancellable(id: identity)
          }
        } else {
          reportIfLetChildActionWhileNil(action: action, location: location)
        }
      }

      let before = toChildState.get(&state)
      let parentEffects = parent.run(&state, action)
      var after = toChildState.get(&state)

      if childAction != nil, before != nil, isEphemeral, identification.isSame(before, after) {
        toChildState.modify(&state) { $0 = nil }
        after = nil
      }

      guard let before, !identification.isSame(before, after) else {
        return childEffects.merge(with: parentEffects)
      }
      return childEffects.merge(with: parentEffects)
        .merge(with: .cancel(id: identification.identity(of: before)))
    }
  }

  public typealias Body = Never
}

@usableFromInline
func reportIfLetChildActionWhileNil(action: Any, location: SourceLocation) {
  reportIssue(
    """
    An "ifLet" at "\(location.fileID):\(location.line)" received a child action when child state \
    was "nil".

      Action:
    \(String(customDumping: action).indenting(by: 4))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer set child state to "nil" before this reducer ran. This reducer must run \
    before any other reducer sets child state to "nil". This ensures that child reducers can \
    handle their actions while their state is still available.

    An in-flight effect emitted this action when child state was "nil". While it may be \
    perfectly reasonable to ignore this action, consider canceling the associated effect \
    before child state becomes "nil", especially if it is a long-living effect.

    This action was sent to the store while state was "nil". Make sure that actions for this \
    reducer can only be sent from a store when state is non-"nil". In SwiftUI \
    applications, use "IfLetStore".
    """,
    fileID: location.fileID,
    filePath: location.filePath,
    line: location.line,
    column: location.column
  )
}
