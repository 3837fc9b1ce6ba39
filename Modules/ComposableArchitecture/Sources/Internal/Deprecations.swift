// The deprecated spellings that TCA 1.x still ships and that existing code bases still use. Each
// behaves as its modern counterpart; the deprecation message names that counterpart.
// docs/compatibility.md lists them.

// MARK: - Case paths as values (`/Action.child`)

extension Scope {
  /// Runs `child` on `ParentState[keyPath: state]` for the actions a type-erased case path
  /// extracts.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.child'."
  )
  public init<ChildState, ChildAction>(
    state toChildState: WritableKeyPath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
    @ReducerBuilder<ChildState, ChildAction> child: () -> Child
  ) where ChildState == Child.State, ChildAction == Child.Action {
    self.toChildState = .field(toChildState)
    self.toChildAction = CaseEmbedding(toChildAction)
    self.child = child()
  }

  /// Runs `child` on one case of enum state, through type-erased case paths.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.child'."
  )
  public init<ChildState, ChildAction>(
    state toChildState: AnyCasePath<ParentState, ChildState>,
    action toChildAction: AnyCasePath<ParentAction, ChildAction>,
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
}

extension Reducer {
  /// ``ifLet(_:action:then:fileID:filePath:line:column:)`` through a type-erased case path.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.child'."
  )
  public func ifLet<WrappedState, WrappedAction, Wrapped: Reducer>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
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

  /// ``ifLet(_:action:fileID:filePath:line:column:)-(_,CaseKeyPath<Action,WrappedAction>,_,_,_,_)``
  /// for ephemeral state, through a type-erased case path.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.alert'."
  )
  public func ifLet<WrappedState: _EphemeralState, WrappedAction>(
    _ toWrappedState: WritableKeyPath<State, WrappedState?>,
    action toWrappedAction: AnyCasePath<Action, WrappedAction>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _IfLetReducer<Self, EmptyReducer<WrappedState, WrappedAction>> {
    _IfLetReducer(
      parent: self,
      child: EmptyReducer(),
      toChildState: toWrappedState,
      toChildAction: CaseEmbedding(toWrappedAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// A presented destination, through a type-erased case path.
  @available(
    *, deprecated,
    message:
      "Use the version of this operator with case key paths, instead: 'action: \\.destination'."
  )
  public func ifLet<DestinationState, DestinationAction, Destination: Reducer>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
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

  /// Presented ephemeral state (an alert), through a type-erased case path.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.alert'."
  )
  public func ifLet<DestinationState: _EphemeralState, DestinationAction>(
    _ toPresentationState: WritableKeyPath<State, PresentationState<DestinationState>>,
    action toPresentationAction: AnyCasePath<Action, PresentationAction<DestinationAction>>,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _PresentationReducer<Self, EmptyReducer<DestinationState, DestinationAction>> {
    _PresentationReducer(
      parent: self,
      destination: EmptyReducer(),
      toPresentationState: toPresentationState,
      toPresentationAction: CaseEmbedding(toPresentationAction),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// ``ifCaseLet(_:action:then:fileID:filePath:line:column:)`` through type-erased case paths.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.child'."
  )
  public func ifCaseLet<CaseState, CaseAction, Case: Reducer>(
    _ toCaseState: AnyCasePath<State, CaseState>,
    action toCaseAction: AnyCasePath<Action, CaseAction>,
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
      // A type-erased case path has no identity of its own; each use of the operator is one.
      keyPathID: IdentifierBox(UniqueToken()),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// A navigation stack, through a type-erased case path.
  @available(
    *, deprecated,
    message: "Use the version of this operator with case key paths, instead: 'action: \\.path'."
  )
  public func forEach<DestinationState, DestinationAction, Destination: Reducer>(
    _ toStackState: WritableKeyPath<State, StackState<DestinationState>>,
    action toStackAction: AnyCasePath<Action, StackAction<DestinationState, DestinationAction>>,
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

  /// An identified collection whose element actions are `(ID, ElementAction)` tuples, as before
  /// ``IdentifiedAction``.
  @available(
    *, deprecated,
    message:
      "Use a case key path to an 'IdentifiedAction', instead: 'case rows(IdentifiedActionOf<Row>)'."
  )
  public func forEach<ElementState, ElementAction, ID: Hashable & Sendable, Element: Reducer>(
    _ toElementsState: WritableKeyPath<State, IdentifiedArray<ID, ElementState>>,
    action toElementAction: AnyCasePath<Action, (ID, ElementAction)>,
    @ReducerBuilder<ElementState, ElementAction> element: () -> Element,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> _ForEachReducer<Self, ID, Element>
  where Element.State == ElementState, Element.Action == ElementAction {
    _ForEachReducer(
      parent: self,
      toElementsState: toElementsState,
      toElementAction: CaseEmbedding(
        extract: { action in
          toElementAction.extract(from: action).map { .element(id: $0.0, action: $0.1) }
        },
        embed: { identified in
          switch identified {
          case .element(let id, let action): toElementAction.embed((id, action))
          }
        }
      ),
      element: element(),
      location: SourceLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
  }

  /// Runs `reducer` when a value derived from state changes, by a duplicate test of your own.
  @available(*, deprecated, message: "Use 'onChange(of:)' with an equatable value, instead.")
  public func onChange<V, R: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    removeDuplicates isDuplicate: @escaping (V, V) -> Bool,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R
  ) -> _OnChangeReducer<Self, V> {
    _OnChangeReducer(
      base: self, toValue: toValue, isDuplicate: isDuplicate,
      perform: { oldValue, state, action in
        reducer(oldValue, toValue(state)).reduce(into: &state, action: action)
      })
  }
}

/// A fresh identity, for operators whose case path has none.
@usableFromInline
final class UniqueToken: Hashable, Sendable {
  @usableFromInline init() {}

  @usableFromInline
  static func == (lhs: UniqueToken, rhs: UniqueToken) -> Bool { lhs === rhs }

  @usableFromInline
  func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}

extension StackState {
  /// The payload of an element's case, through a type-erased case path.
  @available(
    *, deprecated,
    message:
      "Use the version of this subscript with case key paths, instead: '[id: id, case: \\.detail]'."
  )
  public subscript<Case>(id id: StackElementID, case path: AnyCasePath<Element, Case>) -> Case? {
    _read { yield self[id: id].flatMap(path.extract(from:)) }
    _modify { yield &self[id: id, _extract: path.extract(from:), embed: path.embed] }
  }
}

// MARK: - Renamed types

@available(*, unavailable, renamed: "Effect")
public typealias EffectTask = Effect

@available(*, unavailable, renamed: "Reducer")
public typealias ReducerProtocol = Reducer

@available(*, unavailable, renamed: "ReducerOf")
public typealias ReducerProtocolOf<R: Reducer> = Reducer<R.State, R.Action>

// MARK: - Sharing

@available(*, deprecated, renamed: "SharedKey")
public typealias PersistenceKey = SharedKey

@available(*, deprecated, renamed: "SharedReaderKey")
public typealias PersistenceReaderKey = SharedReaderKey

@available(*, deprecated, message: "Use 'Base.Default' instead of 'PersistenceKeyDefault<Base>'")
public typealias PersistenceKeyDefault = _SharedKeyDefault

extension Shared {
  /// A shared reference to `value`, not persisted.
  @available(*, deprecated, renamed: "init(value:)")
  public init(_ value: sending Value) {
    self.init(value: value)
  }

  /// A read-only view of this value.
  @available(*, deprecated, message: "Use the 'SharedReader($shared)' initializer, instead")
  public var reader: SharedReader<Value> { SharedReader(self) }

  /// A read-only member, by key path.
  @available(
    *, deprecated,
    message: "Use dynamic member lookup instead ('$shared.member', not '$shared.read(\\.member)')"
  )
  public func read<Member>(_ keyPath: KeyPath<Value, Member>) -> SharedReader<Member> {
    SharedReader(self)[dynamicMember: keyPath]
  }
}

extension SharedReader {
  /// A reader of a constant value.
  @available(*, deprecated, message: "Use 'SharedReader(value:)', instead.")
  public static func constant(_ value: sending Value) -> Self {
    Self(value: value)
  }
}
