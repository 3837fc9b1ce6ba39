import ComposableArchitecture
import SettingsFeature
import Units
import WebFrontend

/// The settings form on the page, and its reset confirmation.
public enum SettingsPage: WebFeature {
  public typealias Root = Settings

  /// Its section of the page (the form): `Public/settings.html` and `Public/settings.js`.
  public static let section: PageSection? = PageSection(
    id: "settings", title: "Settings", bundle: .module)

  public static let routes: [WebRoute<Settings>] = [
    WebRoute(
      "settings.set",
      [
        "field": "the name of a setting (\(SettingChange.fields.joined(separator: ", ")))",
        "value": "the setting's value (see SettingChange)",
      ],
      read: SettingChange.init
    ) { change, state throws(ActionRefusal) in
      if change.isNotificationChannel, !state.canChooseNotificationChannels {
        throw ActionRefusal.conflict(
          "notifications are off: turn them on before choosing \(change.field)")
      }
      return .binding(change.bindingAction)
    },
    // Asks for confirmation (`settings.resetConfirmation`).
    WebRoute("settings.reset") { _ in .resetButtonTapped },
    // The Reset button of the confirmation.
    WebRoute("settings.confirmReset") { state throws(ActionRefusal) in
      try requireConfirmation(in: state)
      return .destination(.presented(.confirmReset(.reset)))
    },
    // The Cancel button of the confirmation.
    WebRoute("settings.cancelReset") { state throws(ActionRefusal) in
      try requireConfirmation(in: state)
      return .destination(.dismiss)
    },
  ]

  public struct View: Codable, Equatable, Sendable {
    public var settings: SettingsView
  }

  /// The settings form.
  public struct SettingsView: Codable, Equatable, Sendable {
    public var digest: String
    public var displayName: String
    public var displayNameError: String?
    public var enableNotifications: Bool
    /// Whether `sendEmailNotifications` and `sendMobileNotifications` can be changed (only while
    /// notifications are on); the page shows them disabled otherwise.
    public var canChooseNotificationChannels: Bool
    public var isHapticFeedbackEnabled: Bool
    public var protectMyPosts: Bool
    public var sendEmailNotifications: Bool
    public var sendMobileNotifications: Bool
    public var temperatureUnit: String
    /// Why the settings could not be loaded or saved (they stay in the session).
    public var storageError: String?
    /// The reset confirmation, while it is shown (`settings.confirmReset` / `settings.cancelReset`).
    public var resetConfirmation: ConfirmationView?
  }

  public static func view(of state: Settings.State) -> View {
    let settings = state
    let confirmation: ConfirmationDialogState<Settings.ResetConfirmation>? =
      if case .confirmReset(let dialog) = settings.destination { dialog } else { nil }
    return View(
      settings: SettingsView(
        digest: settings.digest.rawValue,
        displayName: settings.displayName,
        displayNameError: settings.displayNameError,
        enableNotifications: settings.enableNotifications,
        canChooseNotificationChannels: settings.canChooseNotificationChannels,
        isHapticFeedbackEnabled: settings.isHapticFeedbackEnabled,
        protectMyPosts: settings.protectMyPosts,
        sendEmailNotifications: settings.sendEmailNotifications,
        sendMobileNotifications: settings.sendMobileNotifications,
        temperatureUnit: settings.temperatureUnit.rawValue,
        storageError: settings.storageError,
        resetConfirmation: ConfirmationView(confirmation)))
  }

  private static func requireConfirmation(in state: Settings.State) throws(ActionRefusal) {
    guard case .confirmReset = state.destination else {
      throw ActionRefusal.conflict("no reset confirmation is shown")
    }
  }
}

/// A new value for one field of the settings form: the payload of `settings.set`.
///
/// `field` names a property of `Settings.State`; `value` has that property's JSON type:
///
/// | field | value |
/// |---|---|
/// | `digest` | `"daily"`, `"weekly"` or `"off"` |
/// | `displayName` | a string (validated by the feature: trimmed, at most 32 characters) |
/// | `enableNotifications`, `sendEmailNotifications`, `sendMobileNotifications`, `protectMyPosts`, `isHapticFeedbackEnabled` | `true` or `false` |
/// | `temperatureUnit` | `"celsius"` or `"fahrenheit"` |
public enum SettingChange: Equatable, Sendable {
  case digest(Settings.Digest)
  case displayName(String)
  case enableNotifications(Bool)
  case sendEmailNotifications(Bool)
  case sendMobileNotifications(Bool)
  case protectMyPosts(Bool)
  case isHapticFeedbackEnabled(Bool)
  case temperatureUnit(TemperatureUnit)

