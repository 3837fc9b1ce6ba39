import AppFeature
import AppRecording
import ComposableArchitecture
import ComposableRecording
import CounterFeature
import FactClient
import FavoriteClient
import Foundation
import RandomNumberClient
import SearchFeature
import SessionTestWriter
import SettingsClient
import SettingsFeature
import Testing
import WeatherClient

/// A store of the app on in-memory clients and an immediate clock.
@MainActor
func appStore() -> StoreOf<AppFeature> {
  Store(initialState: AppFeature.State()) {
    AppFeature()
  } withDependencies: {
    $0.uuid = .incrementing
    $0.continuousClock = ImmediateClock()
    $0.factClient = .mock
    $0.randomNumberClient = .constant(7)
    $0.weatherClient = .previewValue
    $0.favoriteClient = .inMemory()
    $0.settingsClient = .inMemory()
  }
}

/// A short session of the app, recorded: the app's start, a counter's increment, fact and random
/// number, a counter added, a name typed, a search.
@MainActor
func recordedSession(limit: Int = 10_000) async -> SessionRecording<
  AppFeature.State, AppFeature.Action
> {
  let store = appStore()
  let recording = store.startRecording(limit: limit, dependencies: AppFeature.recordClients)
  let counter = store.counterList.counters[0].id
  func counterAction(_ action: Counter.Action) -> AppFeature.Action {
    .counterList(.counters(.element(id: counter, action: action)))
  }
  await store.send(.task).finish()
  store.send(counterAction(.incrementButtonTapped))
  await store.send(counterAction(.factButtonTapped)).finish()
  await store.send(counterAction(.randomNumberButtonTapped)).finish()
  store.send(.counterList(.addCounterButtonTapped))
  store.send(.settings(.binding(.set(\.displayName, "Ann"))))
  await store.send(.search(.searchQueryChanged("Bro"))).finish()
  store.stopRecording()
  return recording
}

extension SessionRecording {
  /// The record of the app's session as the terminal writes it.
  var appRecord: SessionRecord {
    record(feature: "AppFeature", initialState: "AppFeature.State()")
  }
}

