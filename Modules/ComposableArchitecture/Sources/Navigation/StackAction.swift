/// The actions of a navigation stack: an element's action, a push, or a pop.
///
/// ```swift
/// enum Action {
///   case path(StackActionOf<Path>)
/// }
/// // in a test:
/// await store.send(\.path[id: 0].counter.incrementButtonTapped) { … }
/// await store.receive(\.path.popFrom) { $0.path[id: 0] = nil }
/// ```
public enum StackAction<State, Action> {
  /// An action of the element with an id.
  indirect case element(id: StackElementID, action: Action)
  /// Removes the element with an id and every element above it.
  case popFrom(id: StackElementID)
  /// Appends an element with an id.
  case push(id: StackElementID, state: State)
}

/// The stack action of a reducer's elements.
public typealias StackActionOf<R: Reducer> = StackAction<R.State, R.Action>

extension StackAction: Equatable where State: Equatable, Action: Equatable {}
extension StackAction: Hashable where State: Hashable, Action: Hashable {}
extension StackAction: Sendable where State: Sendable, Action: Sendable {}

extension StackAction: CasePathable {
  public static var allCasePaths: AllCasePaths { AllCasePaths() }

  /// The case paths of a stack action; `\.path[id: id]` reaches the action of one element.
  public struct AllCasePaths: Sendable {
    public var element: AnyCasePath<StackAction, (id: StackElementID, action: Action)> {
      AnyCasePath(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        }
      )
    }

    public var popFrom: AnyCasePath<StackAction, StackElementID> {
      AnyCasePath(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case .popFrom(let id) = $0 else { return nil }
          return id
        }
      )
    }

    public var push: AnyCasePath<StackAction, (id: StackElementID, state: State)> {
      AnyCasePath(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: {
          guard case .push(let id, let state) = $0 else { return nil }
          return (id, state)
        }
      )
    }

    /// The action of the element with an id.
    public subscript(id id: StackElementID) -> AnyCasePath<StackAction, Action> {
      AnyCasePath(
        embed: { .element(id: id, action: $0) },
        extract: {
          guard case .element(id, let action) = $0 else { return nil }
          return action
        }
      )
    }
  }
}

extension StackAction: _CasePathResolving {
  public static func _$casePath(for keyPath: AnyKeyPath) -> Any? {
    if keyPath == \Self.Cases.element as AnyKeyPath {
      return _CaseFunctions<Self, (id: StackElementID, action: Action)>(
        embed: { .element(id: $0.id, action: $0.action) },
        extract: {
          guard case .element(let id, let action) = $0 else { return nil }
          return (id, action)
        }
      )
    }
    if keyPath == \Self.Cases.popFrom as AnyKeyPath {
      return _CaseFunctions<Self, StackElementID>(
        embed: { .popFrom(id: $0) },
        extract: {
          guard case .popFrom(let id) = $0 else { return nil }
          return id
        }
      )
    }
    if keyPath == \Self.Cases.push as AnyKeyPath {
      return _CaseFunctions<Self, (id: StackElementID, state: State)>(
        embed: { .push(id: $0.id, state: $0.state) },
        extract: {
          guard case .push(let id, let state) = $0 else { return nil }
          return (id, state)
        }
      )
    }
    return nil
  }
}
