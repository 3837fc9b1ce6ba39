@_spi(Reflection) import CasePaths
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
/// runtime sets it to `nil` after one of its own actions.
public protocol _EphemeralState<Action> {
  associatedtype Action
  /// The type of the actions the state's buttons send.
  static var actionType: Any.Type { get }
}

extension _EphemeralState {
  public static var actionType: Any.Type { Action.self }
}

extension AlertState: _EphemeralState {}

/// Whether a presented value is ephemeral: of an ephemeral type, or an enum whose current case
/// holds an ephemeral value (the alert case of a destination enum).
@usableFromInline
func _isEphemeral<Value>(_ value: Value) -> Bool {
  _ephemeralType(of: value) != nil
}

/// The ephemeral type of a presented value, or of the payload of its current case.
func _ephemeralType<Value>(of value: Value) -> (any _EphemeralState.Type)? {
  if let type = Value.self as? any _EphemeralState.Type { return type }
  guard let metadata = EnumMetadata(Value.self) else { return nil }
  return metadata.associatedValueType(forTag: metadata.tag(of: value))
    as? any _EphemeralState.Type
}

/// Whether `action`, sent to the presented `value`, dismisses it: `value` is ephemeral (or in an
/// ephemeral case) and `action` is one of its buttons' actions — of its action type, or an enum
/// case holding one (the alert case of a destination action). Any other action of the presented
/// feature leaves an alert up.
@usableFromInline
func _ephemeralDismisses<Value, Action>(_ value: Value, after action: Action) -> Bool {
  guard let actionType = _ephemeralType(of: value)?.actionType else { return false }
  if Action.self == actionType { return true }
  guard let metadata = EnumMetadata(Action.self) else { return false }
  return metadata.associatedValueType(forTag: metadata.tag(of: action)) == actionType
}
