import ComposableArchitecture
import Foundation

/// Records a terminal session of the root feature into a record file: what `app-cli --record`
/// and Ctrl-R do. Only the root feature is recorded (the terminal's own key presses and
/// selections are not): a key the terminal turns into a root action counts as that action,
/// sent by the user.
///
/// Recording starts when the session starts if a file was named, else on the first Ctrl-R; the
/// next Ctrl-R (or quitting) stops it and writes the file, and the status line says so. Nothing
/// is written anywhere else; the file holds only the feature's states, its actions and what its
/// dependencies answered.
@MainActor
public final class TerminalRecorder<Root: Reducer & Sendable>
where Root.State: Equatable & Sendable, Root.Action: Sendable {
  let feature: RecordedFeature<Root.State, Root.Action>
  /// The file named on the command line, if any: recording starts with the session.
  public let file: URL?
  let limit: Int
  private var recording: SessionRecording<Root.State, Root.Action>?
  private var target: URL?

  public init(_ feature: RecordedFeature<Root.State, Root.Action>, file: URL?, limit: Int = 10_000)
  {
    self.feature = feature
    self.file = file
    self.limit = limit
  }

  public var isRecording: Bool { recording != nil }

  /// What Ctrl-R does now, for the help line.
  public var keyHelp: String { isRecording ? "Ctrl-R stop recording" : "Ctrl-R record" }
  /// What the status line last said about recording.
  public private(set) var lastStatus: String?

  /// Starts recording into `file`, or into a new `session-<date>.jsonl` in the current folder.
  func start(_ store: StoreOf<TerminalFeature<Root>>) {
    let target = file ?? Self.newFile()
    self.target = target
    recording = store.startRecording(
      state: \.app, action: \.app, limit: limit, dependencies: feature.recordClients)
    store.send(.statusChanged("● Recording to \(target.lastPathComponent) · Ctrl-R stops"))
  }

  /// Stops recording and writes the file; returns what the status line says.
  @discardableResult
  func stop(_ store: StoreOf<TerminalFeature<Root>>) -> String? {
    guard let recording, let target else { return nil }
    store.stopRecording()
    self.recording = nil
    let record = feature.record(recording)
    let status: String
    do {
      try Data(RecordFile.write(record).utf8).write(to: target)
      status =
        "Recording saved to \(target.path) (\(record.steps.count) steps)"
        + (record.isFull ? " — full: \(recording.fullMessage)" : "")
    } catch {
      status = "Recording not saved: \(error.localizedDescription)"
    }
    store.send(.statusChanged(status))
    lastStatus = status
    return status
  }

  func toggle(_ store: StoreOf<TerminalFeature<Root>>) {
    if isRecording { stop(store) } else { start(store) }
  }

  private static func newFile() -> URL {
    let formatter = DateFormatter()
    formatter.dateFormat = "yyyyMMdd-HHmmss"
    formatter.locale = Locale(identifier: "en_US_POSIX")
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
      .appendingPathComponent("session-\(formatter.string(from: Date())).jsonl")
  }
}
