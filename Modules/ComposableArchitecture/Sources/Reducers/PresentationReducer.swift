extension Reducer {
  /// Integrates a presented feature held in ``PresentationState`` (`@Presents`).
  ///
  /// - A `.presented(action)` runs the destination reducer first, then this (the parent) reducer.
  ///   If the destination is ephemeral (an alert), it is dismissed afterwards.
  /// - A `.dismiss` runs the parent reducer with the destination still present, then sets it to
  ///   `nil`.
  /// - When the destination goes away or is replaced by another identity, all of its effects are
  ///   cancelled.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$destination, action: \.destination) {
  ///     Destination()
  ///   }
  /// ```
  @inlinable
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _PresentationReducer(
      parent: self,
      destination: destination(),
      toPresentationState: toPresentationState,
      toPresentationAction: CaseEmbedding(toPresentationAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Integrates presented ephemeral state, such as an alert, that has no reducer of its own.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .ifLet(\.$alert, action: \.alert)
  /// ```
  @inlinable
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: CaseKeyPath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    ifLet(
      toPresentationState, action: toPresentationAction, destination: { EmptyReducer() },
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}

/// The reducer built by ``Reducer/ifLet(_:action:destination:fileID:filePath:line:column:)``.
public struct _PresentationReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline let toPresentationState:
    WritableKeyPath<Parent.State, PresentationState<Destination.State>>
  @usableFromInline let toPresentationAction:
    CaseEmbedding<Parent.Action, PresentationAction<Destination.Action>>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    destination: Destination,
    toPresentationState: WritableKeyPath<Parent.State, PresentationState<Destination.State>>,
    toPresentationAction: CaseEmbedding<Parent.Action, PresentationAction<Destination.Action>>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.destination = destination
    self.toPresentationState = toPresentationState
    self.toPresentationAction = toPresentationAction
    self.location = location
  }

  @inlinable
  public func reduce(into state: inout Parent.State, action: Parent.Action) -> Effect<Parent.Action>
  {
    _resolvedStandalone().run(&state, action)
  }

  /// The destination runs first, with the dependencies of a presented feature (`dismiss`,
  /// `isPresented`); then the parent. A `.dismiss` runs the parent, then removes the destination;
  /// an ephemeral destination (an alert) goes away after any of its actions. When the destination
  /// goes away or is replaced by another identity, its effects are cancelled; when a destination
  /// appears, its lifetime effect starts, which turns a `dismiss()` into a `.dismiss` action.
  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Parent.State, Parent.Action> {
    let parent = self.parent._resolve(&resolution)
    let destination = withDependencies {
      $0.present()
    } operation: {
      resolution.deferringBodies { self.destination._resolve(&$0) }
    }
    let toPresentation = _StateAccess(toPresentationState)
    let toPresentationAction = self.toPresentationAction
    let identification = _ChildIdentification<Destination.State>(
      keyPath: IdentifierBox(toPresentationState))
    let location = self.location
    return _ResolvedReducer { state, action in
      let presentationAction = toPresentationAction.extract(from: action)
      let before = toPresentation.read(&state) { $0.wrappedValue }
      var destinationEffects: Effect<Parent.Action> = .none

      if case .presented(let destinationAction) = presentationAction {
        if let before {
          let effect = withDependencies {
            $0.present()
          } operation: {
            toPresentation.modify(&state) { destination.run(&$0.wrappedValue!, destinationAction) }
          }
          if case .none = effect.operation {
          } else {
            let identity = identification.identity(of: before)
            destinationEffects = effect.transformed(
              { toPresentationAction.embed(.presented($0)) },
              pathComponent: identity.pathComponent
            )
            .cancellable(id: identity)
          }
        }
      }
      if presentationAction != nil, before == nil {
        reportPresentationActionWhileAbsent(action: action, location: location)
      }

      let afterDestination = toPresentation.read(&state) { $0.wrappedValue }
      let parentEffects = parent.run(&state, action)
      var after = toPresentation.read(&state) { $0.wrappedValue }

      if let presentationAction, let presented = afterDestination,
        identification.isSame(after, afterDestination)
      {
        let dismisses: Bool
        switch presentationAction {
        case .dismiss: dismisses = true
        case .presented(let destinationAction):
          dismisses = _ephemeralDismisses(before ?? presented, after: destinationAction)
        }
        if dismisses {
          toPresentation.modify(&state) { $0.wrappedValue = nil }
          after = nil
        }
      }

      var effects = destinationEffects.merge(with: parentEffects)
      let changed = !identification.isSame(before, after)
      if changed, let before {
        effects = effects.merge(with: .cancel(id: identification.identity(of: before)))
      }
      var presentedID = toPresentation.read(&state) { $0.presentedID }
      // Another reducer set the destination to `nil` — one that ran before this one on this
      // action, or after it on an earlier one — while the presentation's lifetime was running:
      // its effects are cancelled now, as if this reducer had seen it go.
      if before == nil, let ended = presentedID {
        effects = effects.merge(with: .cancel(id: ended))
        toPresentation.modify(&state) { $0.presentedID = nil }
        presentedID = nil
      }
      if let after {
        if changed || presentedID == nil, !_isEphemeral(after) {
          let identity = identification.identity(of: after)
          if presentedID != identity {
            toPresentation.modify(&state) { $0.presentedID = identity }
            effects = effects.merge(
              with: Effect<Parent.Action>
                ._presentationLifetime { toPresentationAction.embed(.dismiss) }
                .transformed({ $0 }, pathComponent: identity.pathComponent)
                .cancellable(id: identity))
          }
        }
      } else if presentedID != nil {
        toPresentation.modify(&state) { $0.presentedID = nil }
      }
      return effects
    }
  }

  public typealias Body = Never
}

@usableFromInline
func reportPresentationActionWhileAbsent(action: Any, location: SourceLocation) {
  reportIssue(
    """
    An "ifLet" at "\(location.fileID):\(location.line)" received a presentation action when \
    destination state was absent.

      Action:
        \(debugCaseOutput(action))

    This is generally considered an application logic error, and can happen for a few \
    reasons:

    A parent reducer set destination state to "nil" before this reducer ran. This reducer \
    must run before any other reducer sets destination state to "nil". This ensures that \
    destination reducers can handle their actions while their state is still present.

    This action was sent to the store while destination state was "nil". Make sure that \
    actions for this reducer can only be sent from a store when state is present, or from \
    effects that start from this reducer.
    """,
    fileID: location.fileID,
    filePath: location.filePath,
    line: location.line,
    column: location.column
  )
}
