import Foundation

/// A confirmation dialog in state: a title, an optional message and buttons whose actions come
/// back to the reducer. Like ``AlertState``, it is dismissed by the runtime when one of its
/// buttons is tapped.
///
/// ```swift
/// state.dialog = ConfirmationDialogState {
///   TextState("Remove this counter?")
/// } actions: {
///   ButtonState(role: .destructive, action: .confirmRemoval) { TextState("Remove") }
///   ButtonState(role: .cancel) { TextState("Cancel") }
/// }
/// ```
///
/// Two dialogs are equal when their title, message and buttons are; their `id` and title
/// visibility are not compared.
public struct ConfirmationDialogState<Action>: Identifiable {
  /// A fresh identity per dialog, so a new dialog replacing an old one is a new presentation.
  public let id: UUID
  /// The dialog's buttons.
  public var buttons: [ButtonState<Action>]
  /// The dialog's message.
  public var message: TextState?
  /// The dialog's title.
  public var title: TextState
  /// Whether the title is shown.
  public var titleVisibility: ConfirmationDialogStateTitleVisibility

  /// Creates a dialog whose title is shown or hidden as `titleVisibility` says.
  public init(
    titleVisibility: ConfirmationDialogStateTitleVisibility,
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.id = UUID()
    self.titleVisibility = titleVisibility
    self.title = title()
    self.buttons = actions()
    self.message = message?()
  }

  /// Creates a dialog whose title is shown as the platform decides.
  public init(
    title: () -> TextState,
    @ButtonStateBuilder<Action> actions: () -> [ButtonState<Action>] = { [] },
    message: (() -> TextState)? = nil
  ) {
    self.init(titleVisibility: .automatic, title: title, actions: actions, message: message)
  }

  /// Transforms the actions of the dialog's buttons.
  public func map<NewAction>(
    _ transform: (Action?) -> NewAction?
  ) -> ConfirmationDialogState<NewAction> {
    let buttons = self.buttons.map { $0.map(transform) }
    return ConfirmationDialogState<NewAction>(
      titleVisibility: titleVisibility, title: { title }, actions: { buttons },
      message: message.map { message in { message } })
  }
}

/// Whether a confirmation dialog shows its title.
public enum ConfirmationDialogStateTitleVisibility: Sendable {
  case automatic
  case hidden
  case visible
}

extension ConfirmationDialogState: Equatable where Action: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.title == rhs.title && lhs.message == rhs.message && lhs.buttons == rhs.buttons
  }
}

extension ConfirmationDialogState: Hashable where Action: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(title)
    hasher.combine(message)
    hasher.combine(buttons)
  }
}

extension ConfirmationDialogState: Sendable where Action: Sendable {}

extension ConfirmationDialogState: CustomDumpReflectable {
  public var customDumpMirror: Mirror {
    var children: [(label: String?, value: Any)] = []
    if titleVisibility != .automatic { children.append(("titleVisibility", titleVisibility)) }
    children.append(("title", title))
    if !buttons.isEmpty { children.append(("actions", buttons)) }
    if let message { children.append(("message", message)) }
    return Mirror(self, children: children, displayStyle: .struct)
  }
}

extension ConfirmationDialogState: _EphemeralState {}
