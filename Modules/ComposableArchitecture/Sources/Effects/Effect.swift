import Foundation

/// The side effects a reducer asks the store to perform.
///
/// An effect is a value: a reducer returns it and the ``Store`` interprets it. The synchronous
/// parts — ``send(_:)``, ``cancel(id:)`` and the registration of a ``cancellable(id:cancelInFlight:)``
/// effect — are carried out by the store inside the same send loop that produced them, so there is
/// no window in which a cancelled effect can still start or deliver an action. The asynchronous
/// part, ``run(priority:name:operation:catch:fileID:filePath:line:column:)``, becomes one
/// unstructured `Task` per operation.
///
/// ```swift
/// case .factButtonTapped:
///   state.isLoading = true
///   return .run { [count = state.count] send in
///     await send(.factResponse(Result { try await factClient.fetch(count) }))
///   }
///   .cancellable(id: CancelID.fact, cancelInFlight: true)
/// ```
public struct Effect<Action> {
  @usableFromInline
  indirect enum Operation {
    case none
    /// An action delivered synchronously, in the send loop, after the action being reduced.
    case send(Action)
    /// An asynchronous operation, started as a `Task` by the store.
    case run(RunOperation<Action>)
    /// Cancels the effects registered under an identifier (and its descendants).
    case cancel(EffectID)
    /// Registers every task of `effect` under an identifier.
    case cancellable(Effect, id: EffectID, cancelInFlight: Bool)
    /// Effects that run concurrently.
    case merge([Effect])
    /// Effects that run one after another.
    case concatenate([Effect])
  }

  @usableFromInline
  let operation: Operation

  @usableFromInline
  init(operation: Operation) {
    self.operation = operation
  }

  /// Whether the effect does nothing: what the store checks first, on every action.
  @inlinable
  var isNone: Bool {
    if case .none = operation { return true }
    return false
  }
}

// An `Effect` is created by a reducer and interpreted by its store, both on the main actor. What
// crosses into other isolation domains is only the `@Sendable` operation of a `.run`; the actions
// held by `.send` effects are delivered on the main actor by the store that received them.
extension Effect: @unchecked Sendable {}

/// A convenience for an effect whose action is a reducer's action.
public typealias EffectOf<R: Reducer> = Effect<R.Action>

/// The asynchronous work of an ``Effect/run(priority:name:operation:catch:fileID:filePath:line:column:)``.
@usableFromInline
struct RunOperation<Action>: Sendable {
  @usableFromInline let name: String?
  @usableFromInline let priority: TaskPriority?
  /// The cancellation path the operation runs under, relative to the reducer that returned it;
  /// `Task.cancel(id:)` inside the operation resolves identifiers against it.
  @usableFromInline var path: EffectPath
  @usableFromInline let body: @Sendable (_ send: Send<Action>) async -> Void
  /// Whether the operation lives as long as a presentation: no send waits for it and a test
  /// store does not count it as in flight.
  @usableFromInline var isLifetime = false

  @inlinable
  init(
    name: String?, priority: TaskPriority?, path: EffectPath,
    body: @escaping @Sendable (_ send: Send<Action>) async -> Void
  ) {
    self.name = name
    self.priority = priority
    self.path = path
    self.body = body
  }

  /// The same operation, living as long as a presentation.
  func asLifetime() -> Self {
    var copy = self
    copy.isLifetime = true
    return copy
  }
}

extension Effect {
  /// An effect that does nothing and completes immediately.
  @inlinable
  public static var none: Self { Self(operation: .none) }

  /// An effect that synchronously sends an action back into the store, right after the action that
  /// returned it and before `Store.send` returns.
  ///
  /// Use it to tell a parent what happened in a child ("delegate" actions), not to share logic:
  /// a helper method does that without another trip through the reducer tree.
  @inlinable
  public static func send(_ action: Action) -> Self {
    Self(operation: .send(action))
  }

