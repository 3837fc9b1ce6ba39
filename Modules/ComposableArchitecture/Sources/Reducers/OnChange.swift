extension Reducer {
  /// Runs extra logic when a value derived from state changes while this reducer runs.
  ///
  /// `perform` gets the old value and the state after this reducer, and its effects are merged
  /// with this reducer's. Only changes made by this reducer are seen.
  ///
  /// ```swift
  /// BindingReducer()
  ///   .onChange(of: \.temperatureUnit) { oldValue, state in
  ///     .send(.unitChanged)
  ///   }
  /// ```
  @inlinable
  public func onChange<V: Equatable>(
    of toValue: @escaping (State) -> V,
    _ perform: @escaping (_ oldValue: V, _ state: inout State) -> Effect<Action>
  ) -> _OnChangeReducer<Self, V> {
    _OnChangeReducer(
      base: self, toValue: toValue, isDuplicate: ==,
      perform: { oldValue, state, _ in
        perform(oldValue, &state)
      })
  }

  /// Runs a reducer, with the same action, when a value derived from state changes.
  ///
  /// ```swift
  /// .onChange(of: \.query) { oldValue, newValue in
  ///   Reduce { state, action in
  ///     .send(.queryChanged)
  ///   }
  /// }
  /// ```
  @inlinable
  public func onChange<V: Equatable, R: Reducer<State, Action>>(
    of toValue: @escaping (State) -> V,
    @ReducerBuilder<State, Action> _ reducer: @escaping (_ oldValue: V, _ newValue: V) -> R
  ) -> _OnChangeReducer<Self, V> {
    _OnChangeReducer(
      base: self, toValue: toValue, isDuplicate: ==,
      perform: { oldValue, state, action in
        reducer(oldValue, toValue(state)).reduce(into: &state, action: action)
      })
  }
}

/// The reducer built by ``Reducer/onChange(of:_:)-(_,(V,inout_State)->Effect<Action>)``.
public struct _OnChangeReducer<Base: Reducer, Value>: Reducer {
  @usableFromInline let base: Base
  @usableFromInline let toValue: (Base.State) -> Value
  @usableFromInline let isDuplicate: (Value, Value) -> Bool
  @usableFromInline let perform: (Value, inout Base.State, Base.Action) -> Effect<Base.Action>

  @usableFromInline
  init(
    base: Base,
    toValue: @escaping (Base.State) -> Value,
    isDuplicate: @escaping (Value, Value) -> Bool,
    perform: @escaping (Value, inout Base.State, Base.Action) -> Effect<Base.Action>
  ) {
    self.base = base
    self.toValue = toValue
    self.isDuplicate = isDuplicate
    self.perform = perform
  }

  @inlinable
  public func reduce(into state: inout Base.State, action: Base.Action) -> Effect<Base.Action> {
    let oldValue = toValue(state)
    let effects = base.reduce(into: &state, action: action)
    guard !isDuplicate(oldValue, toValue(state)) else { return effects }
    return effects.merge(with: perform(oldValue, &state, action))
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Base.State, Base.Action> {
    let base = self.base._resolve(&resolution)
    let (toValue, isDuplicate, perform) = (self.toValue, self.isDuplicate, self.perform)
    return _ResolvedReducer { state, action in
      let oldValue = toValue(state)
      let effects = base.run(&state, action)
      guard !isDuplicate(oldValue, toValue(state)) else { return effects }
      return effects.merge(with: perform(oldValue, &state, action))
    }
  }

  public typealias Body = Never
}
