import Foundation

/// An alert in state: a title, an optional message and buttons whose actions come back to the
/// reducer. Held in `@Presents var alert: AlertState<Action.Alert>?` and wired with
/// `ifLet(\.$alert, action: \.alert)`, it is dismissed by the runtime when one of its buttons is
/// tapped.
///
/// ```swift
/// state.alert = AlertState {
///   TextState("Favoriting failed.")
/// } actions: {
///   ButtonState(role: .cancel) { TextState("OK") }
/// } message: {
///   TextState("Check your connection and try again.")
/// }
/// ```
///
/// Two alerts are equal when their title, message and buttons are; their `id` is not compared.
public struct AlertState<Action>: Identifiable {
  /// A fresh identity per alert, so a new alert replacing an old one is a new presentation.
  public let id: UUID
  /// The alert's title.
  public var title: TextState
  /// The alert's message.
  public var message: TextState?
  /// The alert's buttons; an alert with none shows a single "OK".
  public var buttons: [ButtonState<Action>]

  /// Creates an alert.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// Transforms the actions of the alert's buttons.
  public func map<NewAction>(_ transform: (Action?) -> NewAction?) -> AlertState<NewAction> {
    let buttons = self.buttons.map { $0.map(transform) }
    return AlertState<NewAction>(
      title: { title }, actions: { buttons }, message: message.map { message in { message } })
  }
}

extension AlertState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}
extension AlertState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}
extension AlertState: Sendable where Action: Sendable {}

extension AlertState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = [("title", title)]
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

/// State that is dismissed as soon as the user acts on it (alerts, confirmation dialogs): the
/// runtime sets it to `nil` after any of its actions.
public protocol _EphemeralState<Action> {
  associatedtype Action
}

extension AlertState: _EphemeralState {}

/// Whether a presented value is ephemeral: of an ephemeral type, or an enum whose current case
/// holds an ephemeral value (the alert case of a destination enum).
@usableFromInline
func _isEphemeral<Value>(_ value: Value) -> Bool {
  if Value.self is any _EphemeralState.Type { return true }
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum, let payload = mirror.children.first?.value else {
    return false
  }
  return payload is any _EphemeralState
}
