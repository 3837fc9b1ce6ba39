import AppConfiguration
import AppFeature
import AppRecording
import ArgumentParser
import ComposableArchitecture
import Foundation
import TerminalFrontend

struct Interactive: FrontEndCommand, StorageOwner {
  static var defaultFileName: String { TerminalApp.defaultDatabaseFileName }

  static let configuration = CommandConfiguration(
    commandName: "interactive",
    abstract: "Run the app full screen (the default)."
  )

  @OptionGroup var clientOptions: ClientOptions
  @OptionGroup var storageOptions: StorageOptions<Interactive>

  @Option(
    name: .customLong("record"),
    help: ArgumentHelp(
      "Record the session into a file (JSON Lines) from the start; Ctrl-R stops and starts"
        + " recording (without this option, Ctrl-R records into session-<date>.jsonl).",
      valueName: "file"))
  var recordFile: String?

  @Option(
    name: .customLong("favorite-failure-rate"),
    help: ArgumentHelp(
      "A demonstration: favorites are saved by the seed's simulated service (a second's wait,"
        + " failing this often, 0...1, kept for the session only) instead of the database, with"
        + " --offline too. [env: FAVORITE_FAILURE_RATE]",
      valueName: "rate"))
  var favoriteFailureRate: String?

  var storageFlags: [FlagValue] {
    storageOptions.flagValues
      + [
        favoriteFailureRate.map {
          FlagValue(
            flag: "--favorite-failure-rate", variables: ["FAVORITE_FAILURE_RATE"], value: $0)
        }
      ].compactMap { $0 }
  }

  /// A bad failure rate (flag or variable) is refused at start, with a terminal or without; a
  /// record file that cannot be written is refused before the session starts, not found out
  /// when it ends (and the recording lost).
  func validate() throws {
    do {
      _ = try ConfigurationReader(flags: storageFlags).favoriteFailureRate()
    } catch {
      throw ValidationError(error.localizedDescription)
    }
    guard let recordFile else { return }
    do {
      try TerminalRecorder<AppFeature>.prepare(URL(fileURLWithPath: recordFile))
    } catch {
      throw ValidationError(error.description)
    }
  }

  var keepsData: Bool { Terminal.isInteractive }

  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32 {
    guard Terminal.isInteractive else {
      // Not a terminal: show the first screen as plain text, and say what to do instead.
      Output.line(await firstScreen())
      throw CommandFailure(
        message: "interactive mode needs a terminal; for scripts use a subcommand (see --help)")
    }
    if let status = await runSession(dependencies) { Output.line(status) }
    return 0
  }

  /// Runs the app full screen, from the counters and tab the last run kept, keeping them as
  /// they change; returns what it last said about recording.
  @MainActor
  private func runSession(_ dependencies: @escaping DependencyOverrides) async -> String? {
    let recorder = TerminalRecorder<AppFeature>(
      AppFeature.recorded, file: recordFile.map { URL(fileURLWithPath: $0) })
    let store = makeStore(dependencies)
    let kept = withDependencies(dependencies) { DependencyValues._current.keptApp }
    let keeper = await AppKeeper.start(store, kept: kept)
    await InteractiveSession.run(store: store, registration: .app, recorder: recorder)
    await keeper?.finish(store)
    return recorder.lastStatus
  }

  /// The first screen drawn from the initial state alone: no store is made, so nothing reads
  /// the kept data (which is not opened without a terminal).
  @MainActor
  private func firstScreen() -> String {
    ScreenRenderer.render(
      AppTerminalFeature.State(app: AppFeature.State(), isOffline: clientOptions.offline),
      registration: .app, style: .plain)
  }

  @MainActor
  private func makeStore(_ dependencies: @escaping DependencyOverrides)
    -> StoreOf<AppTerminalFeature>
  {
    Store(
      initialState: withDependencies(dependencies) {
        AppTerminalFeature.State(app: AppFeature.State(), isOffline: clientOptions.offline)
      }
    ) {
      AppTerminalFeature(AppFeature(), registration: .app)
    } withDependencies: {
      dependencies(&$0)
    }
  }
}
