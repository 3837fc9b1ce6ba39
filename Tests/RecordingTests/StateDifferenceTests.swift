import AppFeature
import AppRecording
import ComposableArchitecture
import ComposableRecording
import Foundation
import SettingsFeature
import Testing

/// A state kept as its changes from a baseline is built again exactly, or not kept so at all.
@Suite struct StateDifferenceTests {
  let baseline = StateDifference<AppFeature.State>.Baseline { AppFeature.baselineState() }!

  @Test func everyStateOfTheSampleIsKeptAsChangesAndBuiltAgainExactly() throws {
    let record = try sampleRecord()
    var sizes: [Int] = []
    for recorded in [record.initialState] + record.steps.map(\.state) {
      // A reader built from a record reads a value of its own; the app's state, made by its
      // initializer, reads the name Settings shares.
      let decoded = try SessionReplay.state(from: recorded, of: AppFeature.recorded)
      var state = AppFeature.State(
        counterList: decoded.counterList, settings: decoded.settings, episodes: decoded.episodes,
        selectedTab: decoded.selectedTab)
      state.counterList = decoded.counterList
      state.search = decoded.search
      // (A record does not keep what a reader reads step by step — it follows its source —
      // so only the other values are compared with the record.)
      let differences = RecordedValue.changes(
        from: recorded, to: RecordedValue(reflecting: state).keepingFields(of: recorded))
      #expect(differences.filter { !$0.isReadOnlyShare }.isEmpty)
      let difference = try #require(StateDifference(state, from: baseline))
      let built = try difference.state(from: baseline)
      #expect(built == state)
      #expect(RecordedValue(reflecting: built) == RecordedValue(reflecting: state))
      sizes.append(difference.json.utf8.count)
    }
    #expect(sizes.count == 59)
    // The session starts as the baseline does, save the first counter's id.
    #expect(sizes[0] < 600, "\(sizes[0]) bytes")
    #expect(sizes.allSatisfy { $0 < 8_000 }, "\(sizes)")
  }

  @Test func theBaselineItselfIsNoChangeAtAll() throws {
    let difference = try #require(StateDifference(AppFeature.baselineState(), from: baseline))
    #expect(difference.json == "[]")
  }

  @Test func aStateBuiltAgainSharesAsTheOriginalDid() throws {
    var state = AppFeature.baselineState()
    state.settings.displayName = "Ada"
    state.settings.$publicName.withLock { $0 = "Ada" }
    state.counterList.counters[id: state.counterList.counters[0].id]?.count = 7
    let difference = try #require(StateDifference(state, from: baseline))
    #expect(difference.json.contains("\"Ada\""))

    let built = try difference.state(from: baseline)
    #expect(built == state)
    #expect(built.userName == "Ada")
    // The header reads the name Settings shares, in the built state too.
    built.settings.$publicName.withLock { $0 = "Grace" }
    #expect(built.userName == "Grace")
    // Two states built from one difference share nothing with each other.
    let other = try difference.state(from: baseline)
    #expect(other.userName == "Ada")
  }

  @Test func aStateHoldingWhatReflectionCannotBuildIsNotKeptAsChanges() {
    struct WithClosure: Sendable {
      var count = 0
      var action: @Sendable () -> Void = {}
    }
    let closures = StateDifference<WithClosure>.Baseline { WithClosure() }!
    #expect(StateDifference(WithClosure(count: 1), from: closures) == nil)

    struct WithError: Sendable {
      var result: Result<Int, any Error> = .success(0)
    }
    struct Failure: Error {}
    let errors = StateDifference<WithError>.Baseline { WithError() }!
    #expect(StateDifference(WithError(result: .failure(Failure())), from: errors) == nil)
  }

  @Test func aBaselineThatIsNotTheSameEachTimeIsRefused() {
    struct Identified: Sendable {
      var id = UUID()
    }
    #expect(StateDifference<Identified>.Baseline { Identified() } == nil)
  }
}
