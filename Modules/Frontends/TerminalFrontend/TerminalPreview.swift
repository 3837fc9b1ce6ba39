import ComposableArchitecture
import Foundation

/// Runs one root feature full screen, for a feature's preview executable: the feature's own
/// screen, the same one the app shows as a tab, on the dependencies the preview hands it (offline
/// or in-memory clients).
///
/// ```swift
/// // Apps/Previews/counter-preview/main.swift
/// exit(
///   await TerminalPreview.main(
///     "counter-preview", CounterList(), registration: .single(.screen(CounterListScreen.self),
///     title: "Counters")
///   ) { $0.factClient = .offline() } initialState: { CounterList.State() })
/// ```
///
/// Without a terminal (output to a pipe or a file) it prints the first screen as plain text and
/// exits with status 1, as `app-cli` does; `--help` prints what it runs and the keys that quit.
public enum TerminalPreview {
  /// Parses `arguments`, runs the preview and returns the process's exit status: 0 after the
  /// user quits, 1 without a terminal, 64 for an unknown argument.
  @MainActor
  public static func main<Root: Reducer & Sendable>(
    _ name: String,
    _ root: Root,
    registration: TerminalRegistration<Root>,
    arguments: [String] = Array(CommandLine.arguments.dropFirst()),
    dependencies: @escaping DependencyOverrides,
    initialState: () -> Root.State
  ) async -> Int32 where Root.State: Equatable & Sendable, Root.Action: Sendable {
    let title = registration.tabs.map(\.title).joined(separator: ", ")
    switch arguments {
    case [], ["--offline"]:
      // A preview is always offline; `--offline`, which every other executable takes, is
      // accepted and changes nothing.
      break
    case ["-h"], ["--help"]:
      Self.write(
        """
        OVERVIEW: \(title) on its own, full screen, on offline or in-memory clients: the screen \
        the app shows as a tab, without the rest of the app.

        USAGE: \(name) [--offline]

        A preview never uses the network: --offline is accepted and changes nothing. Keys are shown at the bottom of the screen; q or Ctrl-C quits. Without a terminal the \
        first screen is printed as text.

        """, to: .standardOutput)
      return 0
    default:
      Self.write(
        "\(name): unknown argument '\(arguments[0].prefix(64))' (try --help)\n",
        to: .standardError)
      return 64
    }
    let state = withDependencies(dependencies) {
      TerminalFeature<Root>.State(app: initialState(), isOffline: true)
    }
    guard Terminal.isInteractive else {
      Self.write(
        ScreenRenderer.render(state, registration: registration, style: .plain) + "\n",
        to: .standardOutput)
      Self.write("\(name): a preview needs a terminal\n", to: .standardError)
      return 1
    }
    let store = Store(initialState: state) {
      TerminalFeature(root, registration: registration)
    } withDependencies: {
      dependencies(&$0)
    }
    await InteractiveSession.run(store: store, registration: registration)
    return 0
  }

  private static func write(_ text: String, to handle: FileHandle) {
    handle.write(Data(text.utf8))
  }
}
