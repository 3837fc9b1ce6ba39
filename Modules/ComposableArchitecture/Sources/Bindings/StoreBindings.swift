extension Store where State: ObservableState, Action: BindableAction, Action.State == State {
  /// Reads a field of the state, and writes it by sending a binding action:
  /// `store.displayName = "Blob"` sends `.binding(.set(\.displayName, "Blob"))`, which the
  /// feature's ``BindingReducer`` applies. This is how a form control writes through a store.
  @_disfavoredOverload
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { state[keyPath: keyPath] }
    set {
      // A key path into state is an immutable object; it is only compared and applied.
      let field = unsafeBitCast(keyPath, to: (WritableKeyPath<State, Value> & Sendable).self)
      send(.binding(.set(field, newValue)))
    }
  }
}
