import ComposableArchitecture
import SettingsFeature
import TerminalFrontend

/// The settings form: one row per setting, the display name edited in place, the reset
/// confirmation in a box.
public enum SettingsScreen: TerminalScreen {
  public typealias Root = Settings

  public static func render(_ state: Settings.State, view: ViewState, style: Style) -> [String] {
    let settings = state
    var lines: [String] = []
    for row in SettingsRow.allCases {
      let value: String
      switch row {
      case .displayName:
        value =
          view.editing == .displayName
          ? settings.displayName + "█"
          : (settings.displayName.isEmpty ? style.dim("(none)") : settings.displayName)
      case .digest: value = "‹ \(settings.digest.rawValue) ›"
      case .enableNotifications: value = toggle(settings.enableNotifications, style: style)
      case .sendEmailNotifications:
        value = channel(settings.sendEmailNotifications, settings: settings, style: style)
      case .sendMobileNotifications:
        value = channel(settings.sendMobileNotifications, settings: settings, style: style)
      case .protectMyPosts: value = toggle(settings.protectMyPosts, style: style)
      case .isHapticFeedbackEnabled: value = toggle(settings.isHapticFeedbackEnabled, style: style)
      case .temperatureUnit: value = "‹ \(settings.temperatureUnit.symbol) ›"
      case .reset: value = ""
      }
      let label = row.label.padding(toLength: 18, withPad: " ", startingAt: 0)
      let marker = ScreenRenderer.marker(row.rawValue == view.selectedSetting, style: style)
      lines.append("\(marker) \(label) \(value)")
    }
    // Why what is typed is not all kept: said while the name is edited, gone once it is left
    // (the field then shows what is kept).
    if let error = settings.displayNameError, view.editing == .displayName {
      lines.append(style.red(error))
    }
    if let error = settings.storageError {
      lines.append(style.red(error))
    }
    if case .confirmReset(let dialog) = settings.destination {
      lines += ScreenRenderer.confirmation(
        dialog.title, message: dialog.message, confirm: dialog.buttons.first?.label)
    }
    return lines
  }

  public static func help(_ state: Settings.State, view: ViewState) -> String {
    // While the confirmation is up, only its keys do anything here.
    if case .confirmReset(let dialog) = state.destination {
      return ScreenRenderer.confirmationHelp(confirm: dialog.buttons.first?.label)
    }
    return "↑/↓ select · Enter/Space change · ←/→ choose"
  }

  public static func action(
    for key: Key, state: Settings.State, view: inout ViewState
  ) -> Settings.Action? {
    let settings = state
    if view.editing == .displayName {
      return view.edit(settings.displayName, with: key).map {
        .binding(.set(\.displayName, $0))
      }
    }
    if case .confirmReset = settings.destination {
      return answer(
        key, confirm: .destination(.presented(.confirmReset(.reset))),
        cancel: .destination(.dismiss))
    }
    if let row = moved(view.selectedSetting, by: key, count: SettingsRow.allCases.count) {
      view.selectedSetting = row
      return nil
    }
    func set<Value: Equatable & Sendable>(
      _ keyPath: WritableKeyPath<Settings.State, Value> & Sendable, _ value: Value
    ) -> Settings.Action {
      .binding(.set(keyPath, value))
    }
    let row = SettingsRow.allCases[view.selectedSetting]
    switch key {
    case .enter, .character(" "):
      switch row {
      case .displayName:
        view.editing = .displayName
        return nil
      case .digest: return set(\.digest, settings.digest.cycled(by: 1))
      case .enableNotifications: return set(\.enableNotifications, !settings.enableNotifications)
      // Disabled while notifications are off: the key does nothing, as on a disabled switch.
      case .sendEmailNotifications:
        guard settings.canChooseNotificationChannels else { return nil }
        return set(\.sendEmailNotifications, !settings.sendEmailNotifications)
      case .sendMobileNotifications:
        guard settings.canChooseNotificationChannels else { return nil }
        return set(\.sendMobileNotifications, !settings.sendMobileNotifications)
      case .protectMyPosts: return set(\.protectMyPosts, !settings.protectMyPosts)
      case .isHapticFeedbackEnabled:
        return set(\.isHapticFeedbackEnabled, !settings.isHapticFeedbackEnabled)
      case .temperatureUnit:
        return set(\.temperatureUnit, settings.temperatureUnit.cycled(by: 1))
      case .reset: return .resetButtonTapped
      }
    case .left, .right, .character("h"), .character("l"):
      let step = (key == .left || key == .character("h")) ? -1 : 1
      switch row {
      case .digest: return set(\.digest, settings.digest.cycled(by: step))
      case .temperatureUnit:
        return set(\.temperatureUnit, settings.temperatureUnit.cycled(by: step))
      default: return nil
      }
    default:
      return nil
    }
  }

  static func toggle(_ isOn: Bool, style: Style) -> String {
    isOn ? style.green("[x] on") : "[ ] off"
  }

  /// A channel's switch, dimmed with the reason while it cannot be changed.
  static func channel(_ isOn: Bool, settings: Settings.State, style: Style) -> String {
    settings.canChooseNotificationChannels
      ? toggle(isOn, style: style) : style.dim("[-] off · needs notifications on")
  }
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

extension ViewState {
  /// The selected row of the settings screen (a ``SettingsRow``'s raw value).
  public var selectedSetting: Int {
    get { self[selection: "settings"] }
    set { self[selection: "settings"] = newValue }
  }
}

extension ViewState.Field {
  /// The display name.
  public static let displayName = Self("displayName")
}
