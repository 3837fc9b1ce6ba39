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
    set { send(.binding(storeBinding(keyPath, newValue, sentAs: "binding"))) }
  }
}

extension Store
where
  State: ObservableState, Action: ViewAction, Action.ViewAction: BindableAction,
  Action.ViewAction.State == State
{
  /// Reads a field of the state, and writes it by sending the view's binding action:
  /// `store.email = "blob@pointfree.co"` sends `.view(.binding(.set(\.email, …)))`, which
  /// `BindingReducer(action: \.view)` applies.
  @_disfavoredOverload
  public subscript<Value: Equatable & Sendable>(
    dynamicMember keyPath: WritableKeyPath<State, Value>
  ) -> Value {
    get { state[keyPath: keyPath] }
    set { send(.view(.binding(storeBinding(keyPath, newValue, sentAs: "view(.binding")))) }
  }
}

extension Store where State: ObservableState {
  /// The binding action a store sends for `store.field = value`; reported if no
  /// `BindingReducer` applies it before it goes away.
  fileprivate func storeBinding<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value>, _ newValue: Value, sentAs path: String
  ) -> BindingAction<State> {
    // A key path into state is an immutable object; it is only compared and applied.
    let field = unsafeBitCast(keyPath, to: (WritableKeyPath<State, Value> & Sendable).self)
    let watcher = UnhandledBindingWatcher<Action>(value: newValue, path: path) {
      [weak self] in self == nil
    }
    return BindingAction(
      keyPath: field,
      value: newValue,
      valueIsEqualTo: { ($0 as? Value) == newValue },
      set: {
        watcher.applied.setValue(true)
        $0[keyPath: field] = newValue
      })
  }
}

/// Reports a binding action that went away without being applied.
private final class UnhandledBindingWatcher<Action>: Sendable {
  let value: any Sendable
  /// The action's cases down to the binding: `binding`, `view(.binding`.
  let path: String
  let storeIsGone: @MainActor @Sendable () -> Bool
  let applied = LockIsolated(false)

  init(
    value: some Sendable, path: String,
    storeIsGone: @escaping @MainActor @Sendable () -> Bool
  ) {
    self.value = value
    self.path = path
    self.storeIsGone = storeIsGone
  }

  deinit {
    guard !applied.value else { return }
    let closing = path.hasPrefix("view") ? ")" : ""
    Task { @MainActor [value, path, storeIsGone] in
      guard !storeIsGone() else { return }
      var valueDump = ""
      customDump(value, to: &valueDump, maxDepth: 0)
      reportIssue(
        """
        A binding action sent from a store was not handled.

          Action:
            \(typeName(Action.self)).\(path)(.set(_, \(valueDump)))\(closing)

        To fix this, invoke "BindingReducer()" from your feature reducer's "body".
        """
      )
    }
  }
}
