import OrderedCollections

extension Reducer {
  /// Integrates the features of a navigation stack: a ``StackState`` of element states and the
  /// ``StackAction``s of the elements.
  ///
  /// - An `.element(id:action:)` runs the element reducer first, on the element with that id
  ///   (with the dependencies of a presented feature: `dismiss`, `isPresented`), then this (the
  ///   parent) reducer.
  /// - A `.push(id:state:)` appends the element, then runs the parent, which sees it.
  /// - A `.popFrom(id:)` runs the parent, which sees the element one last time, then removes it
  ///   and every element above it.
  ///
  /// When an element leaves the stack — popped, removed by the parent, or dismissed — every
  /// effect it started is cancelled. An element that calls `dismiss()` is popped.
  ///
  /// ```swift
  /// Reduce { state, action in … }
  ///   .forEach(\.path, action: \.path) {
  ///     Path()
  ///   }
  /// ```
  @inlinable
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: CaseKeyPath<Action, StackAction<DestinationState, DestinationAction>>,
    @ReducerBuilder<DestinationState, DestinationAction> destination: () -> Destination,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _StackReducer<Self, Destination>
  where Destination.State == DestinationState, Destination.Action == DestinationAction {
    _StackReducer(
      parent: self,
      destination: destination(),
      toStackState: toStackState,
      toStackAction: CaseEmbedding(toStackAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }
}

/// The reducer built by ``Reducer/forEach(_:action:destination:fileID:filePath:line:column:)``.
public struct _StackReducer<Parent: Reducer, Destination: Reducer>: Reducer {
  @usableFromInline let parent: Parent
  @usableFromInline let destination: Destination
  @usableFromInline let toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>
  @usableFromInline let toStackAction:
    CaseEmbedding<Parent.Action, StackAction<Destination.State, Destination.Action>>
  @usableFromInline let location: SourceLocation

  @usableFromInline
  init(
    parent: Parent,
    destination: Destination,
    toStackState: WritableKeyPath<Parent.State, StackState<Destination.State>>,
    toStackAction: CaseEmbedding<Parent.Action, StackAction<Destination.State, Destination.Action>>,
    location: SourceLocation
  ) {
    self.parent = parent
    self.destination = destination
    self.toStackState = toStackState
    self.toStackAction = toStackAction
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
    let destination = withDependencies {
      $0.present()
    } operation: {
      resolution.deferringBodies { self.destination._resolve(&$0) }
    }
    let toStack = _StateAccess(toStackState)
    let toStackAction = self.toStackAction
    let keyPathID = IdentifierBox(toStackState)
    let location = self.location
    return _ResolvedReducer { state, action in
      let mountedBefore = toStack.read(&state) { $0._mounted }
      var destinationEffects: Effect<Parent.Action> = .none
      let parentEffects: Effect<Parent.Action>

      switch toStackAction.extract(from: action) {
      case .element(let id, let elementAction):
        let effect = withDependencies {
          $0.present()
        } operation: {
          toStack.modify(&state) { stack -> Effect<Destination.Action>? in
            guard stack[id: id] != nil else { return nil }
            return destination.run(&stack[id: id]!, elementAction)
          }
        }
        if let effect {
          if case .none = effect.operation {
          } else {
            let identity = ChildIdentity(keyPath: keyPathID, id: id)
            destinationEffects = effect.transformed(
              { toStackAction.embed(.element(id: id, action: $0)) },
              pathComponent: identity.pathComponent
            )
            .cancellable(id: identity)
          }
        } else {
          // A stack's warning shows the element's action, as TCA's does.
          reportMissingElement(
            action: elementAction, location: location,
            swiftUIAdvice: "use \"NavigationStack.init(path:)\" with a binding to a store.")
        }
        parentEffects = parent.run(&state, action)

      case .popFrom(let id):
        let canPop = toStack.read(&state) { $0.ids.contains(id) }
        parentEffects = parent.run(&state, action)
        if canPop {
          toStack.modify(&state) { $0.pop(from: id) }
        } else {
          let ids = toStack.read(&state) { $0.ids }
          reportStackIssue(
            "received a \"popFrom\" action for a missing element",
            details: "ID:\n    \(id)\n  Path IDs:\n    \(Array(ids))", location: location)
        }

      case .push(let id, let element):
        let ids = toStack.read(&state) { $0.ids }
        guard !ids.contains(id) else {
          reportStackIssue(
            "received a \"push\" action for an element it already contains",
            details: "ID:\n    \(id)\n  Path IDs:\n    \(Array(ids))", location: location)
          return parent.run(&state, action)
        }
        checkGeneration(of: id, location: location)
        toStack.modify(&state) { $0._dictionary[id] = element }
        parentEffects = parent.run(&state, action)

      case nil:
        parentEffects = parent.run(&state, action)
      }

      let idsAfter = toStack.read(&state) { $0.ids }
      guard !areIdentical(mountedBefore, idsAfter), mountedBefore != idsAfter else {
        return destinationEffects.merge(with: parentEffects)
      }
      var effects = destinationEffects.merge(with: parentEffects)
      for id in mountedBefore.subtracting(idsAfter) {
        effects = effects.merge(with: .cancel(id: ChildIdentity(keyPath: keyPathID, id: id)))
      }
      for id in idsAfter.subtracting(mountedBefore) {
        let identity = ChildIdentity(keyPath: keyPathID, id: id)
        effects = effects.merge(
          with: Effect<Parent.Action>
            ._presentationLifetime { toStackAction.embed(.popFrom(id: id)) }
            .transformed({ $0 }, pathComponent: identity.pathComponent)
            .cancellable(id: identity))
      }
      toStack.modify(&state) { $0._mounted = idsAfter }
      return effects
    }
  }

  public typealias Body = Never
}

/// In tests, a pushed id must be the next one of the `stackElementID` dependency (or one already
/// used): then the ids a test names (`\.path[id: 1]`) are the ids the reducer made.
@usableFromInline
func checkGeneration(of id: StackElementID, location: SourceLocation) {
  @Dependency(\.context) var context
  guard context == .test else { return }
  @Dependency(\.stackElementID) var stackElementID
  let next = stackElementID.peek()
  if id.generation > next.generation {
    reportStackIssue(
      "received a \"push\" action with an unexpected generational ID",
      details: "Received ID:\n    \(id)\n  Expected ID:\n    \(next)", location: location)
  } else if id.generation == next.generation {
    _ = stackElementID.next()
  }
}

@usableFromInline
func reportStackIssue(_ problem: String, details: String, location: SourceLocation) {
  reportIssue(
    """
    A "forEach" at "\(location.fileID):\(location.line)" \(problem).

      \(details)
    """,
    fileID: location.fileID,
    filePath: location.filePath,
    line: location.line,
    column: location.column
  )
}
