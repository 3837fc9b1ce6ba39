import AppFeature
import ArgumentParser
import ComposableArchitecture
import EpisodesFeature
import FactClient
import Foundation
import RandomNumberClient
import SearchFeature
import WeatherClient

/// The dependencies an executable hands to the front end: live clients built from options.
public typealias DependencyOverrides = @Sendable (inout DependencyValues) -> Void

/// Where live services are and how long to wait for them. Flags win over the environment
/// variables the live clients read (see docs/clients.md).
public struct ClientOptions: ParsableArguments, Sendable {
  @Flag(
    help: """
      Run without a network: places from an embedded gazetteer, forecasts estimated from a \
      climate model (labelled "offline estimate"), facts computed from the number, random \
      numbers from the system.
      """)
  public var offline = false

  @Option(help: ArgumentHelp("Base URL of the geocoding service.", valueName: "url"))
  public var geocodingURL: String?

  @Option(help: ArgumentHelp("Base URL of the forecast service.", valueName: "url"))
  public var forecastURL: String?

  @Option(help: ArgumentHelp("Base URL of the number-trivia service.", valueName: "url"))
  public var factURL: String?

  @Option(
    help: ArgumentHelp("Random numbers from 'system' (offline) or 'http'.", valueName: "source"))
  public var randomSource: String?

  @Option(help: ArgumentHelp("Base URL of the random-number service.", valueName: "url"))
  public var randomURL: String?

  @Option(help: ArgumentHelp("Timeout of each request, in seconds.", valueName: "seconds"))
  public var timeout: Double?

  @Option(
    help: ArgumentHelp(
      """
      The SQLite file favorites and settings are kept in (':memory:' keeps nothing). \
      Default: $APP_DATABASE, else $XDG_DATA_HOME/composable-app/app.sqlite \
      (~/.local/share/composable-app/app.sqlite).
      """,
      valueName: "path"))
  public var database: String?

  public init() {}
}

/// Builds the live dependencies from the options; provided by the executable, which is the only
/// place that links the live clients.
public typealias LiveDependencies = @Sendable (ClientOptions) throws -> DependencyOverrides

/// Opens the storage named by the `--database` option (nil when not given: the executable's
/// default) and returns the clients that keep data (favorites, settings); provided by the
/// executable. Only the interactive app calls it: one-shot commands keep nothing and create no
/// file.
public typealias StorageDependencies =
  @Sendable (_ databaseOption: String?) throws ->
  DependencyOverrides

/// The `app-cli` command line: the interactive app by default, and one-shot commands for scripts.
public enum TerminalApp {
  /// Parses `arguments`, runs the command and returns the process's exit status.
  ///
  /// - Parameters:
  ///   - liveDependencies: The clients that talk to the services, built from the options.
  ///   - offlineDependencies: The clients of `--offline`, which need no network (embedded data).
  ///   - storage: The clients that keep data, in the database at a path; offline or not, the
  ///     data is local. All three come from the executable: it is the only place that links
  ///     implementations.
  public static func main(
    arguments: [String], liveDependencies: @escaping LiveDependencies,
    offlineDependencies: @escaping DependencyOverrides,
    storage: @escaping StorageDependencies
  ) async -> Int32 {
    do {
      var command = try AppCLI.parseAsRoot(arguments)
      guard let runnable = command as? any FrontEndCommand else {
        try command.run()
        return 0
      }
      let options = runnable.clientOptions
      let clients = options.offline ? offlineDependencies : try liveDependencies(options)
      guard runnable.keepsData else {
        return try await runnable.execute(dependencies: clients)
      }
      let kept: DependencyOverrides
      do {
        kept = try storage(options.database)
      } catch {
        throw CommandFailure(message: error.localizedDescription)
      }
      return try await runnable.execute(dependencies: { values in
        clients(&values)
        kept(&values)
      })
    } catch let failure as CommandFailure {
      FileHandle.standardError.write(Data("app-cli: \(failure.message)\n".utf8))
      return 1
    } catch {
      let message = AppCLI.fullMessage(for: error)
      let code = AppCLI.exitCode(for: error).rawValue
      let handle = code == 0 ? FileHandle.standardOutput : FileHandle.standardError
      handle.write(Data((message.isEmpty ? "" : message + "\n").utf8))
      return code
    }
  }
}

extension FrontEndCommand {
  var keepsData: Bool { false }
}

/// A failure to report in one line and exit with status 1.
struct CommandFailure: Error {
  let message: String
}

/// A command that runs with the front end's dependencies.
protocol FrontEndCommand: ParsableCommand {
  var clientOptions: ClientOptions { get }
  /// Whether the command reads and writes kept data (favorites, settings).
  var keepsData: Bool { get }
  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32
}

struct AppCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-cli",
    abstract: "The Composable App in a terminal: counters, weather search, settings, episodes.",
    discussion: """
      Without a subcommand the app runs full screen (keys are shown at the bottom of each \
      screen; q or Ctrl-C quits). The subcommands run one request and print the result, as text \
      or, with --json, as JSON.
      """,
    subcommands: [
      Interactive.self, SearchCommand.self, ForecastCommand.self, FactCommand.self,
      RandomCommand.self,
    ],
    defaultSubcommand: Interactive.self
  )
}
