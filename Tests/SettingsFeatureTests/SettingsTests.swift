import ComposableArchitecture
import Foundation
import SettingsClient
import SettingsFeature
import Testing

/// A store whose saves are kept in `saves`, in order.
@MainActor
private func makeStore(
  _ state: Settings.State = Settings.State(), saves: LockIsolated<[StoredSettings]> = .init([])
) -> TestStoreOf<Settings> {
  TestStore(initialState: state) {
    Settings()
  } withDependencies: {
    $0.settingsClient.save = { settings in saves.withValue { $0.append(settings) } }
  }
}

@MainActor
struct SettingsTests {
  @Test func bindingsWriteEveryFieldAndEachChangeIsSaved() async {
    let saves = LockIsolated<[StoredSettings]>([])
    let store = makeStore(saves: saves)
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
    await store.finish()
    #expect(saves.value.map(\.digest) == ["weekly", "weekly", "weekly", "weekly", "weekly"])
    #expect(saves.value.last == store.state.stored)
    #expect(
      saves.value.last
        == StoredSettings(
          digest: "weekly", displayName: "Blob", enableNotifications: false,
          isHapticFeedbackEnabled: false, protectMyPosts: true, sendEmailNotifications: false,
          sendMobileNotifications: false, temperatureUnit: "fahrenheit"))
  }

  @Test func theSeedsOwnTest() async {
    let store = makeStore()
    await store.send(.set(\.displayName, "Blob")) {
      $0.displayName = "Blob"
      $0.$publicName.withLock { $0 = "Blob" }  // added: the shared name follows
    }
    await store.send(.set(\.protectMyPosts, true)) { $0.protectMyPosts = true }
  }

  @Test func displayNameIsCappedAndExplained() async {
    let store = makeStore()
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
    let store = makeStore()
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
    let store = makeStore()
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
    let saves = LockIsolated<[StoredSettings]>([])
    let store = makeStore(saves: saves)
    await store.send(\.binding.sendEmailNotifications, true)
    #expect(saves.value.isEmpty, "nothing kept changed, so nothing is saved")
  }

  @Test func resetRestoresTheDefaults() async {
    let store = makeStore(
      Settings.State(
        digest: .off, displayName: "Blob", enableNotifications: true, protectMyPosts: true,
        sendEmailNotifications: true, temperatureUnit: .fahrenheit))
    await store.send(.resetButtonTapped) {
      $0.destination = .confirmReset(.resetSettings)
    }
    await store.send(\.destination.confirmReset.reset) { $0 = Settings.State() }
  }

  @Test func resetKeepsTheSharedNameAndClearsIt() async {
    let name = Shared(value: "Blob")
    let store = makeStore(Settings.State(displayName: "Blob", publicName: name))
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
    let store = makeStore(Settings.State(displayName: "Blob"))
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

  // MARK: Keeping the values

  @Test func theTaskLoadsTheKeptValuesThroughTheFormsRules() async {
    let saves = LockIsolated<[StoredSettings]>([])
    let store = makeStore(saves: saves)
    store.dependencies.settingsClient.load = {
      StoredSettings(
        digest: "hourly",  // not a choice this version knows: the default stays
        displayName: "  Ada\u{7}  Lovelace", enableNotifications: false,
        isHapticFeedbackEnabled: false, protectMyPosts: true,
        sendEmailNotifications: true,  // a channel cannot be on while notifications are off
        temperatureUnit: "fahrenheit")
    }
    await store.send(.task) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) {
      $0.isLoading = false
      $0.displayName = "Ada Lovelace"
      $0.$publicName.withLock { $0 = "Ada Lovelace" }
      $0.displayNameError = "Display names can't contain control characters."
      $0.isHapticFeedbackEnabled = false
      $0.protectMyPosts = true
      $0.temperatureUnit = .fahrenheit
    }
    #expect(saves.value.isEmpty, "loaded values are not saved back")
  }

  @Test func nothingKeptLeavesTheDefaults() async {
    let store = makeStore()
    store.dependencies.settingsClient.load = { StoredSettings() }
    await store.send(.task) { $0.isLoading = true }
    await store.receive(\.loadResponse.success) { $0.isLoading = false }
  }

  @Test func aFailedLoadIsShownAndTheFormStillWorks() async {
    let store = makeStore()
    store.dependencies.settingsClient.load = { throw StorageDown() }
    await store.send(.task) { $0.isLoading = true }
    await store.receive(\.loadResponse.failure) {
      $0.isLoading = false
      $0.storageError = "Settings could not be loaded (the database is down)."
    }
    // The form keeps working, and a save that succeeds clears the error.
    await store.send(\.binding.protectMyPosts, true) { $0.protectMyPosts = true }
    await store.receive(\.saveResponse) { $0.storageError = nil }
  }

  @Test func aFailedSaveIsShownTheValueStaysAndTheNextSaveClearsTheError() async {
    let failing = LockIsolated(true)
    let saves = LockIsolated<[StoredSettings]>([])
    let store = makeStore()
    store.dependencies.settingsClient.save = { settings in
      if failing.value { throw StorageDown() }
      saves.withValue { $0.append(settings) }
    }
    await store.send(\.binding.protectMyPosts, true) { $0.protectMyPosts = true }
    await store.receive(\.saveResponse) {
      $0.storageError =
        "Settings could not be saved (the database is down); they are kept until the app quits."
    }
    failing.setValue(false)
    await store.send(\.binding.digest, .weekly) { $0.digest = .weekly }
    await store.receive(\.saveResponse) { $0.storageError = nil }
    #expect(saves.value.map(\.protectMyPosts) == [true], "the retry saved every value")
  }

  @Test func aNewerSaveCancelsAnOlderOneStillInFlight() async {
    let clock = TestClock()
    let saves = LockIsolated<[StoredSettings]>([])
    let store = makeStore()
    store.dependencies.settingsClient.save = { settings in
      try await clock.sleep(for: .seconds(1))
      saves.withValue { $0.append(settings) }
    }
    await store.send(\.binding.digest, .weekly) { $0.digest = .weekly }
    await store.send(\.binding.digest, .off) { $0.digest = .off }
    await clock.advance(by: .seconds(1))
    await store.finish()
    #expect(saves.value.map(\.digest) == ["off"])
  }

  @Test func resetSavesTheDefaults() async {
    let saves = LockIsolated<[StoredSettings]>([])
    let store = makeStore(Settings.State(digest: .off, displayName: "Blob"), saves: saves)
    await store.send(.resetButtonTapped) { $0.destination = .confirmReset(.resetSettings) }
    await store.send(\.destination.confirmReset.reset) {
      $0 = Settings.State()
    }
    await store.finish()
    #expect(saves.value == [Settings.State().stored])
  }
}

private struct StorageDown: LocalizedError {
  var errorDescription: String? { "the database is down" }
}