  /// An effect that runs an asynchronous operation and may send any number of actions back into
  /// the store.
  ///
  /// The dependencies in effect when the effect is created are restored inside the operation.
  /// A thrown `CancellationError`, or any error thrown after the effect was cancelled, ends the
  /// effect quietly. Any other error goes to `handler` when one is given; otherwise it is reported
  /// as an issue (a runtime warning in an app, a failure in a test).
  ///
  /// ```swift
  /// return .run { send in
  ///   for await _ in clock.timer(interval: .seconds(1)) {
  ///     await send(.timerTicked)
  ///   }
  /// }
  /// ```
  @inlinable
  public static func run(
    priority: TaskPriority? = nil,
    name: String? = nil,
    operation: @escaping @Sendable (_ send: Send<Action>) async throws -> Void,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> Self {
    // The dependencies of the reducer that returns the effect, restored inside its task.
    let dependencies = DependencyValues._current
    return Self(
      operation: .run(
        RunOperation(
          name: name,
          priority: priority,
          path: [],
          body: { send in
            // A task started by the store inherits the dependencies the store ran the reducer
            // with; only an effect whose reducer ran under other ones (`.dependency(_:_:)`)
            // installs its own.
            if DependencyValues._current.isIdentical(to: dependencies) {
              await _perform(
                operation, send: send, catch: handler, fileID: fileID, filePath: filePath,
                line: line, column: column)
            } else {
              await DependencyValues.$_current.withValue(dependencies) {
                await _perform(
                  operation, send: send, catch: handler, fileID: fileID, filePath: filePath,
                  line: line, column: column)
              }
            }
          }
        )
      )
    )
  }

  /// Runs a `.run` operation: a thrown `CancellationError`, or any error thrown after the effect
  /// was cancelled, ends it quietly; any other goes to `handler`, or is reported.
  @inlinable @inline(__always)
  static func _perform(
    _ operation: @Sendable (_ send: Send<Action>) async throws -> Void,
    send: Send<Action>,
    catch handler: (@Sendable (_ error: any Error, _ send: Send<Action>) async -> Void)?,
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) async {
    do {
      try await operation(send)
    } catch is CancellationError {
      return
    } catch {
      guard !Task.isCancelled else { return }
      if let handler {
        await handler(error, send)
      } else {
        reportUnhandledEffectError(
          error, fileID: fileID, filePath: filePath, line: line, column: column)
      }
    }
  }

  /// An effect that sends an action synchronously; the animation is accepted and ignored (see
  /// ``Animation``).
  public static func send(_ action: Action, animation: Animation?) -> Self {
    .send(action)
  }

  /// This effect; the animation is accepted and ignored (see ``Animation``).
  @available(*, deprecated, message: "Use send(_:animation:) from within a .run effect instead")
  public func animation(_ animation: Animation? = .default) -> Self {
    self
  }

  /// This effect; the transaction is accepted and ignored (see ``Transaction``).
  @available(*, deprecated, message: "Use send(_:transaction:) from within a .run effect instead")
  public func transaction(_ transaction: Transaction) -> Self {
    self
  }

  /// Merges effects so that they run concurrently.
  @inlinable
  public static func merge(_ effects: Self...) -> Self {
    .merge(effects)
  }

  /// Merges a sequence of effects so that they run concurrently.
  public static func merge(_ effects: some Sequence<Self>) -> Self {
    var kept: [Self] = []
    for effect in effects {
      switch effect.operation {
      case .none: continue
      case .merge(let nested): kept.append(contentsOf: nested)
      default: kept.append(effect)
      }
    }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Self(operation: .merge(kept))
    }
  }

  /// Merges this effect with another so that they run concurrently.
  ///
  /// Every operator merges its child's effects with its parent's on every action, and mostly both
  /// are `.none`: that case is two tag tests, inlined, with nothing retained.
  @inlinable
  public func merge(with other: Self) -> Self {
    if isNone { return other }
    if other.isNone { return self }
    return Self.merging(self, other)
  }

  @usableFromInline
  static func merging(_ first: Self, _ second: Self) -> Self {
    .merge([first, second])
  }

  /// Concatenates effects so that each starts when the one before it has finished.
  @inlinable
  public static func concatenate(_ effects: Self...) -> Self {
    .concatenate(effects)
  }

  /// Concatenates a sequence of effects so that each starts when the one before it has finished.
  public static func concatenate(_ effects: some Collection<Self>) -> Self {
    let kept = effects.filter {
      if case .none = $0.operation { return false }
      return true
    }
    switch kept.count {
    case 0: return .none
    case 1: return kept[0]
    default: return Self(operation: .concatenate(kept))
    }
  }

  /// Concatenates this effect and another so that `other` starts when this one has finished.
  @inlinable
  public func concatenate(with other: Self) -> Self {
    .concatenate([self, other])
  }

  /// Transforms every action this effect sends.
  public func map<T>(_ transform: @escaping @Sendable (Action) -> T) -> Effect<T> {
    transformed(transform, pathComponent: nil)
  }
}

/// Reports an error that a `.run` effect threw and did not handle.
@usableFromInline
func reportUnhandledEffectError(
  _ error: any Error, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
) {
  reportIssue(
    """
    An "Effect.run" returned from "\(fileID):\(line)" threw an unhandled error.

    \(String(customDumping: error).indenting(by: 4))

    All non-cancellation errors must be explicitly handled via the "catch" parameter on \
    "Effect.run", or via a "do" block.
    """,
    fileID: fileID,
    filePath: filePath,
    line: line,
    column: column
  )
}

extension String {
  func indenting(by count: Int) -> String {
    let indentation = String(repeating: " ", count: count)
    return split(separator: "\n", omittingEmptySubsequences: false)
      .map { $0.isEmpty ? "" : indentation + $0 }
      .joined(separator: "\n")
  }
}
