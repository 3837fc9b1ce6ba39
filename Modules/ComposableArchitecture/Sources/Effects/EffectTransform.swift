extension Effect {
  /// Rewrites an effect for a parent: every action is transformed, and, when a path component is
  /// given, every cancellation identifier and every operation moves one level down the path.
  ///
  /// `Scope` uses it without a component; `forEach`, `ifLet` and presentation use it with the
  /// child's identity, which is what keeps two elements' identifiers apart.
  @inlinable
  func transformed<T>(
    _ transform: @escaping @Sendable (Action) -> T,
    pathComponent: AnyHashableSendable?
  ) -> Effect<T> {
    switch operation {
    case .none:
      return .none
    case .send(let action):
      return Effect<T>(operation: .send(transform(action)))
    case .run(let run):
      var path = run.path
      if let pathComponent { path = path.prepending(pathComponent) }
      let body = run.body
      var transformed = RunOperation<T>(
        name: run.name,
        priority: run.priority,
        path: path,
        body: { send in
          await body(Send { action in send(transform(action)) })
        }
      )
      transformed.isLifetime = run.isLifetime
      return Effect<T>(operation: .run(transformed))
    case .cancel(let id):
      return Effect<T>(operation: .cancel(pathComponent.map(id.prepending) ?? id))
    case .cancellable(let effect, let id, let cancelInFlight):
      return Effect<T>(
        operation: .cancellable(
          effect.transformed(transform, pathComponent: pathComponent),
          id: pathComponent.map(id.prepending) ?? id,
          cancelInFlight: cancelInFlight
        )
      )
    case .merge(let effects):
      return Effect<T>(
        operation: .merge(effects.map { $0.transformed(transform, pathComponent: pathComponent) }))
    case .concatenate(let effects):
      return Effect<T>(
        operation: .concatenate(
          effects.map { $0.transformed(transform, pathComponent: pathComponent) }))
    }
  }
}

extension Effect {
  /// Rewrites every `.run` operation of the effect, keeping the rest of its structure.
  @inlinable
  func mapRuns(_ transform: (RunOperation<Action>) -> RunOperation<Action>) -> Self {
    switch operation {
    case .none, .send, .cancel:
      return self
    case .run(let run):
      return Self(operation: .run(transform(run)))
    case .cancellable(let effect, let id, let cancelInFlight):
      return Self(
        operation: .cancellable(
          effect.mapRuns(transform), id: id, cancelInFlight: cancelInFlight))
    case .merge(let effects):
      return Self(operation: .merge(effects.map { $0.mapRuns(transform) }))
    case .concatenate(let effects):
      return Self(operation: .concatenate(effects.map { $0.mapRuns(transform) }))
    }
  }
}

extension RunOperation {
  /// The same operation with `body` replaced.
  @inlinable
  func withBody(_ body: @escaping @Sendable (_ send: Send<Action>) async -> Void) -> Self {
    var copy = RunOperation(name: name, priority: priority, path: path, body: body)
    copy.isLifetime = isLifetime
    return copy
  }
}
