import ComposableArchitecture
import ComposableRecording
import Foundation

#if canImport(Glibc)
  import Glibc
#endif

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

  /// Sends a user's key or request: while recording, as a step a test clock would order the same
  /// way (`SessionRecording.userStep`: it may wait for an effect a sleep just woke).
  public func userStep(_ send: () -> Void) async {
    if let recording {
      await recording.userStep(send)
    } else {
      send()
    }
  }

  /// What Ctrl-R does now, for the help line.
  public var keyHelp: String { isRecording ? "Ctrl-R stop recording" : "Ctrl-R record" }
  /// What the status line last said about recording.
  public private(set) var lastStatus: String?

  /// Makes sure a record can be written to `file` before a session is recorded into it, so that
  /// a recording is never lost at the end for a path that could not take it: creates it (empty,
  /// readable by its owner only) when it does not exist, and checks that an existing one is a
  /// file that can be written. Throws the reason, naming the path.
  nonisolated public static func prepare(_ file: URL) throws(RecordTargetError) {
    let path = file.path
    var isFolder: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue {
      throw RecordTargetError(path: path, reason: "it is a folder")
    }
    let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600)
    guard descriptor >= 0 else {
      throw RecordTargetError(path: path, reason: String(cString: strerror(errno)))
    }
    close(descriptor)
  }

  /// Writes a record to `file`, readable by its owner only (it holds what was typed and what
  /// the services answered).
  nonisolated static func write(_ text: String, to file: URL) throws {
    try Data(text.utf8).write(to: file)
    try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file.path)
  }

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
      try Self.write(RecordFile.write(record), to: target)
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

/// Why a session cannot be recorded to a file.
public struct RecordTargetError: Error, Equatable, CustomStringConvertible {
  public var path: String
  public var reason: String
  public var description: String { "cannot record to \(path): \(reason)" }
}
