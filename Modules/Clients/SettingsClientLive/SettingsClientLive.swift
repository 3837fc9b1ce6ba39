import LiveStorage
import SettingsClient

extension SettingsClient {
  /// Settings kept in `storage` for `owner` (the local profile, or a visitor), one row per value.
  ///
  /// A value stored with a name this version does not know is ignored, and one this version
  /// knows but finds missing or malformed is nil: the form keeps its default.
  public static func live(storage: any Storage, owner: String) -> Self {
    Self(
      load: { StoredSettings(values: try await storage.settings(owner: owner)) },
      save: { settings in
        try await storage.replaceSettings(settings.values, owner: owner)
      })
  }
}

extension StoredSettings {
  /// The values by name, as stored; a nil value is not stored.
  var values: [String: String] {
    let values: [String: String?] = [
      "digest": digest,
      "displayName": displayName,
      "enableNotifications": enableNotifications.map(String.init),
      "isHapticFeedbackEnabled": isHapticFeedbackEnabled.map(String.init),
      "protectMyPosts": protectMyPosts.map(String.init),
      "sendEmailNotifications": sendEmailNotifications.map(String.init),
      "sendMobileNotifications": sendMobileNotifications.map(String.init),
      "temperatureUnit": temperatureUnit,
    ]
    return values.compactMapValues { $0 }
  }

  init(values: [String: String]) {
    self.init(
      digest: values["digest"],
      displayName: values["displayName"],
      enableNotifications: values["enableNotifications"].flatMap(Bool.init),
      isHapticFeedbackEnabled: values["isHapticFeedbackEnabled"].flatMap(Bool.init),
      protectMyPosts: values["protectMyPosts"].flatMap(Bool.init),
      sendEmailNotifications: values["sendEmailNotifications"].flatMap(Bool.init),
      sendMobileNotifications: values["sendMobileNotifications"].flatMap(Bool.init),
      temperatureUnit: values["temperatureUnit"])
  }
}
