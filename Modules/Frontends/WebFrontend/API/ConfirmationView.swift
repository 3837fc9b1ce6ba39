import ComposableArchitecture

/// A confirmation dialog as the page shows it: a title, a message and the label of its confirming
/// button (the other button cancels).
public struct ConfirmationView: Codable, Equatable, Sendable {
  public var title: String
  public var message: String?
  public var confirm: String
  /// Whether confirming destroys something (the button's role is `.destructive`): the page
  /// styles that button as a destructive one.
  public var isDestructive: Bool

  public init?<Action>(_ dialog: AlertState<Action>?) {
    guard let dialog else { return nil }
    self.title = dialog.title.string
    self.message = dialog.message?.string
    self.confirm = dialog.buttons.first?.label.string ?? "OK"
    self.isDestructive = dialog.buttons.first?.role == .destructive
  }

  public init?<Action>(_ dialog: ConfirmationDialogState<Action>?) {
    guard let dialog else { return nil }
    self.title = dialog.title.string
    self.message = dialog.message?.string
    self.confirm = dialog.buttons.first?.label.string ?? "OK"
    self.isDestructive = dialog.buttons.first?.role == .destructive
  }
}

/// An alert as the page shows it; its only button dismisses it.
public struct AlertView: Codable, Equatable, Sendable {
  /// e.g. `Favoriting failed.`
  public var title: String
  public var message: String?

  public init?<Action>(_ alert: AlertState<Action>?) {
    guard let alert else { return nil }
    self.title = alert.title.string
    self.message = alert.message?.string
  }
}
