import Dependencies
import DependenciesMacros
import Synchronization

/// Loads and saves the settings form's values.
///
/// Features depend on this interface only. `SettingsClientLive` keeps the values in the app's
/// database (SQLite, embedded, by default), for one owner: the local profile in `app-cli`, a
/// visitor in `app-server`.
///
/// ```swift
/// @Dependency(\.settingsClient) var settingsClient
///
/// let saved = try await settingsClient.load()
/// try await settingsClient.save(settings)
/// ```
@DependencyClient
public struct SettingsClient: Sendable {
  /// The saved values; each one nil when it was never saved.
  public var load: @Sendable () async throws -> StoredSettings
  /// Replaces the saved values. A save whose task is cancelled before it is stored throws
  /// `CancellationError` and stores nothing, so of two quick changes only the last one is kept.
  public var save: @Sendable (_ settings: StoredSettings) async throws -> Void
}

/// The values of the settings form that are kept.
///
/// Each value is optional: one that was never saved (kept by an older version, say) is nil, and
/// the form keeps its default. Choices are stored by name (`digest` is `daily`, `weekly` or
/// `off`; `temperatureUnit` is `celsius` or `fahrenheit`): this interface knows no feature's
/// types, and a feature reading a name it does not know keeps its default too.
public struct StoredSettings: Codable, Equatable, Hashable, Sendable {
  public var digest: String?
  public var displayName: String?
  public var enableNotifications: Bool?
  public var isHapticFeedbackEnabled: Bool?
  public var protectMyPosts: Bool?
  public var sendEmailNotifications: Bool?
  public var sendMobileNotifications: Bool?
  public var temperatureUnit: String?

  public init(
    digest: String? = nil,
    displayName: String? = nil,
    enableNotifications: Bool? = nil,
    isHapticFeedbackEnabled: Bool? = nil,
    protectMyPosts: Bool? = nil,
    sendEmailNotifications: Bool? = nil,
    sendMobileNotifications: Bool? = nil,
    temperatureUnit: String? = nil
  ) {
    self.digest = digest
    self.displayName = displayName
    self.enableNotifications = enableNotifications
    self.isHapticFeedbackEnabled = isHapticFeedbackEnabled
    self.protectMyPosts = protectMyPosts
    self.sendEmailNotifications = sendEmailNotifications
    self.sendMobileNotifications = sendMobileNotifications
    self.temperatureUnit = temperatureUnit
  }
}

extension SettingsClient {
  /// Values kept in memory, saved at once and never failing: for tests, and for a process that
  /// is asked to keep nothing.
  public static func inMemory(_ settings: StoredSettings = StoredSettings()) -> Self {
    let saved = Mutex(settings)
    return Self(
      load: { saved.withLock { $0 } },
      save: { settings in
        try Task.checkCancellation()
        saved.withLock { $0 = settings }
      })
  }
}

extension SettingsClient: TestDependencyKey {
  /// Both endpoints are unimplemented: calling one records a test failure and throws.
  public static let testValue = Self()
  public static let previewValue = Self.inMemory()
}

extension DependencyValues {
  /// Loads and saves the settings form's values.
  public var settingsClient: SettingsClient {
    get { self[SettingsClient.self] }
    set { self[SettingsClient.self] = newValue }
  }
}
