import Foundation

/// A button in state: its label, its role, and the action it sends when tapped.
public struct ButtonState<Action>: Identifiable {
  /// A stable identity for front ends; not part of equality.
  public let id: UUID
  /// What tapping the button sends, if anything.
  public let action: ButtonStateAction<Action>
  /// The button's label.
  public let label: TextState
  /// The button's role, which front ends use for placement and styling.
  public let role: ButtonStateRole?

  /// Creates a button.
  ///
  /// ```swift
  /// ButtonState(role: .destructive, action: .confirmDeletion) {
  ///   TextState("Delete")
  /// }
  /// ```
  public init(
    role: ButtonStateRole? = nil,
    action: ButtonStateAction<Action> = .send(nil),
    label: () -> TextState
  ) {
    self.id = UUID()
    self.role = role
    self.action = action
    self.label = label()
  }

  /// Creates a button that sends an action when tapped.
  public init(role: ButtonStateRole? = nil, action: Action, label: () -> TextState) {
    self.init(role: role, action: .send(action), label: label)
  }

  /// Calls `perform` with the button's action, if it has one.
  public func withAction(_ perform: (Action?) -> Void) {
    switch action.kind {
    case .send(let action): perform(action)
    }
  }

  /// Transforms the button's action.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> ButtonState<NewAction> {
    switch action.kind {
    case .send(let action):
      return ButtonState<NewAction>(role: role, action: .send(transform(action))) { label }
    }
  }
}

/// What a ``ButtonState`` does when tapped.
public struct ButtonStateAction<Action> {
  enum Kind {
    case send(Action?)
  }

  let kind: Kind

  /// Sends an action when the button is tapped; `nil` only dismisses.
  public static func send(_ action: Action?) -> Self {
    Self(kind: .send(action))
  }

  /// Sends an action when the button is tapped; the animation is accepted and ignored (see
  /// ``Animation``).
  public static func send(_ action: Action?, animation: Animation?) -> Self {
    Self(kind: .send(action))
  }

  /// The action the button sends, if any.
  public var action: Action? {
    switch kind {
    case .send(let action): return action
    }
  }
}

/// The role of a ``ButtonState``.
public enum ButtonStateRole: String, Equatable, Hashable, Sendable, Codable {
  /// The button cancels, e.g. "Cancel" or "OK" on an informational alert.
  case cancel
  /// The button destroys data, e.g. "Delete".
  case destructive
}

/// Builds the buttons of an ``AlertState`` or a ``ConfirmationDialogState``.
@resultBuilder
public enum ButtonStateBuilder<Action> {
  public static func buildBlock(_ components: [ButtonState<Action>]...) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
  public static func buildExpression(_ expression: ButtonState<Action>) -> [ButtonState<Action>] {
    [expression]
  }
  public static func buildExpression(_ expression: [ButtonState<Action>]) -> [ButtonState<Action>] {
    expression
  }
  public static func buildOptional(_ component: [ButtonState<Action>]?) -> [ButtonState<Action>] {
    component ?? []
  }
  public static func buildEither(first component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }
  public static func buildEither(second component: [ButtonState<Action>]) -> [ButtonState<Action>] {
    component
  }
  public static func buildArray(_ components: [[ButtonState<Action>]]) -> [ButtonState<Action>] {
    components.flatMap { $0 }
  }
}

extension ButtonStateAction: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.action == rhs.action }
}
extension ButtonStateAction: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) { hasher.combine(action) }
}
extension ButtonStateAction: Sendable where Action: Sendable {}
extension ButtonStateAction.Kind: Sendable where Action: Sendable {}

extension ButtonState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.action == rhs.action && lhs.label == rhs.label && lhs.role == rhs.role
  }
}
extension ButtonState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(action)
    hasher.combine(label)
    hasher.combine(role)
  }
}
extension ButtonState: Sendable where Action: Sendable {}

extension ButtonState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if let role { children.append(("role", role)) }
    if let action = action.action { children.append(("action", action)) }
    children.append(("label", label))
    return Mirror(self, children: children, displayStyle: .struct)
  }
}
