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
      let store = await makeStore(dependencies)
      var view = ViewState()
      view.isOffline = clientOptions.offline
      let screen = await ScreenRenderer.render(store.state, view: view, style: .plain)
      Output.line(screen)
      throw CommandFailure(
        message: "interactive mode needs a terminal; for scripts use a subcommand (see --help)")
    }
    await InteractiveSession.run(store: makeStore(dependencies), isOffline: clientOptions.offline)
    return 0
  }

  @MainActor
  private func makeStore(_ dependencies: @escaping DependencyOverrides) -> StoreOf<AppFeature> {
    Store(initialState: AppFeature.State()) {
      AppFeature()
    } withDependencies: {
      dependencies(&$0)
    }
  }
}
