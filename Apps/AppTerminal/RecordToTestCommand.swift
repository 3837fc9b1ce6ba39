import AppFeature
import AppRecording
import ArgumentParser
import ComposableArchitecture
import ComposableRecording
import Foundation
import SessionTestWriter

/// `app-cli record-to-test FILE --output PATH`: writes a recorded session as a Swift Testing test
/// of `AppFeature` that compiles in a test target depending on the app's features and clients.
struct RecordToTestCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "record-to-test",
    abstract: "Write a recorded session (app-cli --record) as a TestStore test.",
    discussion: """
      The test starts from the recorded state, answers every dependency as it was answered in \
      the session, sends what the user did, receives what the effects sent and asserts every \
      change. It fails, naming the step, once the app behaves otherwise. A record that is \
      truncated, reordered, edited or of a newer version is refused, naming the line.
      """
  )

  @Argument(help: ArgumentHelp("The record file.", valueName: "file"))
  var record: String

  @Option(
    help: ArgumentHelp("Where to write the test ('-' for standard output).", valueName: "path"))
  var output: String

  @Option(help: "The test suite's name.")
  var suite = "RecordedSessionTests"

  @Option(help: "The test function's name.")
  var test = "recordedSession"

  func validate() throws {
    for (name, value) in [("--suite", suite), ("--test", test)] {
      guard let first = value.first, first.isLetter || first == "_",
        value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
      else {
        throw ValidationError("\(name) must be a Swift identifier, not \"\(value)\".")
      }
    }
  }

  func run() throws {
    let session: SessionRecord
    do {
      session = try RecordFile.read(contentsOf: record)
    } catch  where error.line == 0 {
      throw CommandFailure(message: "cannot read \(record): \(error)")
    } catch {
      throw CommandFailure(message: "\(record): \(error)")
    }
    guard session.feature == "AppFeature" else {
      throw CommandFailure(
        message: "\(record) records \(session.feature); app-cli writes tests of AppFeature")
    }
    let writer = SessionTestWriter(
      suiteName: suite, testName: test, testableImports: AppFeature.recorded.testImports(session),
      source: SessionTestWriter.source(
        recordFile: URL(fileURLWithPath: record).lastPathComponent, session))
    let source: String
    do {
      source = try writer.write(session)
    } catch {
      throw CommandFailure(message: "\(record): \(error.description)")
    }
    if output == "-" {
      FileHandle.standardOutput.write(Data(source.utf8))
      return
    }
    do {
      try Data(source.utf8).write(to: URL(fileURLWithPath: output))
    } catch {
      throw CommandFailure(message: "cannot write \(output): \(error.localizedDescription)")
    }
  }
}
