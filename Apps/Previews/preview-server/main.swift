// preview-server: one feature's section of the web page, alone, served by the same web front end
// and adapters as app-server, on offline and in-memory clients: nothing is saved and no service
// is called. It links the web front end, the features with their web adapters and those
// clients: no database driver (GRDB, PostgresNIO) and none of the app's composition. The features
// it can show (`PreviewedFeature.swift`) are derived from the features table.
//
//   swift run preview-server --feature counter     # then open the printed address
import ArgumentParser
import ComposableArchitecture
import FactClient
import FactClientOffline
import FavoriteClient
import Foundation
import Logging
import RandomNumberClient
import SettingsClient
import WeatherClient
import WeatherClientOffline
import WebFrontend
import WebRoutes

struct PreviewServer: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "preview-server",
    abstract: "Serves one feature's section of the web page alone, on offline clients.",
    discussion: """
      The page, its modules and the routes are app-server's; the session runs the feature's own \
      reducer. Favorites and settings live in the session; nothing is written to disk.
      """)

  @Option(help: "The feature to show.")
  var feature: PreviewedFeature

  @Option(help: "The address to listen on.")
  var host = "127.0.0.1"

  @Option(help: "The port to listen on; 0 picks a free one.")
  var port = 8080

  @Option(
    name: .customLong("favorite-failure-rate"),
    help: "How often the simulated favorites service fails, 0...1 (Episodes).")
  var favoriteFailureRate: Double?

  func validate() throws {
    guard (0...65_535).contains(port) else { throw ValidationError("--port must be in 0...65535") }
    if let rate = favoriteFailureRate, !(0...1).contains(rate) {
      throw ValidationError("--favorite-failure-rate must be between 0 and 1")
    }
  }

  func run() async throws {
    LoggingSystem.bootstrap { label in
      var handler = StreamLogHandler.standardError(label: label)
      handler.logLevel = .notice
      return handler
    }
    let app = feature.app
    let failureRate = favoriteFailureRate
    try await WebServer(
      app: app, configuration: .init(host: host, port: port),
      logger: Logger(label: "preview-server"), metrics: ServerMetrics(page: app.page),
      savedSessions: .inMemory()
    ) {
      // Made for each session: its favorites and settings live as long as it does.
      $0.weatherClient = .offline()
      $0.factClient = .offline()
      $0.randomNumberClient = .previewValue
      $0.favoriteClient = failureRate.map { .simulated(failureRate: $0) } ?? .inMemory()
      $0.settingsClient = .inMemory()
    }
    .run { url in
      FileHandle.standardOutput.write(
        Data("preview-server: \(feature.rawValue) on \(url)\n".utf8))
    }
  }
}

// Parsed and run here rather than by `AsyncParsableCommand.main()`, which on Linux asks for an
// availability annotation that a package without Apple platforms cannot give.
do {
  var command = try PreviewServer.parseAsRoot()
  if let server = command as? PreviewServer {
    try await server.run()
  } else {
    try command.run()  // --help, --version: ArgumentParser's own commands
  }
} catch {
  PreviewServer.exit(withError: error)
}
