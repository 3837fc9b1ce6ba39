/// Builds a reducer from the reducers listed in a ``Reducer/body-swift.property``.
///
/// Reducers listed one after another run in order on the same state — a later reducer sees the
/// changes of an earlier one — and their effects are merged so that they run concurrently.
@resultBuilder
public enum ReducerBuilder<State, Action> {
  @inlinable
  public static func buildBlock() -> EmptyReducer<State, Action> {
    EmptyReducer()
  }

  @inlinable
  public static func buildPartialBlock<R: Reducer<State, Action>>(first: R) -> R {
    first
  }

  @inlinable
  public static func buildPartialBlock<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    accumulated: R0, next: R1
  ) -> _Sequence<R0, R1> {
    _Sequence(accumulated, next)
  }

  @inlinable
  public static func buildExpression<R: Reducer<State, Action>>(_ expression: R) -> R {
    expression
  }

  @inlinable
  @_disfavoredOverload
  public static func buildExpression(_ expression: any Reducer<State, Action>) -> Reduce<
    State, Action
  > {
    Reduce(expression)
  }

  @inlinable
  public static func buildOptional<R: Reducer<State, Action>>(_ wrapped: R?) -> R? {
    wrapped
  }

  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    first reducer: R0
  ) -> _Conditional<R0, R1> {
    .first(reducer)
  }

  @inlinable
  public static func buildEither<R0: Reducer<State, Action>, R1: Reducer<State, Action>>(
    second reducer: R1
  ) -> _Conditional<R0, R1> {
    .second(reducer)
  }

  @inlinable
  public static func buildArray<R: Reducer<State, Action>>(_ reducers: [R]) -> _SequenceMany<R> {
    _SequenceMany(reducers)
  }

  @inlinable
  public static func buildLimitedAvailability<R: Reducer<State, Action>>(_ wrapped: R) -> Reduce<
    State, Action
  > {
    Reduce(wrapped)
  }

  @inlinable
  public static func buildFinalResult<R: Reducer<State, Action>>(_ reducer: R) -> R {
    reducer
  }
}

/// Two reducers run one after the other; built by ``ReducerBuilder``.
public struct _Sequence<R0: Reducer, R1: Reducer<R0.State, R0.Action>>: Reducer {
  @usableFromInline let r0: R0
  @usableFromInline let r1: R1

  @inlinable
  init(_ r0: R0, _ r1: R1) {
    self.r0 = r0
    self.r1 = r1
  }

  @inlinable
  public func reduce(into state: inout R0.State, action: R0.Action) -> Effect<R0.Action> {
    r0.reduce(into: &state, action: action)
      .merge(with: r1.reduce(into: &state, action: action))
  }

  @inlinable
  public func _resolve(_ resolution: inout _Resolution) -> _ResolvedReducer<R0.State, R0.Action> {
    let r0 = self.r0._resolve(&resolution)
    let r1 = self.r1._resolve(&resolution)
    return _ResolvedReducer { state, action in
      r0.run(&state, action).merge(with: r1.run(&state, action))
    }
  }

  public typealias Body = Never
}

/// Any number of reducers of one type run in order; built by ``ReducerBuilder`` from a `for` loop.
public struct _SequenceMany<Element: Reducer>: Reducer {
  @usableFromInline let reducers: [Element]

  @inlinable
  init(_ reducers: [Element]) {
    self.reducers = reducers
  }

  @inlinable
  public func reduce(into state: inout Element.State, action: Element.Action) -> Effect<
    Element.Action
  > {
    reducers.reduce(.none) { $0.merge(with: $1.reduce(into: &state, action: action)) }
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<Element.State, Element.Action> {
    var resolved: [_ResolvedReducer<Element.State, Element.Action>] = []
    for reducer in reducers {
      resolved.append(reducer._resolve(&resolution))
    }
    return _ResolvedReducer { state, action in
      var effect = Effect<Element.Action>.none
      for reducer in resolved {
        effect = effect.merge(with: reducer.run(&state, action))
      }
      return effect
    }
  }

  public typealias Body = Never
}

/// One of two reducers, chosen by an `if`/`else` or `switch` in a builder.
public enum _Conditional<First: Reducer, Second: Reducer<First.State, First.Action>>: Reducer {
  case first(First)
  case second(Second)

  @inlinable
  public func reduce(into state: inout First.State, action: First.Action) -> Effect<First.Action> {
    switch self {
    case .first(let first): return first.reduce(into: &state, action: action)
    case .second(let second): return second.reduce(into: &state, action: action)
    }
  }

  @inlinable
  public func _resolve(
    _ resolution: inout _Resolution
  ) -> _ResolvedReducer<First.State, First.Action> {
    switch self {
    case .first(let first): return first._resolve(&resolution)
    case .second(let second): return second._resolve(&resolution)
    }
  }

  public typealias Body = Never
}
