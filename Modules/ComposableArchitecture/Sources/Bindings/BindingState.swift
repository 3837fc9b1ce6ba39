// Bindings as they were written before `@ObservableState`: fields marked `@BindingState`, a
// `BindingViewStore` that reads them, and `BindingViewState` values that write back.

/// Marks a field of state that a view may write through a binding action, before
/// `@ObservableState` made every field bindable. The binding action names the wrapper's key path:
/// `.set(\.$name, "Blob")`, matched by `case .binding(\.$name)`.
@available(
  *, deprecated,
  message: "Bind to fields of '@ObservableState' state directly: '.set(\\.name, value)'."
)
@propertyWrapper
public struct BindingState<Value> {
  /// The field's value.
  public var wrappedValue: Value

  /// A bindable field.
  public init(
    wrappedValue: Value,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.wrappedValue = wrappedValue
  }

  /// The wrapper itself, so that `\.$name` is the key path of the field.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

@available(*, deprecated)
extension BindingState: Equatable where Value: Equatable {}
@available(*, deprecated)
extension BindingState: Hashable where Value: Hashable {}
@available(*, deprecated)
extension BindingState: Sendable where Value: Sendable {}

@available(*, deprecated)
extension BindingState: Decodable where Value: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try Value(from: decoder))
  }
}

@available(*, deprecated)
extension BindingState: Encodable where Value: Encodable {
  public func encode(to encoder: any Encoder) throws {
    try wrappedValue.encode(to: encoder)
  }
}

@available(*, deprecated)
extension BindingState: CustomReflectable {
  public var customMirror: Mirror { Mirror(reflecting: wrappedValue) }
}

@available(*, deprecated)
extension BindingState: CustomDumpRepresentable {
  public var customDumpValue: Any { wrappedValue }
}

@available(*, deprecated)
extension BindingAction {
  /// An action that sets a `@BindingState` field: `.set(\.$name, "Blob")`.
  @available(
    *, deprecated,
    message: "Bind to fields of '@ObservableState' state directly: '.set(\\.name, value)'."
  )
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, BindingState<Value>> & Sendable,
    _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath,
      value: value,
      valueIsEqualTo: { ($0 as? Value) == value },
      set: { $0[keyPath: keyPath].wrappedValue = value }
    )
  }
}

@available(*, deprecated)
extension BindingAction.AllCasePaths {
  /// `\.binding.$name`: the case key path of "set the `@BindingState` field `name`".
  @available(
    *, deprecated,
    message: "Bind to fields of '@ObservableState' state directly: '\\.binding.name'."
  )
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<Root, BindingState<Value>> & Sendable
  ) -> AnyCasePath<BindingAction, Value> {
    AnyCasePath(
      embed: { .set(keyPath, $0) },
      extract: {
        ($0.keyPath as AnyKeyPath) == (keyPath as AnyKeyPath) ? $0.value as? Value : nil
      }
    )
  }
}

@available(*, deprecated)
extension BindableAction {
  /// A binding action that sets a `@BindingState` field: `.set(\.$name, "Blob")`.
  @available(
    *, deprecated,
    message: "Bind to fields of '@ObservableState' state directly: '.set(\\.name, value)'."
  )
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, BindingState<Value>> & Sendable,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}

extension BindingReducer {
  /// A binding reducer for bindable actions that a closure extracts.
  @available(
    *, deprecated,
    message: "Use the version of this API that takes a case key path, instead: 'action: \\.view'."
  )
  public init(action toViewAction: @escaping (_ action: Action) -> ViewAction?) {
    self.toViewAction = toViewAction
  }
}

// MARK: - BindingViewStore

/// A read-only view of a bindable feature's state whose `@BindingState` fields come back as
/// ``BindingViewState`` values that send binding actions when written.
@available(*, deprecated, message: "Use '@ObservableState' and read the store, instead.")
@MainActor
@dynamicMemberLookup
public struct BindingViewStore<State> {
  private let store: Store<State, BindingAction<State>>

  /// A binding view store of a store whose actions are bindable.
  public init<Action: BindableAction<State>>(store: Store<State, Action>) {
    self.store = store.scoped(state: { $0 }, embed: { Action.binding($0) })
  }

