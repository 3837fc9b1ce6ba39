import AppFeature
import AppRecording
import ArgumentParser
import ComposableArchitecture
import ComposableRecording
import Foundation

/// `app-cli replay FILE`: replays a recorded session against this build's reducers and says
/// whether every recorded state comes out again, or where the session now goes otherwise.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Check a recorded session (app-cli --record) against today's reducers.",
    discussion: """
      The session is replayed at full speed: the user's actions are sent again, every \
      dependency answers what it answered (recorded sleeps are advanced on a test clock), and \
      after each step the state is compared with the recorded one. Exit status: 0 when every \
      recorded state was reproduced, 1 when the session diverges (the first step that differs \
      is named, with the difference), 2 when the record is refused (truncated, reordered, \
      edited, of another version or feature).
      """
  )

  @Argument(help: ArgumentHelp("The record file.", valueName: "file"))
  var record: String

  func run() throws {
    throw CommandFailure(message: "replay runs through TerminalApp.main")
  }

  /// Replays the record and returns the exit status.
  @MainActor
  func execute() async -> Int32 {
    let session: SessionRecord
    do {
      session = try RecordFile.read(contentsOf: record)
    } catch  where error.line == 0 {
      standardError("app-cli: cannot read \(record): \(error)")
      return 2
    } catch {
      standardError("app-cli: \(record): \(error)")
      return 2
    }
    guard session.feature == AppFeature.recorded.name else {
      standardError(
        "app-cli: \(record) records \(session.feature); app-cli replays records of AppFeature")
      return 2
    }
    let report = await SessionReplay.replay(
      session, of: AppFeature.recorded, reducer: AppFeature())
    if report.isExact {
      FileHandle.standardOutput.write(Data("replay: \(report)\n".utf8))
      return 0
    }
    standardError("replay: \(report)")
    return 1
  }

  private func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }
}
