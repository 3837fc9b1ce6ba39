extension Store where State: ObservableState, Action: BindableAction, Action.State == State {
  /// Reads a field of the state, and writes it by sending a binding action:
  /// `store.displayName = "Blob"` sends `.binding(.set(\.displayName, "Blob"))`, which the
  /// feature's ``BindingReducer`` applies. This is how a form control writes through a store.
  ///
  /// A write that no `BindingReducer` applies is reported ("A binding action sent from a store
  /// was not handled."), unless the store is gone by then.
  @_disfavoredOverload
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { state[keyPath: keyPath] }
    set {
      // A key path into state is an immutable object; it is only compared and applied.
      let field = unsafeBitCast(keyPath, to: (WritableKeyPath<State, Value> & Sendable).self)
      let watcher = UnhandledBindingWatcher<Action>(value: newValue) { [weak self] in self == nil }
      send(
        .binding(
          BindingAction(
            keyPath: field,
            value: newValue,
            valueIsEqualTo: { ($0 as? Value) == newValue },
            set: {
              watcher.applied.setValue(true)
              $0[keyPath: field] = newValue
            }
          )))
    }
  }
}

/// Reports a binding action that went away without being applied.
private final class UnhandledBindingWatcher<Action>: Sendable {
  let value: any Sendable
  let storeIsGone: @MainActor @Sendable () -> Bool
  let applied = LockIsolated(false)

  init(value: some Sendable, storeIsGone: @escaping @MainActor @Sendable () -> Bool) {
    self.value = value
    self.storeIsGone = storeIsGone
  }

  deinit {
    guard !applied.value else { return }
    Task { @MainActor [value, storeIsGone] in
      guard !storeIsGone() else { return }
      var valueDump = ""
      customDump(value, to: &valueDump, maxDepth: 0)
      reportIssue(
        """
        A binding action sent from a store was not handled.

          Action:
            \(typeName(Action.self)).binding(.set(_, \(valueDump)))

        To fix this, invoke "BindingReducer()" from your feature reducer's "body".
        """
      )
    }
  }
}
