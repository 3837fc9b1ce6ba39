import AppConfiguration
import ArgumentParser
import ComposableArchitecture
import Foundation

/// What the executable hands to the terminal app: the only place that links implementations.
public struct TerminalComposition: Sendable {
  /// The clients of the services: live ones configured by `settings`, or, when `offline`, the
  /// ones over embedded data.
  public var clients:
    @Sendable (_ configuration: ConfigurationReader, _ offline: Bool) throws -> DependencyOverrides
  /// Opens where favorites and settings are kept and returns their clients. Only the
  /// interactive app calls it: one-shot commands keep nothing and create no file.
  public var storage:
    @Sendable (_ configuration: ConfigurationReader) async throws -> DependencyOverrides
  /// What to add to a client's failure a command reports, if anything: a service that cannot be
  /// reached suggests `--offline`.
  public var hint: @Sendable (_ failure: any Error) -> String?

  public init(
    clients: @escaping @Sendable (ConfigurationReader, Bool) throws -> DependencyOverrides,
    storage: @escaping @Sendable (ConfigurationReader) async throws -> DependencyOverrides,
    hint: @escaping @Sendable (any Error) -> String? = { _ in nil }
  ) {
    self.clients = clients
    self.storage = storage
    self.hint = hint
  }
}

/// The `app-cli` command line: the interactive app by default, and one-shot commands for scripts.
public enum TerminalApp {
  /// The SQLite file the interactive app keeps its data in, in the user's data folder, unless
  /// `--database`/`APP_DATABASE` names another.
  public static let defaultDatabaseFileName = "app.sqlite"

  /// Parses `arguments`, runs the command and returns the process's exit status: 0, 1 when the
  /// command failed, 64 for a bad flag or variable.
  public static func main(arguments: [String], composition: TerminalComposition) async -> Int32 {
    do {
      var command = try AppCLI.parse(arguments)
      if let replay = command as? ReplayCommand {
        return await replay.execute()
      }
      guard let runnable = command as? any FrontEndCommand else {
        try command.run()
        return 0
      }
      let options = runnable.clientOptions
      let settings = ConfigurationReader(flags: options.flagValues + runnable.storageFlags)
      let clients = try composition.clients(settings, options.offline)
      guard runnable.keepsData else {
        return try await runnable.execute(dependencies: clients)
      }
      let kept: DependencyOverrides
      do {
        kept = try await composition.storage(settings)
      } catch let error as any ConfigurationProblem {
        throw error
      } catch {
        throw CommandFailure(message: error.localizedDescription)
      }
      return try await runnable.execute(dependencies: { values in
        clients(&values)
        kept(&values)
      })
    } catch let failure as CommandFailure {
      let hint = failure.cause.flatMap(composition.hint).map { "\n\($0)" } ?? ""
      FileHandle.standardError.write(Data("app-cli: \(failure.message)\(hint)\n".utf8))
      return 1
    } catch let error as any ConfigurationProblem {
      FileHandle.standardError.write(Data("app-cli: \(error.localizedDescription)\n".utf8))
      return ExitCode.validationFailure.rawValue
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
  var storageFlags: [FlagValue] { [] }
}

/// A failure to report in one line and exit with status 1.
struct CommandFailure: Error {
  let message: String
  /// The client's error behind the message, for the composition's hint.
  var cause: (any Error)?
}

/// A command that runs with the front end's dependencies.
protocol FrontEndCommand: ParsableCommand {
  var clientOptions: ClientOptions { get }
  /// Whether the command reads and writes kept data (favorites, settings).
  var keepsData: Bool { get }
  /// The flags of where that data is kept (none for commands that keep nothing).
  var storageFlags: [FlagValue] { get }
  func execute(dependencies: @escaping DependencyOverrides) async throws -> Int32
}

struct AppCLI: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "app-cli",
    abstract: "The Composable App in a terminal: counters, weather search, settings, episodes.",
    discussion: """
      Without a subcommand the app runs full screen (keys are shown at the bottom of each \
      screen; q or Ctrl-C quits); `app-cli --offline` runs it without a network, on built-in \
      data, and `app-cli help interactive` lists its options. The subcommands run one request \
      and print the result, as text or, with --json, as JSON; each takes --offline too. \
      `app-cli --record FILE` records the session (Ctrl-R starts and stops recording); \
      `app-cli record-to-test FILE --output PATH` writes a recording as a test, and \
      `app-cli replay FILE` checks it against today's reducers.
      """,
    version: AppVersion.current,
    subcommands: [
      Interactive.self, SearchCommand.self, ForecastCommand.self, FactCommand.self,
      RandomCommand.self, RecordToTestCommand.self, ReplayCommand.self,
    ],
    defaultSubcommand: Interactive.self
  )

  /// Parses a command line, taking options before the subcommand as git and swift do:
  /// `app-cli --offline search seo` is `app-cli search seo --offline`. (Without a subcommand
  /// the options are the interactive app's; a line that parses as it is stays as it is.)
  static func parse(_ arguments: [String]) throws -> any ParsableCommand {
    do {
      return try parseAsRoot(arguments)
    } catch {
      guard let moved = subcommandFirst(arguments), let command = try? parseAsRoot(moved) else {
        throw error
      }
      return command
    }
  }

  /// `arguments` with the first subcommand name moved in front of the options before it, or
  /// `nil` when they do not start with an option followed, later, by a subcommand.
  static func subcommandFirst(_ arguments: [String]) -> [String]? {
    let names = Set(configuration.subcommands.map { $0._commandName } + ["help"])
    guard arguments.first?.hasPrefix("-") == true,
      let index = arguments.firstIndex(where: { names.contains($0) })
    else { return nil }
    return [arguments[index]] + arguments[..<index] + arguments[(index + 1)...]
  }
}