@MainActor
@Suite struct RecordingSessionTests {
  @Test func stepsKeepTheirOrderWhoSentThemAndTheSessionsTime() async throws {
    let recording = await recordedSession()
    let steps = recording.steps.map { step in
      "\(step.origin.rawValue) \(String(describing: step.action).prefix(40)) @\(step.time)"
    }
    #expect(recording.steps.count == 15)
    #expect(
      recording.steps.map(\.origin.rawValue) == [
        "user", "effect", "effect", "effect", "effect",  // .task, then what it sent and loaded
        "user", "user", "effect", "user", "effect",  // increment, fact and its answer, random…
        "user", "user", "user",  // a counter added, a name, a query
        "effect", "effect",  // the debounced search and its answer
      ], "\(steps)")
    // The clock is virtual: the search's debounce (300 ms) moved it once, exactly.
    #expect(recording.steps.map(\.time).last == .milliseconds(300))
    #expect(recording.steps.dropLast(2).allSatisfy { $0.time == .zero })
    #expect(recording.steps[5].state.counterList.counters[0].count == 1)
    #expect(recording.isStopped && !recording.isFull && recording.effectsInFlightAtStop == 0)
  }

  @Test func answersAreKeptInTheOrderOfTheirCallsWithTheirTypes() async throws {
    let answers = await recordedSession().tape.answers
    #expect(answers.map(\.call) == Array(0..<answers.count))
    #expect(
      answers.map(\.name) == [
        "favoriteClient.favorites", "settingsClient.load", "factClient.fetch",
        "randomNumberClient.fetch", "uuid", "settingsClient.save", "weatherClient.search",
      ])
    #expect(
      answers.map(\.type) == [
        "Set<UUID>", "StoredSettings", "String", "Int", "UUID", "()", "GeocodingSearch",
      ])
    #expect(answers[2].arguments == [.integer("1")])
    #expect(answers[3].arguments == [.integer("1"), .integer("100")])
    #expect(try answers[2].result.get() == .string("1 is a good number."))
    // The uuid was asked while the counter was added (step 11): it comes before that step.
    #expect(answers[4].afterStep == 10)
  }

  @Test func aRecordFileReadsBackAsItWasWritten() async throws {
    let record = await recordedSession().appRecord
    let text = RecordFile.write(record)
    let read = try RecordFile.read(text)
    for (index, (a, b)) in zip(read.steps, record.steps).enumerated() where a != b {
      Issue.record("step \(index + 1): \(diff(b, a) ?? "")")
      break
    }
    let same = read == record
    #expect(same)
    let lines = text.split(separator: "\n")
    #expect(lines.first?.hasPrefix(#"{"record":"composable-session","version":1"#) == true)
    #expect(lines.last?.hasPrefix(#"{"end":{"steps":15,"answers":7"#) == true)
    // A step lists what changed, not the whole state.
    let increment = try #require(lines.first { $0.contains(#""step":6,"#) })
    #expect(
      increment.hasSuffix(
        #""changes":[{"path":["counterList","counters",{"id":{"$uuid":"00000000-0000-0000-0000-000000000000"}},"count"],"value":1}]}"#
      ))
  }

  @Test func sharedValuesAreRecordedAsTheyWereAtEachStep() async throws {
    let record = await recordedSession().appRecord
    func publicName(_ state: RecordedValue) -> RecordedValue? {
      guard case .structure(_, let fields, _) = state,
        case .structure(_, let settings, _)? = fields.first(where: { $0.label == "settings" })?
          .value
      else { return nil }
      return settings.first { $0.label == "publicName" }?.value
    }
    // The state holds one reference throughout; each step still shows the value it had then.
    #expect(publicName(record.initialState) == .shared(.string(""), readOnly: false))
    #expect(publicName(record.steps[10].state) == .shared(.string(""), readOnly: false))
    #expect(publicName(record.steps[11].state) == .shared(.string("Ann"), readOnly: false))
    let changes = RecordedValue.changes(from: record.steps[10].state, to: record.steps[11].state)
    #expect(
      changes.map(\.pathDescription) == [
        ".settings.displayName", ".settings.publicName", ".userName",
      ])
    #expect(changes.map(\.isReadOnlyShare) == [false, false, true])
  }

  @Test func aRecordingStopsGrowingAtItsLimit() async throws {
    let recording = await recordedSession(limit: 4)
    #expect(recording.steps.count == 4)
    #expect(recording.tape.answers.count == 4)
    #expect(recording.isFull)
    #expect(recording.fullMessage.contains("at most 4 actions"))
    let text = RecordFile.write(recording.appRecord)
    #expect(
      text.hasSuffix(#"{"end":{"steps":4,"answers":4,"full":true,"effectsInFlight":0}}"# + "\n"))
  }

  @Test func stoppingPutsTheStoresOwnDependenciesBack() async throws {
    let store = appStore()
    let recording = store.startRecording(dependencies: AppFeature.recordClients)
    store.send(.counterList(.addCounterButtonTapped))
    store.stopRecording()
    store.send(.counterList(.addCounterButtonTapped))
    #expect(recording.steps.count == 1)
    #expect(recording.tape.answers.map(\.name) == ["uuid"])
    // The store's own generator gave both ids, in turn.
    #expect(store.counterList.counters.ids.elements == [UUID(0), UUID(1), UUID(2)])
  }
}

