// Store APIs that TCA 1.x keeps for code written before observation and key-path scoping.

extension Store {
  /// Reads the current state once, without observing it.
  ///
  /// ```swift
  /// let count = store.withState(\.count)
  /// ```
  public func withState<R>(_ body: (_ state: State) -> R) -> R {
    body(getState())
  }

  /// A store for a child feature, derived with closures.
  ///
  /// The child store is not cached, as closures have no identity: every call returns a new
  /// store.
  @available(
    *, deprecated,
    message:
      "Pass 'state' a key path to child state and 'action' a case key path to child action, instead."
  )
  public func scope<ChildState, ChildAction>(
    state toChildState: @escaping (_ state: State) -> ChildState,
    action fromChildAction: @escaping (_ childAction: ChildAction) -> Action
  ) -> Store<ChildState, ChildAction> {
    let child = scoped(state: toChildState, embed: fromChildAction)
    child.canCacheChildren = false
    return child
  }

  /// Calls `unwrap` with a store of the non-`nil` state each time the optional state becomes
  /// non-`nil`, and `else` each time it becomes `nil`, starting with its current value. The
  /// unwrapped store keeps showing the last value after the state goes away.
  ///
  /// Observation lasts as long as the returned token.
  @available(*, deprecated, message: "Use 'observe' and 'if let store.scope', instead.")
  public func ifLet<Wrapped>(
    then unwrap: @escaping (_ store: Store<Wrapped, Action>) -> Void,
    else: @escaping () -> Void = {}
  ) -> ObserveToken where State == Wrapped? {
    let wasPresent = _LastValue<Bool?>(nil)
    let update: (State) -> Void = { [weak self] state in
      guard let self else { return }
      let isPresent = state != nil
      guard isPresent != wasPresent.value else { return }
      wasPresent.value = isPresent
      guard var lastValue = state else {
        `else`()
        return
      }
      unwrap(
        self.scoped(
          state: { state in
            if let state { lastValue = state }
            return lastValue
          },
          embed: { $0 }
        ))
    }
    update(getState())
    return ObserveToken(onCancel: addObserver(update, {}))
  }
}

// MARK: - ViewStore

/// A store's state, reduced to what a view reads, with duplicates removed; and the actions the
/// view sends.
///
/// `ViewStore` predates `@ObservableState`: a front end now reads the store directly
/// (`store.count`) and observes key paths with `Store.observe(_:onChange:)`. It remains for code
/// written against it; its UI-framework parts (publishers, bindings) do not exist on Linux.
@available(*, deprecated, message: "Use '@ObservableState' and read the store, instead.")
@MainActor
@dynamicMemberLookup
public final class ViewStore<ViewState, ViewAction> {
  private var current: ViewState
  private let sendAction: (ViewAction) -> StoreTask
  private var token: ObserveToken?
  private var waiters: [Int: (predicate: (ViewState) -> Bool, resume: () -> Void)] = [:]
  private var nextWaiter = 0

  /// A view store of `store` that sees `observe(state)`, updated when it is not a duplicate of
  /// the previous value.
  public init<State, Action>(
    _ store: Store<State, Action>,
    observe toViewState: @escaping (_ state: State) -> ViewState,
    send fromViewAction: @escaping (_ viewAction: ViewAction) -> Action,
    removeDuplicates isDuplicate: @escaping (_ lhs: ViewState, _ rhs: ViewState) -> Bool
  ) {
    self.current = toViewState(store.getState())
    self.sendAction = { store.send(fromViewAction($0)) }
    let remove = store.addObserver(
      { [weak self] state in
        guard let self else { return }
        let next = toViewState(state)
        guard !isDuplicate(self.current, next) else { return }
        self.current = next
        self.resumeWaiters()
      },
      {}
    )
    self.token = ObserveToken(onCancel: remove)
  }

  /// A view store that sends the store's own actions.
  public convenience init<State>(
    _ store: Store<State, ViewAction>,
    observe toViewState: @escaping (_ state: State) -> ViewState,
    removeDuplicates isDuplicate: @escaping (_ lhs: ViewState, _ rhs: ViewState) -> Bool
  ) {
    self.init(store, observe: toViewState, send: { $0 }, removeDuplicates: isDuplicate)
  }

  /// The view state.
  public var state: ViewState { current }

  /// Reads a property of the view state: `viewStore.count`.
  public subscript<Value>(dynamicMember keyPath: KeyPath<ViewState, Value>) -> Value {
    current[keyPath: keyPath]
  }

  /// Sends a view action to the store.
  @discardableResult
  public func send(_ action: ViewAction) -> StoreTask {
    sendAction(action)
  }

  /// Sends a view action; the animation is accepted and ignored (see ``Animation``).
  @discardableResult
  public func send(_ action: ViewAction, animation: Animation?) -> StoreTask {
    sendAction(action)
  }

  /// Sends a view action; the transaction is accepted and ignored (see ``Transaction``).
  @discardableResult
  public func send(_ action: ViewAction, transaction: Transaction) -> StoreTask {
    sendAction(action)
  }

  /// Sends a view action and suspends while `predicate` holds of the view state, e.g. while a
  /// refresh is in progress.
  public func send(
    _ action: ViewAction, while predicate: @escaping (_ state: ViewState) -> Bool
  ) async {
    let task = sendAction(action)
    await withTaskCancellationHandler {
      await yield(while: predicate)
    } onCancel: {
      task.cancel()
    }
  }

  /// ``send(_:while:)``; the animation is accepted and ignored.
  public func send(
    _ action: ViewAction, animation: Animation?,
    while predicate: @escaping (_ state: ViewState) -> Bool
  ) async {
    await send(action, while: predicate)
  }

  /// Suspends while `predicate` holds of the view state.
  public func yield(while predicate: @escaping (_ state: ViewState) -> Bool) async {
    guard predicate(current) else { return }
    let id = nextWaiter
    nextWaiter += 1
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        guard !Task.isCancelled else { return continuation.resume() }
        waiters[id] = (predicate, { continuation.resume() })
      }
    } onCancel: {
      Task { @MainActor [weak self] in self?.waiters.removeValue(forKey: id)?.resume() }
    }
  }

  private func resumeWaiters() {
    for (id, waiter) in waiters where !waiter.predicate(current) {
      waiters.removeValue(forKey: id)
      waiter.resume()
    }
  }
}

@available(*, deprecated, message: "Use '@ObservableState' and read the store, instead.")
extension ViewStore where ViewState: Equatable {
  /// A view store of `store` that sees `observe(state)`, updated when it changes.
  public convenience init<State>(
    _ store: Store<State, ViewAction>,
    observe toViewState: @escaping (_ state: State) -> ViewState
  ) {
    self.init(store, observe: toViewState, send: { $0 }, removeDuplicates: { $0 == $1 })
  }

  /// A view store that sees `observe(state)` and sends view actions embedded by `send`.
  public convenience init<State, Action>(
    _ store: Store<State, Action>,
    observe toViewState: @escaping (_ state: State) -> ViewState,
    send fromViewAction: @escaping (_ viewAction: ViewAction) -> Action
  ) {
    self.init(store, observe: toViewState, send: fromViewAction, removeDuplicates: { $0 == $1 })
  }
}

/// The view store of a reducer's whole domain.
@available(*, deprecated, message: "Use '@ObservableState' and read the store, instead.")
public typealias ViewStoreOf<R: Reducer> = ViewStore<R.State, R.Action>
