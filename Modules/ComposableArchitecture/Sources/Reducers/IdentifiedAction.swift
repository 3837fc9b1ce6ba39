/// The action of one element of a collection of features: which element, and what happened to it.
///
/// ```swift
/// enum Action {
///   case counters(IdentifiedActionOf<Counter>)
/// }
/// // send to one element:
/// store.send(.counters(.element(id: id, action: .incrementButtonTapped)))
/// // or, with a case key path:
/// await testStore.send(\.counters[id: id].incrementButtonTapped)
/// ```
@CasePathable
public enum IdentifiedAction<ID: Hashable & Sendable, Action>: CasePathable {
  /// An action sent to the element with the given id.
  case element(id: ID, action: Action)
}

/// The identified action of a reducer's elements.
public typealias IdentifiedActionOf<R: Reducer> = IdentifiedAction<R.State.ID, R.Action>
where R.State: Identifiable, R.State.ID: Sendable

extension IdentifiedAction: Equatable where Action: Equatable {}
extension IdentifiedAction: Hashable where Action: Hashable {}
extension IdentifiedAction: Sendable where Action: Sendable {}
extension IdentifiedAction: Decodable where ID: Decodable, Action: Decodable {}
extension IdentifiedAction: Encodable where ID: Encodable, Action: Encodable {}

extension IdentifiedAction.AllCasePaths {
  /// A case path to the action of the element with a given id: `\.rows[id: id]`.
  public subscript(id id: ID) -> AnyCasePath<IdentifiedAction, Action> {
    AnyCasePath(
      embed: { .element(id: id, action: $0) },
      extract: {
        guard case .element(id, let action) = $0 else { return nil }
        return action
      }
    )
  }
}

extension IdentifiedAction: _CasePathResolving {
  public static func _$casePath(for keyPath: AnyKeyPath) -> Any? {
    guard keyPath == \Self.Cases.element as AnyKeyPath else { return nil }
    return _CaseFunctions<Self, (id: ID, action: Action)>(
      embed: { .element(id: $0.id, action: $0.action) },
      extract: {
        guard case .element(let id, let action) = $0 else { return nil }
        return (id, action)
      }
    )
  }
}