@Suite struct StoreActorRecordingTests {
  @Test func aStoreActorRecordsItsSession() async throws {
    let store = StoreActor(initialState: Counter.State(id: UUID(0))) {
      Counter()
    } withDependencies: {
      $0.factClient = .mock
    }
    let recording = await store.startRecording { values, tape in
      let fact = values.factClient
      values.factClient.fetch = { number in
        try await tape.record("factClient.fetch", arguments: [number]) {
          try await fact.fetch(number)
        }
      }
    }
    await store.send(.incrementButtonTapped)
    await store.send(.factButtonTapped).finish()
    await store.stopRecording()
    let record = recording.record(feature: "Counter")
    #expect(record.steps.map(\.origin) == [.user, .user, .effect])
    #expect(record.answers.map(\.name) == ["factClient.fetch"])
    let source = try SessionTestWriter(
      suiteName: "CounterSession", testName: "session", testableImports: ["CounterFeature"],
      source: "A counter."
    ).write(record)
    #expect(source.contains("let id1 = UUID(0)"))
    #expect(source.contains("let initialState = Counter.State(\n      id: id1,\n      count: 0,"))
    #expect(
      source.contains(#"await store.receive(\.factResponse.success, "1 is a good number.") {"#))
  }
}

@MainActor
@Suite struct StackRecordingTests {
  /// A navigation stack's changes are written element by element: a push as `path[id: N] = …`
  /// (a test store appends it under that id), a change on a screen through `path[id: N]?`, a pop
  /// as `= nil`. Written whole, `StackState([…])` would give the screen an id of the test's own
  /// and every later assertion on the stack would fail.
  @Test func aStackIsAssertedElementByElement() async throws {
    let store = appStore()
    let recording = store.startRecording(dependencies: AppFeature.recordClients)
    await store.send(.task).finish()
    let first = store.episodes.episodes[0].id
    let second = store.episodes.episodes[1].id
    store.send(.episodes(.episodeTapped(first)))
    let stack = store.episodes.path.ids
    await store.send(.episodes(.path(.element(id: stack[0], action: .favorite(.buttonTapped)))))
      .finish()
    store.send(.episodes(.path(.popFrom(id: stack[0]))))
    store.send(.episodes(.episodeTapped(second)))
    store.stopRecording()
    let source = try SessionTestWriter(
      suiteName: "S", testName: "t",
      testableImports: AppFeature.recorded.testImports(recording.appRecord), source: ""
    ).write(recording.appRecord)
    #expect(!source.contains("path = StackState("), "\(source)")
    #expect(source.contains("$0.episodes.path[id: 0] = EpisodeDetail.State("))
    #expect(
      source.contains(
        """
              $0.episodes.path[id: 0]?.$favoriting.withLock {
                $0.isFavorite = true
                $0.saving = true
              }
        """))
    #expect(source.contains("$0.episodes.path[id: 0] = nil"))
    #expect(source.contains("$0.episodes.path[id: 1] = EpisodeDetail.State("))
  }
}

/// A parent that turns its own action into its child's, as a front end's key map does.
@Reducer
struct KeyMap {
  @ObservableState
  struct State: Equatable {
    var child = Counter.State(id: UUID(0))
    var keys = 0
  }
  enum Action {
    case child(Counter.Action)
    case key(Character)
  }
  var body: some ReducerOf<Self> {
    Scope(state: \.child, action: \.child) { Counter() }
    Reduce { state, action in
      guard case .key(let key) = action else { return .none }
      state.keys += 1
      return key == "f" ? .send(.child(.factButtonTapped)) : .none
    }
  }
}

@MainActor
@Suite struct ChildRecordingTests {
  @Test func whatTheParentSendsAChildCountsAsSentByTheUser() async throws {
    let store = Store(initialState: KeyMap.State()) {
      KeyMap()
    } withDependencies: {
      $0.factClient = .mock
    }
    let recording = store.startRecording(state: \.child, action: \.child)
    await store.send(.key("f")).finish()
    store.send(.key("x"))
    store.stopRecording()
    // The parent's own actions are not the child's session; the fact it asked for is.
    #expect(recording.steps.map(\.origin) == [.user, .effect])
    #expect(recording.steps.map { "\($0.action)".prefix(12) } == ["factButtonTa", "factResponse"])
    #expect(recording.steps.last?.state.fact == "0 is a good number.")
  }
}

@Suite struct RecordFileTests {
  /// A valid record: a counter incremented once.
  let lines = [
    #"{"record":"composable-session","version":1,"feature":"Counter"}"#,
    #"{"start":{"$state":"Counter.State","id":{"$uuid":"00000000-0000-0000-0000-000000000000"},"count":0}}"#,
    #"{"answer":"uuid","call":0,"type":"UUID","arguments":[],"returned":{"$uuid":"00000000-0000-0000-0000-000000000001"}}"#,
    #"{"step":1,"by":"user","time":0.0,"action":{"$case":"incrementButtonTapped"},"changes":[{"path":["count"],"value":1}]}"#,
    #"{"step":2,"by":"user","time":0.0,"action":{"$case":"incrementButtonTapped"},"changes":[{"path":["count"],"value":2}]}"#,
    #"{"end":{"steps":2,"answers":1,"full":false,"effectsInFlight":0}}"#,
  ]

