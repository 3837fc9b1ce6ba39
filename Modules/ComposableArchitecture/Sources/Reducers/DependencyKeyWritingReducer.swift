extension Reducer {
  /// Overrides a dependency for this reducer and the effects it returns.
  ///
  /// ```swift
  /// Search()
  ///   .dependency(\.weatherClient, .previewValue)
  /// ```
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> {
    transformDependency(\.self) { $0[keyPath: keyPath] = value }
  }

  /// Overrides a dependency that is its own key, such as a client declared as
  /// `extension WeatherClient: TestDependencyKey`.
  ///
  /// ```swift
  /// Search()
  ///   .dependency(WeatherClient.mock)
  /// ```
  @inlinable
  public func dependency<Value: TestDependencyKey>(
    _ value: Value
  ) -> _DependencyKeyWritingReducer<Self> where Value.Value == Value {
    return _DependencyKeyWritingReducer(base: self) { $0[Value.self] = value }
  }

  /// Transforms a dependency for this reducer and the effects it returns.
  @inlinable
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V> & Sendable,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> _DependencyKeyWritingReducer<Self> {
    _DependencyKeyWritingReducer(base: self) { transform(&$0[keyPath: keyPath]) }
  }
}

/// The reducer built by ``Reducer/dependency(_:_:)``.
public struct _DependencyKeyWritingReducer<Base: Reducer>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let update: (inout DependencyValues) -> Void

  @usableFromInline
  init(base: Base, update: @escaping (inout DependencyValues) -> Void) {
    self.base = base
    self.update = update
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    withDependencies(update) {
      base.reduce(into: &state, action: action)
    }
  }

  /// The base is resolved under the overridden dependencies (a `body` that reads a dependency
  /// sees the override) and runs under them for every action.
  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Base.State, Base.Action> {
    let update = self.update
    let base = withDependencies(update) { self.base._resolve(&resolution) }
    return _ResolvedReducer { state, action in
      withDependencies(update) { base.run(&state, action) }
    }
  }

  /// Chained overrides fuse into one reducer; the one closest to the base wins.
  @inlinable
  public func dependency<Value>(
    _ keyPath: WritableKeyPath<DependencyValues, Value> & Sendable,
    _ value: Value
  ) -> Self {
    let update = self.update
    return Self(base: base) { values in
      values[keyPath: keyPath] = value
      update(&values)
    }
  }

  /// Chained overrides fuse into one reducer; the one closest to the base wins.
  @inlinable
  public func dependency<Value: TestDependencyKey>(_ value: Value) -> Self
  where Value.Value == Value {
    let update = self.update
    return Self(base: base) { values in
      values[Value.self] = value
      update(&values)
    }
  }

  /// Chained transforms fuse into one reducer too; the one closest to the base runs last, so
  /// its change wins.
  @inlinable
  public func transformDependency<V>(
    _ keyPath: WritableKeyPath<DependencyValues, V> & Sendable,
    transform: @escaping (_ dependency: inout V) -> Void
  ) -> Self {
    let update = self.update
    return Self(base: base) { values in
      transform(&values[keyPath: keyPath])
      update(&values)
    }
  }

  public typealias Body = Never
}
