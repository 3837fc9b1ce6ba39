import ComposableArchitecture
import SettingsFeature
import Testing

@MainActor
struct SettingsTests {
  @Test func bindingsWriteEveryField() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(\.binding.digest, .weekly) { $0.digest = .weekly }
    await store.send(\.binding.protectMyPosts, true) { $0.protectMyPosts = true }
    await store.send(\.binding.isHapticFeedbackEnabled, false) {
      $0.isHapticFeedbackEnabled = false
    }
    await store.send(\.binding.temperatureUnit, .fahrenheit) { $0.temperatureUnit = .fahrenheit }
    await store.send(\.binding.displayName, "Blob") {
      $0.displayName = "Blob"
      $0.$publicName.withLock { $0 = "Blob" }
    }
  }

  @Test func theSeedsOwnTest() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(.set(\.displayName, "Blob")) {
      $0.displayName = "Blob"
      $0.$publicName.withLock { $0 = "Blob" }  // added: the shared name follows
    }
    await store.send(.set(\.protectMyPosts, true)) { $0.protectMyPosts = true }
  }

  @Test func displayNameIsCappedAndExplained() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    let long = String(repeating: "a", count: 40)
    await store.send(\.binding.displayName, long) {
      $0.displayName = String(repeating: "a", count: 32)
      $0.$publicName.withLock { $0 = String(repeating: "a", count: 32) }
      $0.displayNameError = "Display names are limited to 32 characters."
    }
    await store.send(\.binding.displayName, "Blob") {
      $0.displayName = "Blob"
      $0.$publicName.withLock { $0 = "Blob" }
      $0.displayNameError = nil
    }
  }

  @Test func displayNameRejectsControlCharactersAndNormalisesWhiteSpace() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(\.binding.displayName, "  Blob\n\tJr\u{7}") {
      $0.displayName = "Blob Jr"
      $0.$publicName.withLock { $0 = "Blob Jr" }
      $0.displayNameError = "Display names can't contain control characters."
    }
    // A trailing space changes the field, not the name others see.
    await store.send(\.binding.displayName, "Blob  Jr ") {
      $0.displayName = "Blob Jr "
      $0.displayNameError = nil
    }
    #expect(store.state.trimmedDisplayName == "Blob Jr")
  }

  @Test func turningNotificationsOffTurnsTheChannelsOff() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(\.binding.enableNotifications, true) { $0.enableNotifications = true }
    await store.send(\.binding.sendEmailNotifications, true) { $0.sendEmailNotifications = true }
    await store.send(\.binding.sendMobileNotifications, true) { $0.sendMobileNotifications = true }
    await store.send(\.binding.enableNotifications, false) {
      $0.enableNotifications = false
      $0.sendEmailNotifications = false
      $0.sendMobileNotifications = false
    }
  }

  @Test func aChannelCannotBeOnWhileNotificationsAreOff() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(\.binding.sendEmailNotifications, true)
  }

  @Test func resetRestoresTheDefaults() async {
    let store = TestStore(
      initialState: Settings.State(
        digest: .off, displayName: "Blob", enableNotifications: true, protectMyPosts: true,
        sendEmailNotifications: true, temperatureUnit: .fahrenheit)
    ) { Settings() }
    await store.send(.resetButtonTapped) {
      $0.destination = .confirmReset(.resetSettings)
    }
    await store.send(\.destination.confirmReset.reset) { $0 = Settings.State() }
  }

  @Test func resetKeepsTheSharedNameAndClearsIt() async {
    let name = Shared(value: "Blob")
    let store = TestStore(initialState: Settings.State(displayName: "Blob", publicName: name)) {
      Settings()
    }
    await store.send(.resetButtonTapped) {
      $0.destination = .confirmReset(.resetSettings)
    }
    await store.send(\.destination.confirmReset.reset) {
      $0.destination = nil
      $0.displayName = ""
      $0.$publicName.withLock { $0 = "" }
    }
    #expect(name.wrappedValue == "", "the reference handed in is the one cleared")
  }

  @Test func cancellingTheResetChangesNothing() async {
    let store = TestStore(initialState: Settings.State(displayName: "Blob")) { Settings() }
    await store.send(.resetButtonTapped) {
      $0.destination = .confirmReset(.resetSettings)
    }
    await store.send(\.destination.dismiss) { $0.destination = nil }
    #expect(store.state.displayName == "Blob")
  }

  @Test func theConfirmationSaysWhatItDoes() {
    let dialog = ConfirmationDialogState<Settings.ResetConfirmation>.resetSettings
    #expect(dialog.title == TextState("Reset all settings?"))
    #expect(dialog.buttons.map(\.role) == [.destructive, .cancel])
    #expect(dialog.buttons.first?.action.action == .reset)
  }
}
