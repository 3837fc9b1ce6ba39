/// Sends actions from an effect back into the store.
///
/// Hand it the actions an effect produces: `await send(.response(value))`. An effect that has been
/// cancelled never delivers an action: once its task is cancelled, every `send` is dropped, even
/// one made after catching the `CancellationError`.
@MainActor
public struct Send<Action>: Sendable {
  let send: @MainActor @Sendable (Action) -> Void

  /// Creates a `Send` from a closure that receives each action.
  nonisolated public init(send: @escaping @MainActor @Sendable (Action) -> Void) {
    self.send = send
  }

  /// Sends an action back into the store, unless the calling task has been cancelled.
  public func callAsFunction(_ action: Action) {
    guard !Task.isCancelled else { return }
    send(action)
  }

  /// Sends an action back into the store; the animation is accepted and ignored (see
  /// ``Animation``).
  public func callAsFunction(_ action: Action, animation: Animation?) {
    self(action)
  }

  /// Sends an action back into the store; the transaction is accepted and ignored (see
  /// ``Transaction``).
  public func callAsFunction(_ action: Action, transaction: Transaction) {
    self(action)
  }
}

/// The `Send` of a reducer's actions.
public typealias SendOf<R: Reducer> = Send<R.Action>
