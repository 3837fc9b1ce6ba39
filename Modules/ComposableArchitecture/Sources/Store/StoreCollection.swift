extension Store {
  /// The stores of the elements of an identified collection, for a front end that draws a row
  /// per element:
  ///
  /// ```swift
  /// for rowStore in store.scope(state: \.episodes, action: \.episodes) {
  ///   render(rowStore)
  /// }
  /// ```
  ///
  /// The collection is a snapshot of the elements at the time of the call; each element's store
  /// is scoped by id (and cached, as key-path scopes are), so it keeps working while its element
  /// is in the collection.
  @_disfavoredOverload
  public func scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    state: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> _StoreCollection<ElementID, ElementState, ElementAction> {
    reportIfUncached()
    let elements = scope(state: state, action: action)
    // Reported once, here: the element stores are scoped by id from `elements`, which keeps them.
    elements.canCacheChildren = true
    return _StoreCollection(store: elements, snapshot: elements.state)
  }

  /// The stores of an identified collection's elements, spelled without the `state:` label:
  /// `for rowStore in store.scope(\.rows, action: \.rows)`.
  @_disfavoredOverload
  public func scope<ElementID: Hashable & Sendable, ElementState, ElementAction>(
    _ state: KeyPath<State, IdentifiedArray<ElementID, ElementState>>,
    action: CaseKeyPath<Action, IdentifiedAction<ElementID, ElementAction>>
  ) -> _StoreCollection<ElementID, ElementState, ElementAction> {
    scope(state: state, action: action)
  }
}

/// The stores of an identified collection's elements; see
/// ``Store/scope(state:action:)-(KeyPath<State,IdentifiedArray<ElementID,ElementState>>,_)``.
public struct _StoreCollection<ID: Hashable & Sendable, State, Action>: RandomAccessCollection {
  private let store: Store<IdentifiedArray<ID, State>, IdentifiedAction<ID, Action>>
  private let snapshot: IdentifiedArray<ID, State>

  init(
    store: Store<IdentifiedArray<ID, State>, IdentifiedAction<ID, Action>>,
    snapshot: IdentifiedArray<ID, State>
  ) {
    self.store = store
    self.snapshot = snapshot
  }

  public var startIndex: Int { snapshot.startIndex }
  public var endIndex: Int { snapshot.endIndex }

  /// The store of the element at `position` of the snapshot. An element removed since the
  /// snapshot gets a store that shows its last value and sends nowhere.
  public subscript(position: Int) -> Store<State, Action> {
    let id = snapshot.ids[position]
    // Stores live on the main actor; the collection is read there (and checked to be).
    nonisolated(unsafe) let last = snapshot[position]
    nonisolated(unsafe) let store = self.store
    return MainActor.assumeIsolated {
      store.scope(state: \.[id: id], action: \.[id: id])
        ?? Store(initialState: last) { EmptyReducer() }
    }
  }
}
