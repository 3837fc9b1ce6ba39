extension Reducer {
  /// Runs a child reducer on one case of enum state while the state is in that case.
  ///
  /// The child runs first, on the case's payload, which is written back into the enum. When the
  /// parent moves the state to another case, or replaces the payload with another identity, the
  /// old case's effects are cancelled. A child action that arrives while the state is in another
  /// case is reported as an issue.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifCaseLet(\.loggedIn, action: \.loggedIn) {
  ///     LoggedIn()
  ///   }
  /// ```
  @inlinable
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: CaseKeyPath<State, CaseState>,
    action toCaseAction: CaseKeyPath<Action, CaseAction>,
    @ReducerBuilder<CaseState, CaseAction> then case: () -> Case,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfCaseLetReducer<Self, Case>
  where Case.State == CaseState, Case.Action == CaseAction {
    _IfCaseLetReducer(
      parent: self,
      child: `case`(),
      toChildState: CaseEmbedding(toCaseState),
      toChildAction: CaseEmbedding(toCaseAction),
      keyPathID: IdentifierBox(toCaseState),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/ifCaseLet(_:action:then:fileID:filePath:line:column:)``.
public struct _IfCaseLetReducer<Parent: Reducer, Child: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let child: Child
  @usableFromInline let toChildState: CaseEmbedding<Parent.State, Child.State>
  @usableFromInline let toChildAction: CaseEmbedding<Parent.Action, Child.Action>
  @usableFromInline let keyPathID: IdentifierBox
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    child: Child,
    toChildState: CaseEmbedding<Parent.State, Child.State>,
    toChildAction: CaseEmbedding<Parent.Action, Child.Action>,
    keyPathID: IdentifierBox,
    location: SourceLocation
  ) {
    self.parent = parent
    self.child = child
    self.toChildState = toChildState
    self.toChildAction = toChildAction
    self.keyPathID = keyPathID
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
    let toChildState = self.toChildState
    let toChildAction = self.toChildAction
    let identification = _ChildIdentification<Child.State>(keyPath: keyPathID)
    let location = self.location
    return _ResolvedReducer { state, action in
      var childEffects: Effect<Parent.Action> = .none
      // The child's state as the parent reducer receives it: after a child action it is the
      // state just embedded, so it is not extracted again.
      let before: Child.State?
      if let childAction = toChildAction.extract(from: action) {
        if var childState = toChildState.extract(from: state) {
          let effect = child.run(&childState, childAction)
          state = toChildState.embed(childState)
          before = childState
          if case .none = effect.operation {
          } else {
            let identity = identification.identity(of: childState)
            childEffects = effect.transformed(
              toChildAction.embed, pathComponent: identity.pathComponent
            )
            .cancellable(id: identity)
          }
        } else {
          reportIfCaseLetChildActionInOtherCase(action: action, state: state, location: location)
          before = nil
        }
      } else {
        before = toChildState.extract(from: state)
      }

      let parentEffects = parent.run(&state, action)
      guard let before, !identification.isSame(before, toChildState.extract(from: state)) else {
        return childEffects.merge(with: parentEffects)
      }
      return childEffects.merge(with: parentEffects)
        .merge(with: .cancel(id: identification.identity(of: before)))
    }
  }

  public typealias Body = Never
}

@usableFromInline
func reportIfCaseLetChildActionInOtherCase(action: Any, state: Any, location: SourceLocation) {
  reportIssue(
    """
    An "ifCaseLet" at "\(location.fileID):\(location.line)" received a child action when child \
    state was set to a different case.

      Action:
    \(String(customDumping: action).indenting(by: 4))
      State:
    \(String(customDumping: state).indenting(by: 4))

    This is generally considered an application logic error, and can happen for a few reasons:

    A parent reducer set "\(typeName(type(of: state)))" to a different case before this \
    reducer ran. This reducer must run before any other reducer sets child state to a \
    different case. This ensures that child reducers can handle their actions while their \
    state is still available.

    \(otherCaseReasons)
    """,
    fileID: location.fileID,
    filePath: location.filePath,
    line: location.line,
    column: location.column
  )
}

/// The last two reasons of the warnings of `ifCaseLet` and of an enum-case `Scope`, which TCA
/// words alike.
let otherCaseReasons = """
  An in-flight effect emitted this action when child state was unavailable. While it may \
  be perfectly reasonable to ignore this action, consider canceling the associated effect \
  before child state changes to another case, especially if it is a long-living effect.

  This action was sent to the store while state was another case. Make sure that actions \
  for this reducer can only be sent from a store when state is set to the appropriate \
  case. In SwiftUI applications, use "SwitchStore".
  """