  /// Every settable field, for error messages.
  public static let fields = [
    "digest", "displayName", "enableNotifications", "sendEmailNotifications",
    "sendMobileNotifications", "protectMyPosts", "isHapticFeedbackEnabled", "temperatureUnit",
  ]

  /// The longest display name accepted before the feature's own validation, in characters.
  ///
  /// The feature caps names at 32 characters and explains why; this bound only keeps absurd
  /// inputs out.
  public static let maximumDisplayNameInputLength = 256

  /// Reads `field` and `value`, with a message for every way they can be wrong.
  init(_ fields: ActionFields) throws(DecodingFailure) {
    let field: String = try fields.value("field")
    func flag() throws(DecodingFailure) -> Bool {
      try fields.value("value", as: Bool.self, expecting: "true or false")
    }
    switch field {
    case "digest":
      self = .digest(
        try fields.choice("value", Settings.Digest.self, expecting: "one of daily, weekly, off"))
    case "displayName":
      let name = try fields.value("value", as: String.self, expecting: "a string")
      guard name.count <= Self.maximumDisplayNameInputLength else {
        throw DecodingFailure(
          "field 'value' is too long for displayName: at most \(Self.maximumDisplayNameInputLength) characters"
        )
      }
      self = .displayName(name)
    case "enableNotifications": self = .enableNotifications(try flag())
    case "sendEmailNotifications": self = .sendEmailNotifications(try flag())
    case "sendMobileNotifications": self = .sendMobileNotifications(try flag())
    case "protectMyPosts": self = .protectMyPosts(try flag())
    case "isHapticFeedbackEnabled": self = .isHapticFeedbackEnabled(try flag())
    case "temperatureUnit":
      self = .temperatureUnit(
        try fields.choice("value", TemperatureUnit.self, expecting: "one of celsius, fahrenheit"))
    default:
      throw DecodingFailure(
        "unknown setting '\(field.prefix(64))'; expected one of: \(Self.fields.joined(separator: ", "))"
      )
    }
  }

  /// Whether this changes a notification channel, which needs notifications on.
  var isNotificationChannel: Bool {
    switch self {
    case .sendEmailNotifications, .sendMobileNotifications: true
    default: false
    }
  }

  /// The field's name in the JSON form.
  public var field: String {
    switch self {
    case .digest: "digest"
    case .displayName: "displayName"
    case .enableNotifications: "enableNotifications"
    case .sendEmailNotifications: "sendEmailNotifications"
    case .sendMobileNotifications: "sendMobileNotifications"
    case .protectMyPosts: "protectMyPosts"
    case .isHapticFeedbackEnabled: "isHapticFeedbackEnabled"
    case .temperatureUnit: "temperatureUnit"
    }
  }

  /// The value in the JSON form.
  public var value: JSONValue {
    switch self {
    case .digest(let digest): .string(digest.rawValue)
    case .displayName(let name): .string(name)
    case .enableNotifications(let value), .sendEmailNotifications(let value),
      .sendMobileNotifications(let value), .protectMyPosts(let value),
      .isHapticFeedbackEnabled(let value):
      .bool(value)
    case .temperatureUnit(let unit): .string(unit.rawValue)
    }
  }

  /// The binding action that writes this change.
  var bindingAction: BindingAction<Settings.State> {
    switch self {
    case .digest(let value): .set(\.digest, value)
    case .displayName(let value): .set(\.displayName, value)
    case .enableNotifications(let value): .set(\.enableNotifications, value)
    case .sendEmailNotifications(let value): .set(\.sendEmailNotifications, value)
    case .sendMobileNotifications(let value): .set(\.sendMobileNotifications, value)
    case .protectMyPosts(let value): .set(\.protectMyPosts, value)
    case .isHapticFeedbackEnabled(let value): .set(\.isHapticFeedbackEnabled, value)
    case .temperatureUnit(let value): .set(\.temperatureUnit, value)
    }
  }
}

extension SettingsPage {
  /// The section alone, on the feature's own reducer: what `preview-server` serves for it.
  public static var preview: WebPreview<Self> {
    alone(Settings(), initialState: { Settings.State() }, start: .task)
  }
}
