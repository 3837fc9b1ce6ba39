// Seed: the post "settings-bindings" — the `Settings` reducer in the final form the post
// builds up to ("개선된 Binding"): State from lines 189-198, Action from lines 211-219, body from
// lines 246-260 (which extends the `BindingReducer()` body of lines 225-232). The earlier,
// hand-written versions (lines 28-73 and 111-181) are the "before" the post improves on.
//
// Edits relative to the seed:
// - SwiftUI views removed (`SettingsView` lines 79-97, the `TextField` line 240,
//   `NotificationSettingsView` and its `@BindingViewState` view state, lines 285-351).
// - `@BindingState var …` → plain `var …`, with `@ObservableState` added on `State`: the TCA 1.7
//   migration for `@BindingState` (observable state makes every field bindable).
// - `case .binding(\\.$displayName)` / `case .binding(\\.$enableNotifications)` →
//   `case .binding(\.displayName)` / `case .binding(\.enableNotifications)`: TCA 1.x's `\.$field`
//   → `\.field`, and the doubled backslash is a blog artifact.
// - SYNTAX FIX (line 250): `switch action` → `switch action {` (the blog drops the brace).
// - Fragment completion: the two cases of lines 251-255 hold only comments ("// Validate display
//   name", "// Return an authorization request effect"), which Swift rejects as empty case bodies
//   of a closure that must return an `Effect`; each gets `return .none` after its comment, and the
//   omitted rest ("// ...", line 257) becomes `case .binding: return .none`, the only other action.
// - ADDED (not in the seed): `enum Digest`, which the seed's `var digest = Digest.daily` uses but
//   never shows; the smallest enum with a `daily` case.
// - `struct State: Equatable { /* ... */ }` / `enum Action: BindableAction { /* ... */ }`
//   placeholders replaced by the declarations they stand for.

import ComposableArchitecture

struct Settings: Reducer {
  @ObservableState
  struct State: Equatable {
    var digest = Digest.daily
    var displayName = ""
    var enableNotifications = false
    var isLoading = false
    var protectMyPosts = false
    var sendEmailNotifications = false
    var sendMobileNotifications = false
  }

  enum Action: BindableAction {
    case binding(BindingAction<State>)
  }

  var body: some Reducer<State, Action> {
    BindingReducer()

    Reduce { state, action in
      switch action {
      case .binding(\.displayName):
        // Validate display name
        return .none

      case .binding(\.enableNotifications):
        // Return an authorization request effect
        return .none

      // ...
      case .binding:
        return .none
      }
    }
  }
}

/// ADDED: referenced by the seed (`var digest = Digest.daily`) but not shown in it.
enum Digest {
  case daily
  case weekly
}
