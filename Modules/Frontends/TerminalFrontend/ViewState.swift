/// What the terminal front end remembers besides the app's state: which row of each screen is
/// selected, and whether a text field is being edited. It is presentation only; everything the
/// user does goes to the store as an action.
public struct ViewState: Equatable, Sendable {
  public var selectedCounter = 0
  public var selectedResult = 0
  public var selectedSetting = 0
  public var selectedEpisode = 0
  public var editing: Field?
  /// Whether the app runs on the offline clients (`--offline`): the search screen then credits
  /// the embedded gazetteer instead of Open-Meteo.
  public var isOffline = false

  /// A text field being edited.
  public enum Field: Equatable, Sendable {
    case searchQuery
    case displayName
  }

  public init() {}
}

/// The rows of the settings screen, in order.
public enum SettingsRow: Int, CaseIterable, Sendable {
  case displayName, digest, enableNotifications, sendEmailNotifications, sendMobileNotifications
  case protectMyPosts, isHapticFeedbackEnabled, temperatureUnit, reset

  var label: String {
    switch self {
    case .displayName: "Display name"
    case .digest: "Digest"
    case .enableNotifications: "Notifications"
    case .sendEmailNotifications: "  E-mail"
    case .sendMobileNotifications: "  Mobile"
    case .protectMyPosts: "Protect my posts"
    case .isHapticFeedbackEnabled: "Haptic feedback"
    case .temperatureUnit: "Temperature unit"
    case .reset: "Reset all settings"
    }
  }
}
