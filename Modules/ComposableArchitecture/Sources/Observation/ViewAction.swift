/// An action with a case for what a view sends (`case view(View)`), kept apart from the actions
/// effects and parents send. `@CasePathable enum Action: ViewAction { case view(View) … }`
/// conforms with the case itself.
///
/// With it, a view sends `.view(.buttonTapped)` as `send(.buttonTapped)`
/// (``ViewActionSending``), `BindingReducer(action: \.view)` applies the view's binding
/// actions, a store of the feature writes a field as `store.email = "…"` through
/// `.view(.binding(…))`, and a test sends `store.send(\.view.binding.email, "…")`.
public protocol ViewAction<ViewAction> {
  associatedtype ViewAction
  static func view(_ action: ViewAction) -> Self
}

/// Something that holds a store whose action is a ``ViewAction`` — a view — and sends that
/// action's view cases directly: `send(.loginButtonTapped)` for
/// `store.send(.view(.loginButtonTapped))`.
@preconcurrency @MainActor
public protocol ViewActionSending<StoreState, StoreAction> {
  associatedtype StoreState
  associatedtype StoreAction: ViewAction
  var store: Store<StoreState, StoreAction> { get }
}

extension ViewActionSending {
  @discardableResult
  public func send(_ action: StoreAction.ViewAction) -> StoreTask {
    store.send(.view(action))
  }

  @discardableResult
  public func send(_ action: StoreAction.ViewAction, animation: Animation?) -> StoreTask {
    store.send(.view(action), animation: animation)
  }

  @discardableResult
  public func send(_ action: StoreAction.ViewAction, transaction: Transaction) -> StoreTask {
    store.send(.view(action), transaction: transaction)
  }
}