  func read(_ lines: [String]) -> String {
    do {
      _ = try RecordFile.read(lines.joined(separator: "\n") + "\n")
      return "read"
    } catch {
      return error.description
    }
  }

  @Test func aValidRecordIsRead() throws {
    let record = try RecordFile.read(lines.joined(separator: "\n"))
    #expect(
      record.steps.map(\.state) == [
        .structure(
          type: "Counter.State",
          fields: [.init("id", .uuid(UUID(0))), .init("count", .integer("1"))],
          isState: true),
        .structure(
          type: "Counter.State",
          fields: [.init("id", .uuid(UUID(0))), .init("count", .integer("2"))],
          isState: true),
      ])
    #expect(RecordFile.write(record) == lines.joined(separator: "\n") + "\n")
  }

  /// A record whose lines end with CRLF (through an editor, or a system that writes those) is
  /// read as the same record.
  @Test func aRecordWithCRLFLineEndsIsRead() throws {
    let text = lines.joined(separator: "\n") + "\n"
    let crlf = lines.joined(separator: "\r\n") + "\r\n"
    #expect(try RecordFile.read(crlf) == RecordFile.read(text))
  }

  /// What is not a record file at all is refused for what it is, without a line number.
  @Test func aFolderAMissingFileAndAnEmptyFileAreRefusedForWhatTheyAre() throws {
    let folder = FileManager.default.temporaryDirectory
      .appendingPathComponent("record-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    func refusal(_ path: String) -> String {
      do {
        _ = try RecordFile.read(contentsOf: path)
        return "read"
      } catch {
        return error.description
      }
    }
    #expect(refusal(folder.path) == "\(folder.path) is a folder, not a record file")
    let missing = folder.appendingPathComponent("missing.jsonl").path
    #expect(refusal(missing) == "\(missing) does not exist")
    let empty = folder.appendingPathComponent("empty.jsonl").path
    FileManager.default.createFile(atPath: empty, contents: Data())
    #expect(refusal(empty) == "the file is empty: there is no record in it")
    let binary = folder.appendingPathComponent("binary.jsonl").path
    FileManager.default.createFile(atPath: binary, contents: Data([0xFF, 0xFE, 0x00]))
    #expect(refusal(binary) == "\(binary) is not text (UTF-8)")
    let good = folder.appendingPathComponent("good.jsonl").path
    FileManager.default.createFile(
      atPath: good, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
    #expect(refusal(good) == "read")
  }

  @Test func aDamagedRecordIsRefusedNamingTheLineAndTheReason() {
    #expect(read([]) == "the file is empty: there is no record in it")
    #expect(read(["", ""]) == "the file is empty: there is no record in it")
    #expect(
      read(Array(lines.dropLast()))
        == "line 5: the record ends without its end line: it is truncated")
    #expect(
      read(lines.enumerated().filter { $0.offset != 3 }.map(\.element))
        == "line 4: step 2 where step 1 was expected: the record is out of order or has lines missing"
    )
    #expect(
      read([lines[0], lines[1], lines[2], lines[4], lines[3], lines[5]])
        == "line 4: step 2 where step 1 was expected: the record is out of order or has lines missing"
    )
    #expect(
      read(
        [lines[0].replacingOccurrences(of: #""version":1"#, with: #""version":2"#)]
          + lines.dropFirst())
        == "line 1: the record is of version 2; this program reads version 1 (it was written by a newer one)"
    )
    #expect(
      read(["{}"] + lines.dropFirst())
        == #"line 1: not a session record (its first line has no "record":"composable-session")"#)
    #expect(
      read(
        Array(lines[0...2]) + [
          #"{"step":1,"by":"robot","time":0.0,"action":{"$case":"x"},"changes":[]}"#
        ] + lines[4...]) == #"line 4: "by" must be "user" or "effect""#)
    #expect(
      read(
        Array(lines[0...2]) + [
          lines[3].replacingOccurrences(of: #"["count"]"#, with: #"["total"]"#)
        ] + lines[4...]) == "line 4: a change at .total does not fit the state before it")
    #expect(
      read(
        Array(lines[0...4]) + [
          lines[5].replacingOccurrences(of: #""steps":2"#, with: #""steps":3"#)
        ])
        == "line 6: the end line counts 3 steps and 1 answers, but the record has 2 and 1: lines are missing"
    )
    #expect(read(lines + ["{}"]) == "line 7: text after the end line")
    // Answers are in the order they came back, so call numbers may come in any order; but
    // each once, and none missing.
    let answer = #"{"answer":"uuid","call":0,"type":"UUID","arguments":[],"returned":null}"#
    #expect(
      read(Array(lines[0...1]) + [answer, answer])
        == "line 4: a second answer to call 0: the record is out of order")
    #expect(
      read(
        Array(lines[0...1]) + [
          answer.replacingOccurrences(of: #""call":0"#, with: #""call":1"#),
          #"{"end":{"steps":0,"answers":1,"full":false,"effectsInFlight":0}}"#,
        ]) == "line 4: the answer to call 0 is missing: lines are missing")
    #expect(
      read(Array(lines[0...2]) + ["{\"step\":1,"])
        == "line 4: not JSON: the end of the input inside an object at column 11")
    #expect(
      read(Array(lines[0...0]) + [#"{"start":{"$mystery":1}}"#]) == "line 2: unknown tag $mystery")
    let deep = String(repeating: "[", count: 100_000)
    #expect(
      read(Array(lines[0...0]) + [#"{"start":"# + deep])
        == "line 2: not JSON: nested too deeply (at most 512 levels) at column 521")
  }

  @Test func aValueWithoutASourceFormStopsTheWriterNamingTheStep() throws {
    var record = try RecordFile.read(lines.joined(separator: "\n"))
    record.steps[1].action = .enumeration(
      name: "run", payload: [.init("", .unsupported("() -> ()"))])
    #expect(throws: SessionTestWriter.Failure.self) {
      try SessionTestWriter(suiteName: "S", testName: "t", testableImports: [], source: "")
        .write(record)
    }
    do {
      _ = try SessionTestWriter(suiteName: "S", testName: "t", testableImports: [], source: "")
        .write(record)
    } catch {
      #expect(
        error.description
          == "step 2: a value of type () -> () cannot be written as Swift source (a closure or an object); the record cannot become a test"
      )
    }
  }
}

