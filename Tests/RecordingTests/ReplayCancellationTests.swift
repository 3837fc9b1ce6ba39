import ComposableArchitecture
import ComposableRecording
import Foundation
import Testing

/// Each edit saves the value, a newer save cancelling an older one still in flight (as Settings
/// saves its form); nothing is sent back. `slowValue`'s save waits a little before it calls the
/// client, in real time — the timing of an app, not its logic.
@Reducer
struct Saver {
  @ObservableState
  struct State: Equatable {
    var value = ""
  }

  @CasePathable
  enum Action: Equatable {
    case edited(String)
  }

  var slowValue: String?
  /// An edit of this value is not saved (an app that lost a save).
  var unsavedValue: String?
  @Dependency(\.loadClient) var client
  private enum CancelID { case save }

  var body: some ReducerOf<Self> {
    Reduce { state, action in
      switch action {
      case .edited(let value):
        state.value = value
        return .run { [client, slowValue, unsavedValue] _ in
          if value == slowValue { try await Task.sleep(for: .milliseconds(50)) }
          guard value != unsavedValue else { return }
          _ = try await client.load(value)
        }
        .cancellable(id: CancelID.save, cancelInFlight: true)
      }
    }
  }

  /// Every save is one endpoint, `loadClient.save`, its value the argument.
  static let recorded = RecordedFeature<State, Action>(
    name: "Saver", initialStateExpression: "Saver.State()", baseline: { State() },
    recordClients: { values, tape in
      let base = values.loadClient
      values.loadClient = LoadClient { value in
        try await tape.record("loadClient.save", arguments: [value]) { try await base.load(value) }
      }
    },
    testImports: { _ in [] })
}

@MainActor
@Suite struct ReplayCancellationTests {
  /// In the session the first edit's save reached the client before the second edit. A replay in
  /// which that save is slower must still make that call before it sends the second edit (the
  /// record says the call came first); sent at once, the second edit cancels the first save and
  /// the second save takes the first one's recorded answer.
  @Test func aCallTheSessionMadeBeforeTheNextUserActionIsMadeBeforeItInTheReplay() async throws {
    let record = await recordedEdits()
    #expect(record.steps.count == 2)
    #expect(record.answers.map(\.arguments) == [[.string("first")], [.string("second")]])
    #expect(record.answers.map(\.afterStep) == [1, 2])

    let report = await SessionReplay.replay(
      record, of: Saver.recorded, reducer: Saver(slowValue: "first"))
    #expect(report.divergence == nil, "\(report)")
    #expect(report.notes.isEmpty, "\(report)")
    #expect(report.reproduced == 2)
  }
}

/// Records two edits of a `Saver`, each saved before the next edit (as a user's pause gives it
/// time to).
@MainActor
func recordedEdits() async -> SessionRecord {
  let store = Store(initialState: Saver.State()) {
    Saver()
  } withDependencies: {
    $0.loadClient = LoadClient { value in value }
  }
  let recording = store.startRecording(dependencies: Saver.recorded.recordClients)
  await store.send(.edited("first")).finish()
  await store.send(.edited("second")).finish()
  store.stopRecording()
  return Saver.recorded.record(recording)
}

@MainActor
@Suite struct ReplayMissingCallTests {

  /// An app that no longer saves an edit reproduces every state: the missing save is the only
  /// difference, and the replay names it.
  @Test func aRecordedCallTheAppNoLongerMakesIsADivergence() async throws {
    let record = await recordedEdits()
    let report = await SessionReplay.replay(
      record, of: Saver.recorded, reducer: Saver(unsavedValue: "second"))
    #expect(report.reproduced == 2)
    let message = try #require(report.divergence?.message)
    #expect(message.contains("no longer makes the recorded call loadClient.save (call 1"))
    #expect(message.contains(#"["second"]"#))
  }

  /// A call answered after the last step may still be on its way when the last state matched:
  /// the replay waits for it instead of calling it missing.
  @Test func aCallMadeLateAfterTheLastStepIsWaitedFor() async throws {
    let record = await recordedEdits()
    let report = await SessionReplay.replay(
      record, of: Saver.recorded, reducer: Saver(slowValue: "second"))
    #expect(report.divergence == nil, "\(report)")
    #expect(report.notes.isEmpty, "\(report)")
  }
}
