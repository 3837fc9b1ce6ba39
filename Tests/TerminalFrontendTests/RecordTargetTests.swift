import AppFeature
import ComposableRecording
import Foundation
import Testing

@testable import TerminalFrontend

/// `app-cli --record FILE` checks the file before the session starts: a recording is never lost
/// at the end for a path that could not take it, and what it writes only its owner reads.
struct RecordTargetTests {
  let folder: URL = {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("record-target-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }()

  func refusal(_ file: URL) -> String? {
    do {
      try TerminalRecorder<AppFeature>.prepare(file)
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aPathThatCannotBeWrittenIsRefusedNamingIt() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let inMissingFolder = folder.appendingPathComponent("no-such-folder/session.jsonl")
    #expect(
      refusal(inMissingFolder)
        == "cannot record to \(inMissingFolder.path): No such file or directory")
    #expect(refusal(folder) == "cannot record to \(folder.path): it is a folder")
    // A file in a folder nobody may write to (root may write anywhere, so a file's own mode
    // is what this checks when the tests run as root).
    let locked = folder.appendingPathComponent("locked.jsonl")
    FileManager.default.createFile(
      atPath: locked.path, contents: Data(), attributes: [.posixPermissions: 0o400])
    if getuid() != 0 {
      #expect(refusal(locked) == "cannot record to \(locked.path): Permission denied")
    }
  }

  @Test func aNewRecordFileIsCreatedReadableByItsOwnerOnlyAndKeptSo() throws {
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("session.jsonl")
    #expect(refusal(file) == nil)
    func mode() throws -> Int {
      try #require(
        FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int)
    }
    #expect(try mode() == 0o600)
    // An existing file of another mode is written 0600 too.
    try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: file.path)
    try TerminalRecorder<AppFeature>.write("{}\n", to: file)
    #expect(try mode() == 0o600)
    #expect(try String(contentsOf: file, encoding: .utf8) == "{}\n")
  }
}