@Suite struct SampleRegenerationTests {
  /// The committed test is exactly what the writer makes of the committed record: a change to the
  /// writer, or a record edited by hand, shows here.
  /// A test written from a record imports the features whose types the record's state holds,
  /// so a feature added to the app after the session was recorded does not change it.
  @Test func aWrittenTestImportsTheFeaturesOfTheRecordsState() throws {
    let imports = AppFeature.recorded.testImports(try sampleRecord())
    #expect(imports.contains("EpisodesFeature") && imports.contains("FavoritingFeature"))
    let older = AppFeature.recorded.testImports(try sampleRecordedBeforeTheseFields())
    #expect(Set(imports).subtracting(older) == ["EpisodesFeature", "FavoritingFeature"])
    #expect(older.contains("CounterFeature") && older.contains("FactClient"))
  }

  @Test func theCommittedTestIsWhatTheWriterMakesOfTheCommittedRecord() throws {
    let url = try #require(
      Bundle.module.url(
        forResource: "sample-session", withExtension: "jsonl", subdirectory: "Records"))
    let record = try RecordFile.read(String(contentsOf: url, encoding: .utf8))
    let written = try SessionTestWriter(
      suiteName: "SampleSessionTests", testName: "sampleSession",
      testableImports: AppFeature.recorded.testImports(record),
      source: SessionTestWriter.source(recordFile: "sample-session.jsonl", record)
    ).write(record)
    let committed = try String(
      contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Generated/SampleSessionTest.swift"), encoding: .utf8)
    #expect(
      written == committed,
      "regenerate it: python3 Tests/EndToEnd/recording_test.py --write-sample, or app-cli record-to-test"
    )
  }
}
