import ComposableArchitecture
import Testing

@MainActor
struct SettingsTests {
  /// The post's own test (the post "settings-bindings", lines 268-277), with these edits:
  /// - `.set(\\.$displayName, …)` / `.set(\\.$protectMyPosts, …)` → `.set(\.displayName, …)` /
  ///   `.set(\.protectMyPosts, …)` (TCA 1.x drops `$`; the doubled backslash is a blog artifact).
  /// - SYNTAX FIX (line 277): the second assertion closure ends with `)` instead of `}`.
  /// - `await` added before `store.send` (TCA 1.x's `TestStore` is async); `“Blob”` in the prose
  ///   (line 266) is the straight-quoted `"Blob"` of line 272.
  @Test func postsTestSetsDisplayNameAndProtectMyPosts() async {
    let store = TestStore(initialState: Settings.State()) {
      Settings()
    }

    await store.send(.set(\.displayName, "Blob")) {
      $0.displayName = "Blob"
    }
    await store.send(.set(\.protectMyPosts, true)) {
      $0.protectMyPosts = true
    }
  }

  @Test func notificationTogglesAreBound() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(.set(\.enableNotifications, true)) { $0.enableNotifications = true }
    await store.send(.set(\.sendEmailNotifications, true)) { $0.sendEmailNotifications = true }
    await store.send(.set(\.sendMobileNotifications, true)) { $0.sendMobileNotifications = true }
    await store.send(.set(\.enableNotifications, false)) { $0.enableNotifications = false }
  }

  @Test func digestIsBound() async {
    let store = TestStore(initialState: Settings.State()) { Settings() }
    await store.send(.set(\.digest, .weekly)) { $0.digest = .weekly }
    await store.send(.set(\.digest, .daily)) { $0.digest = .daily }
  }

  @Test func bindingPatternsMatchTheSeedsFields() {
    // The seed's `Reduce` switches on `case .binding(\.displayName)` and
    // `case .binding(\.enableNotifications)`: those patterns match their field, whatever the value.
    let action = Settings.Action.set(\.displayName, "Blob")
    guard case .binding(\.displayName) = action else {
      Issue.record("`.binding(\\.displayName)` did not match a display-name binding action")
      return
    }
    if case .binding(\.enableNotifications) = action {
      Issue.record("`.binding(\\.enableNotifications)` matched a display-name binding action")
    }
  }
}
