// settings-preview: the settings form alone, full screen, as the app's Settings tab shows it,
// kept in memory for as long as it runs. It links the feature, its terminal screen and the
// settings client's interface only: no server, no storage.
import ComposableArchitecture
import Foundation
import SettingsClient
import SettingsFeature
import SettingsTerminal
import TerminalFrontend

exit(
  await TerminalPreview.main(
    "settings-preview", Settings(),
    registration: .single(.screen(SettingsScreen.self), title: "Settings", start: .task),
    dependencies: { $0.settingsClient = .inMemory() },
    initialState: { Settings.State() }))
