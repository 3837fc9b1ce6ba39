/// An action that writes a value to a field of state: what a form control sends.
///
/// Features that accept bindings add `case binding(BindingAction<State>)` to a
/// ``BindableAction`` and put ``BindingReducer`` first in their body. The rest of the body can
/// react to a particular field:
///
/// ```swift
/// Reduce { state, action in
///   switch action {
///   case .binding(\.displayName):
///     state.displayName = String(state.displayName.prefix(40))
///     return .none
///   case .binding:
///     return .none
///   }
/// }
/// ```
public struct BindingAction<Root>: Sendable {
  /// The field the action writes.
  public let keyPath: PartialKeyPath<Root> & Sendable
  /// The value written, for equality and for diagnostics.
  let value: any Sendable
  let valueIsEqualTo: @Sendable (Any) -> Bool
  let set: @Sendable (inout Root) -> Void

  /// An action that sets `keyPath` to `value`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable,
    _ value: Value
  ) -> Self {
    Self(
      keyPath: keyPath,
      value: value,
      valueIsEqualTo: { ($0 as? Value) == value },
      set: { $0[keyPath: keyPath] = value }
    )
  }

  /// Matches a binding action by its field, whatever the value: `case .binding(\.field)`.
  public static func ~= <Value>(
    keyPath: WritableKeyPath<Root, Value>,
    bindingAction: Self
  ) -> Bool {
    (keyPath as AnyKeyPath) == (bindingAction.keyPath as AnyKeyPath)
  }

  /// Writes the value into the state.
  public func apply(to root: inout Root) {
    set(&root)
  }
}

extension BindingAction: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    (lhs.keyPath as AnyKeyPath) == (rhs.keyPath as AnyKeyPath) && lhs.valueIsEqualTo(rhs.value)
  }
}

extension BindingAction: CasePathable {
  /// Case paths of a binding action, one per writable field of the state:
  /// `\.binding.displayName` is the case key path of "set `displayName`".
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    public subscript<Value: Equatable & Sendable>(
      dynamicMember keyPath: WritableKeyPath<Root, Value> & Sendable
    ) -> AnyCasePath<BindingAction, Value> {
      AnyCasePath(
        embed: { .set(keyPath, $0) },
        extract: {
          ($0.keyPath as AnyKeyPath) == (keyPath as AnyKeyPath) ? $0.value as? Value : nil
        }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension BindingAction: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    Mirror(
      self,
      children: [
        "set": (keyPath: String(describing: keyPath), value: value)
      ],
      displayStyle: .enum
    )
  }
}