  /// The value of a field.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value {
    store.state[keyPath: keyPath]
  }

  /// A `@BindingState` field, writable.
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, BindingState<Value>> & Sendable
  ) -> BindingViewState<Value> {
    let store = self.store
    return BindingViewState(
      value: store.state[keyPath: keyPath].wrappedValue,
      write: { store.send(.set(keyPath, $0)) }
    )
  }
}

/// The value of a `@BindingState` field as a view reads it; writing it sends the binding action.
@available(*, deprecated, message: "Use '@ObservableState' and read the store, instead.")
@propertyWrapper
@dynamicMemberLookup
public struct BindingViewState<Value: Sendable>: Sendable {
  private let initialValue: Value
  private let write: @MainActor @Sendable (Value) -> Void

  init(value: Value, write: @escaping @MainActor @Sendable (Value) -> Void) {
    self.initialValue = value
    self.write = write
  }

  /// The field's value; setting it (on the main actor, where stores live) sends a binding
  /// action to the store.
  public var wrappedValue: Value {
    get { initialValue }
    nonmutating set {
      let write = self.write
      MainActor.assumeIsolated { write(newValue) }
    }
  }

  /// A field of the value.
  public subscript<Subject>(dynamicMember keyPath: KeyPath<Value, Subject> & Sendable) -> Subject {
    initialValue[keyPath: keyPath]
  }
}

@available(*, deprecated)
extension BindingViewState: Equatable where Value: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.initialValue == rhs.initialValue
  }
}

@available(*, deprecated)
extension BindingViewState: CustomDumpRepresentable {
  public var customDumpValue: Any { initialValue }
}

@available(*, deprecated)
extension ViewStore where ViewAction: BindableAction, ViewAction.State == ViewState {
  /// A view store over a bindable feature's whole state.
  public convenience init(
    _ store: Store<ViewState, ViewAction>,
    observe toViewState: @escaping (_ bindingViewStore: BindingViewStore<ViewState>) -> ViewState,
    removeDuplicates isDuplicate: @escaping (_ lhs: ViewState, _ rhs: ViewState) -> Bool
  ) {
    let bindings = BindingViewStore(store: store)
    self.init(
      store, observe: { _ in toViewState(bindings) },
      send: { $0 }, removeDuplicates: isDuplicate)
  }
}

@available(*, deprecated)
extension TestStore where Action: BindableAction, State == Action.State {
  /// The bindings of the state the test store holds now, for computing a view's state in a
  /// test: `LoginView.ViewState(store.bindings)`. Writing a field goes to a snapshot store, not
  /// to the test store.
  @MainActor
  public var bindings: BindingViewStore<State> {
    BindingViewStore(store: Store(initialState: state) { BindingReducer<State, Action, Action>() })
  }
}

@available(*, deprecated)
extension TestStore {
  /// The bindings of the state the test store holds now, for a feature whose bindable actions are
  /// nested in a case named by a case path (`/Action.view`), whatever its `Action` is.
  @MainActor
  public func bindings<ViewAction: BindableAction>(
    action toViewAction: AnyCasePath<Action, ViewAction>
  ) -> BindingViewStore<State> where State == ViewAction.State {
    bindings(of: ViewAction.self)
  }

  /// The bindings of the state now, written to a snapshot store that applies `ViewAction`'s
  /// binding actions.
  @MainActor
  func bindings<ViewAction: BindableAction>(of _: ViewAction.Type) -> BindingViewStore<State>
  where State == ViewAction.State {
    BindingViewStore(
      store: Store(initialState: state) { BindingReducer<State, ViewAction, ViewAction>() })
  }
}

@available(*, deprecated)
extension TestStore where Action: CasePathable {
  /// The bindings of the state the test store holds now, for a feature whose bindable actions are
  /// nested in a case (`\.view`).
  @MainActor
  public func bindings<ViewAction: BindableAction>(
    action toViewAction: CaseKeyPath<Action, ViewAction>
  ) -> BindingViewStore<State> where State == ViewAction.State {
    bindings(of: ViewAction.self)
  }
}
