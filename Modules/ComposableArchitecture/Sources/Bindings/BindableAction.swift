/// An action type with a `binding` case, which ``BindingReducer`` applies to state.
///
/// ```swift
/// enum Action: BindableAction {
///   case binding(BindingAction<State>)
///   case resetButtonTapped
/// }
/// ```
public protocol BindableAction<State> {
  /// The state the binding actions write to.
  associatedtype State

  /// Embeds a binding action.
  static func binding(_ action: BindingAction<State>) -> Self

  /// The binding action, when this action is one.
  var binding: BindingAction<State>? { get }
}

extension BindableAction {
  public var binding: BindingAction<State>? {
    let mirror = Mirror(reflecting: self)
    guard mirror.displayStyle == .enum, let child = mirror.children.first,
      child.label == "binding"
    else { return nil }
    return child.value as? BindingAction<State>
  }

  /// A binding action that sets a field: `.set(\.displayName, "Blob")`.
  public static func set<Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<State, Value> & Sendable,
    _ value: Value
  ) -> Self {
    .binding(.set(keyPath, value))
  }
}
