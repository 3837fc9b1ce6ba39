import AppConfiguration
import AppTerminal
import AppWeb
import Foundation
import LiveHTTP
import Logging
import WebFrontend

/// The composition root: the one module that links the live implementations and hands them to
/// the front ends. Both executables are one call into it.
///
/// ```swift
/// // Apps/app-cli/main.swift
/// import AppComposition
/// import Foundation
///
/// exit(await AppComposition.runTerminalApp())
/// ```
public enum AppComposition {
  /// The terminal app's clients (the gazetteer of `--offline` loads while the first screen is
  /// drawn) and its local profile's data (owner `local`, in `app.sqlite` unless told otherwise):
  /// favorites, settings, and the counters and tab of the last run.
  /// With `FAVORITE_FAILURE_RATE`, favorites are saved by the seed's simulated service instead,
  /// as the server's `--favorite-failure-rate` does.
  public static let terminal = TerminalComposition(
    clients: { settings, offline in
      try LiveClients.dependencies(settings: settings, offline: offline, gazetteer: .inBackground)
    },
    storage: { settings in
      let storage = try await OpenedStorage.open(
        settings, fileName: TerminalApp.defaultDatabaseFileName, logger: Logger(label: "app-cli"))
      let clients = storage.clients(owner: "local")
      let keptApp = storage.keptApp(owner: "local")
      let failureRate = try settings.favoriteFailureRate()
      return { values in
        clients(&values)
        values.keptApp = keptApp
        if let failureRate { values.favoriteClient = .simulated(failureRate: failureRate) }
      }
    },
    hint: { failure in
      guard let failure = failure as? HTTPServiceError else { return nil }
      switch failure.cause {
      case .unreachable, .timedOut:
        return "Without a network, add --offline: places, forecasts and facts from built-in data."
      default:
        return nil
      }
    })

  /// The server's clients (the gazetteer of `--offline` loads before it listens) and its
  /// visitors' data and sessions (in `app-server.sqlite` unless told otherwise).
  public static let server = ServerComposition(
    app: .app,
    clients: { settings, offline in
      try LiveClients.dependencies(settings: settings, offline: offline, gazetteer: .now)
    },
    openStorage: { settings, logger in
      let storage = try await OpenedStorage.open(
        settings, fileName: ServerCommand.defaultFileName, logger: logger
      )
      .serverStorage
      return try storage.simulatingFavorites(failureRate: settings.favoriteFailureRate())
    })

  /// Runs `app-cli` with the process's arguments and returns its exit status.
  public static func runTerminalApp(
    arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) async -> Int32 {
    keepRunningWhenAFileIsTooLarge()
    return await TerminalApp.main(arguments: arguments, composition: terminal)
  }

  /// Runs `app-server` with the process's arguments until it is stopped, and returns its exit
  /// status.
  public static func runServer(
    arguments: [String] = Array(CommandLine.arguments.dropFirst())
  ) async -> Int32 {
    keepRunningWhenAFileIsTooLarge()
    return await ServerCommand.main(arguments: arguments, composition: server)
  }

  /// A write past the process's file-size limit (`ulimit -f`, RLIMIT_FSIZE) sends SIGXFSZ, which
  /// ends the process unless ignored; ignored, the write fails with EFBIG instead, the database
  /// reports it, and the app says the change was not saved — a server serving other visitors
  /// must not die because one file cannot grow.
  static func keepRunningWhenAFileIsTooLarge() {
    signal(SIGXFSZ, SIG_IGN)
  }
}
