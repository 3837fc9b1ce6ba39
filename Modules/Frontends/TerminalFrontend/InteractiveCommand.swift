import AppConfiguration
import AppFeature
import ArgumentParser
import ComposableArchitecture
import Foundation

struct Interactive: FrontEndCommand {
  static let configuration = CommandConfiguration(
    commandName: "interactive",
    abstract: "Run the app full screen (the default)."
  )

  @OptionGroup var clientOptions: ClientOptions

  var keepsData: Bool { Terminal.isInteractive }

  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32 {
    guard Terminal.isInteractive else {
      // Not a terminal: show the first screen as plain text, and say what to do instead.
      Output.line(await firstScreen(dependencies))
      throw CommandFailure(
        message: "interactive mode needs a terminal; for scripts use a subcommand (see --help)")
    }
    await InteractiveSession.run(store: makeStore(dependencies))
    return 0
  }

  @MainActor
  private func firstScreen(_ dependencies: @escaping DependencyOverrides) -> String {
    ScreenRenderer.render(makeStore(dependencies).state, style: .plain)
  }

  @MainActor
  private func makeStore(_ dependencies: @escaping DependencyOverrides) -> StoreOf<TerminalFeature>
  {
    Store(initialState: TerminalFeature.State(isOffline: clientOptions.offline)) {
      TerminalFeature()
    } withDependencies: {
      dependencies(&$0)
    }
  }
}
