import AppFeature
import AppRecording
import ComposableArchitecture
import ComposableRecording
import CounterFeature
import Foundation
import SearchFeature
import SettingsFeature
import Testing
import WeatherClient

func sampleRecord() throws -> SessionRecord {
  let url = try #require(
    Bundle.module.url(
      forResource: "sample-session", withExtension: "jsonl", subdirectory: "Records"))
  return try RecordFile.read(String(contentsOf: url, encoding: .utf8))
}

/// `AppFeature`, except that an increment adds one more: the "changed reducer line" a replay must
/// catch.
@Reducer
struct IncrementsByTwo {
  var body: some ReducerOf<AppFeature> {
    AppFeature()
    Reduce { state, action in
      if case .counterList(.counters(.element(let id, .incrementButtonTapped))) = action {
        state.counterList.counters[id: id]?.count += 1
      }
      return .none
    }
  }
}

@MainActor
@Suite struct ReplayTests {
  @Test func theSampleSessionReplaysExactlyAgainstTodaysReducers() async throws {
    let record = try sampleRecord()
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == record.steps.count)
    #expect(report.steps == 58)
    #expect(report.notes == [])
    #expect(report.description == "every recorded state was reproduced (58 steps)")
  }

  /// A record outlives a new optional field: a struct the record wrote without it equals one
  /// that has it as `null` — and only as `null`. (The sample session was recorded before
  /// `GeocodingSearch.Result` gained `matchedName`, and replays above.)
  @Test func aFieldTheRecordLacksCountsAsNullOnly() {
    func place(_ fields: [RecordedValue.Field]) -> RecordedValue {
      .structure(
        type: "Place", fields: [.init("name", .string("Jakarta"))] + fields, isState: false)
    }
    let recorded = place([])
    #expect(recorded == place([.init("matchedName", .null)]))
    #expect(place([.init("matchedName", .null)]) == recorded)
    #expect(recorded != place([.init("matchedName", .string("New York Van Java"))]))
    #expect(place([.init("matchedName", .string("New York Van Java"))]) != recorded)
    // Another field in its place is a difference, null or not.
    #expect(place([.init("a", .null)]) == place([.init("b", .null)]))
    #expect(place([.init("a", .integer("1"))]) != place([.init("b", .integer("1"))]))
    #expect(
      place([.init("a", .null), .init("c", .bool(true))]) != place([.init("c", .bool(false))]))
    // Inside other values too.
    #expect(RecordedValue.array([recorded]) == .array([place([.init("matchedName", .null)])]))
    #expect(RecordedValue.array([recorded]) != .array([place([.init("matchedName", .bool(true))])]))
  }

  @Test func aChangedReducerDivergesAtTheFirstStepItChangesWithTheDifference() async throws {
    let record = try sampleRecord()
    let report = await SessionReplay.replay(
      record, of: AppFeature.recorded, reducer: IncrementsByTwo())
    let divergence = try #require(report.divergence)
    // Step 6 is the first increment of the sample.
    #expect(divergence.step == 6)
    #expect(report.reproduced == 5)
    #expect(report.description.hasPrefix("the session diverges at step 6 of 58:"))
    #expect(divergence.message.contains("incrementButtonTapped"))
    #expect(divergence.message.contains("− recorded, + replayed"))
    #expect(divergence.message.contains("count: 1"))
    #expect(divergence.message.contains("count: 2"))
  }

  @Test func anActionNoLongerInTheFeatureIsReportedAtItsStep() async throws {
    var record = try sampleRecord()
    record.steps[5].action = .enumeration(
      name: "counterList",
      payload: [.init("", .enumeration(name: "shuffleButtonTapped", payload: []))])
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    let divergence = try #require(report.divergence)
    #expect(divergence.step == 6)
    #expect(
      divergence.message
        == "the recorded action cannot be built again: counterList.0: CounterList.Action has no case shuffleButtonTapped"
    )
  }

  @Test func anEffectActionThatDoesNotComeIsNamedAtItsStep() async throws {
    var record = try sampleRecord()
    // Without the fact's answer, the fact request waits and its response never comes.
    record.answers.removeAll { $0.name == "factClient.fetch" }
    let responseStep =
      try #require(
        record.steps.firstIndex { step in
          RecordSessionText.caseNames(step.action).contains("factResponse")
        }) + 1
    let report = await SessionReplay.replay(
      record, of: AppFeature.recorded, reducer: AppFeature(), timeout: .milliseconds(300))
    let divergence = try #require(report.divergence)
    #expect(divergence.step == responseStep)
    #expect(divergence.message.hasPrefix("the app no longer sends the recorded effect action\n"))
    #expect(divergence.message.contains("factResponse"))
    #expect(report.notes == ["factClient.fetch was called more often than in the record"])
  }

  @Test func aDependencyCalledWithOtherArgumentsDivergesAtTheStepItsAnswerCameAfter()
    async throws
  {
    var record = try sampleRecord()
    let index = try #require(record.answers.firstIndex { $0.name == "factClient.fetch" })
    record.answers[index].arguments = [.integer("41")]
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    // Every state is reproduced (the call still gets its recorded answer), but the app asked
    // something else of the outside world.
    let divergence = try #require(report.divergence, "\(report)")
    #expect(divergence.step == max(record.answers[index].afterStep, 1))
    #expect(
      divergence.message == "the app calls factClient.fetch (call \(record.answers[index].call))"
        + " with [1]; the record has [41]")
    #expect(report.reproduced == divergence.step - 1)
    #expect(report.notes.isEmpty, "\(report)")
  }

  /// Adding a feature, or a field to a state, does not break the records made before: the new
  /// fields start from their initial values and the record checks what it has.
  @Test func aRecordMadeBeforeTheAppGainedAFeatureReplaysExactly() async throws {
    let record = try sampleRecordedBeforeTheseFields()
    #expect(throws: RecordDecodingError.self) {
      try RecordDecoding.decode(AppFeature.State.self, from: record.initialState)
    }
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 58)
    // What the record has is still checked: a changed reducer diverges as before.
    let changed = await SessionReplay.replay(
      record, of: AppFeature.recorded, reducer: IncrementsByTwo())
    let divergence = try #require(changed.divergence)
    #expect(divergence.step == 6)
    #expect(divergence.message.contains("− recorded, + replayed"))
    #expect(divergence.message.contains("count: 2"), "a TestStore-style difference")
    // A field the record has and the app lost is still named, new fields or not.
    let lost = try record.withStartField("removedField", .bool(true))
    let report2 = await SessionReplay.replay(lost, of: AppFeature.recorded, reducer: AppFeature())
    #expect(report2.divergence?.step == 0)
    #expect(report2.divergence?.message.contains("removedField") == true, "\(report2)")
  }

  /// Seeded: one to four fields of the states that the session never touched, chosen at random,
  /// are taken out of the sample as if the app had gained them after the session was recorded.
  /// The replay must reproduce every step, whatever they are; a field the app does not have,
  /// added at random to the start, must be named at step 0.
  @Test(arguments: 1...20 as ClosedRange<UInt64>)
  func aRecordWithoutFieldsTheAppGainedSinceReplaysExactly(seed: UInt64) async throws {
    var random = SplitMix(seed)
    let sample = try sampleRecord()
    let fields = fieldsTheSampleNeverTouched(sample)
    #expect(fields.count >= 10, "\(fields)")
    let chosen = Array(
      fields.shuffled(using: &random).prefix(Int.random(in: 1...4, using: &random)))
    let record = sample.without(chosen)
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    #expect(report.divergence == nil, "without \(chosen): \(report)")
    #expect(report.reproduced == 58, "without \(chosen)")

    // The other way round: a field the record has and the app has not.
    let lost = "lostField\(seed)"
    let diverged = await SessionReplay.replay(
      try record.withStartField(lost, .integer("\(seed)")) {
        Int.random(in: 0...$0, using: &random)
      },
      of: AppFeature.recorded, reducer: AppFeature())
    #expect(diverged.divergence?.step == 0, "without \(chosen)")
    #expect(diverged.divergence?.message.contains(lost) == true, "\(diverged)")
  }

  /// The session started with a counter of its own id, which the baseline (a counter with id 0)
  /// does not have: it is built from the record, and a field `Counter.State` gained since — one
  /// whose declaration gives no initial value — takes the value today's baseline counter has.
  @Test func aValueTheSessionStartedWithGetsTheFieldsItsTypeGainedSince() async throws {
    let record = try sampleRecord().without([
      ["Counter.State", "isTimerOn"], ["Counter.State", "isRandomNumberRequestInFlight"],
    ])
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    #expect(report.divergence == nil, "\(report)")
    #expect(report.reproduced == 58)
  }

  @Test func aStartStateTodaysStateCannotHoldIsReportedAsStepZero() async throws {
    let record = try sampleRecord().withStartField("removedField", .bool(true))
    let report = await SessionReplay.replay(record, of: AppFeature.recorded, reducer: AppFeature())
    let divergence = try #require(report.divergence)
    #expect(divergence.step == 0)
    #expect(report.description.hasPrefix("the recorded start state cannot be built again:"))
    #expect(divergence.message.contains("removedField"))
  }
}

extension SessionRecord {
  /// This record as an app without the fields `fields` (each `[type, label]`) would have made
  /// it: they are taken out of every recorded state, the start and the baseline included.
  func without(_ fields: [[String]]) -> SessionRecord {
    func strip(_ value: RecordedValue) -> RecordedValue {
      let inner = value.mappingChildren(strip)
      guard case .structure(let type, let kept, let isState) = inner else { return inner }
      return .structure(
        type: type, fields: kept.filter { !fields.contains([type, $0.label]) }, isState: isState)
    }
    var record = self
    record.initialState = strip(record.initialState)
    record.baseline = record.baseline.map(strip)
    for index in record.steps.indices {
      record.steps[index].state = strip(record.steps[index].state)
    }
    return record
  }

  /// This record with a field the app does not have in its start state, placed by `position`
  /// (given the number of fields; at the end unless said).
  func withStartField(
    _ label: String, _ value: RecordedValue, at position: (Int) -> Int = { $0 }
  ) throws -> SessionRecord {
    guard case .structure(let type, var fields, let isState) = initialState else {
      throw RecordDecodingError("the start is not a struct")
    }
    fields.insert(.init(label, value), at: position(fields.count))
    var record = self
    record.initialState = .structure(type: type, fields: fields, isState: isState)
    return record
  }
}

/// The sample as it would have been recorded before the app had Episodes (a feature added since)
/// and before Settings had its haptic feedback switch (a field added to a state).
func sampleRecordedBeforeTheseFields() throws -> SessionRecord {
  try sampleRecord().without([
    ["AppFeature.State", "episodes"], ["Settings.State", "isHapticFeedbackEnabled"],
  ])
}

/// A small seeded generator (SplitMix64), so that a failing seed fails again.
struct SplitMix: RandomNumberGenerator {
  var state: UInt64
  init(_ seed: UInt64) { state = seed }
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

/// Every field of the observable states in `values` (type, label), identities aside, with each
/// value it has there.
func stateFieldValues(in values: [RecordedValue]) -> [[String]: [RecordedValue]] {
  var found: [[String]: [RecordedValue]] = [:]
  func walk(_ value: RecordedValue) {
    if case .structure(let type, let fields, true) = value {
      for field in fields where field.label != "id" {
        found[[type, field.label], default: []].append(field.value)
      }
    }
    for child in value.children { walk(child) }
  }
  for value in values { walk(value) }
  return found
}

/// The fields of the sample's states that look as a field added to the app after the session
/// would: the session never changed them, and they hold what today's app starts with.
func fieldsTheSampleNeverTouched(_ record: SessionRecord) -> [[String]] {
  let recorded = stateFieldValues(in: [record.initialState] + record.steps.map(\.state))
  let initial = stateFieldValues(in: [RecordedValue(reflecting: AppFeature.baselineState())])
  return recorded.filter { field, values in
    let all = values + (initial[field] ?? [])
    return all.allSatisfy { $0 == all[0] }
  }
  .keys.sorted { $0.lexicographicallyPrecedes($1) }
}

@Suite struct RecordDecodingTests {
  @Test func everyRecordedActionOfTheSampleIsBuiltAgainExactly() throws {
    let record = try sampleRecord()
    for step in record.steps {
      let action = try RecordDecoding.decode(AppFeature.Action.self, from: step.action)
      #expect(RecordedValue(reflecting: action) == step.action)
    }
  }

  @Test func everyRecordedStateOfTheSampleIsBuiltAgainExactly() throws {
    for record in [try sampleRecord(), try sampleRecordedBeforeTheseFields()] {
      for state in [record.initialState] + record.steps.map(\.state) {
        let built = try SessionReplay.state(from: state, of: AppFeature.recorded)
        #expect(RecordedValue(reflecting: built).keepingFields(of: state) == state)
      }
    }
  }

  @Test func modelsWithRenamingCodingKeysAreReadByPosition() throws {
    let forecast = Forecast(
      daily: .init(
        temperatureMax: [20.5, 21], temperatureMin: [10, 11.25],
        time: [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 86_400)]),
      dailyUnits: .init(temperatureMax: "°C", temperatureMin: "°C"), isEstimate: true)
    let built = try RecordDecoding.decode(
      Forecast.self, from: RecordedValue(reflecting: forecast))
    #expect(built == forecast)
  }

  @Test func bindingsAreBuiltByFieldName() throws {
    let action = try RecordDecoding.decode(
      Settings.Action.self,
      from: .enumeration(
        name: "binding", payload: [.init("", .binding(field: "displayName", value: .string("Ann")))]
      ))
    #expect(action == .binding(.set(\.displayName, "Ann")))
    #expect(
      throws: RecordDecodingError(
        "Settings.State has no field nickname that a binding can set",
        path: ["binding.0", "nickname"])
    ) {
      try RecordDecoding.decode(
        Settings.Action.self,
        from: .enumeration(
          name: "binding", payload: [.init("", .binding(field: "nickname", value: .string("A")))]))
    }
  }

  @Test func aWrongValueNamesWhereAndWhat() throws {
    #expect(
      throws: RecordDecodingError(
        "expected Int, found \"seven\"", path: ["searchResultTapped.0", "id"])
    ) {
      try RecordDecoding.decode(
        Search.Action.self,
        from: .enumeration(
          name: "searchResultTapped",
          payload: [
            .init(
              "",
              .structure(
                type: "GeocodingSearch.Result",
                fields: [
                  .init("country", .string("UK")), .init("latitude", .double(1)),
                  .init("longitude", .double(2)), .init("id", .string("seven")),
                  .init("name", .string("London")), .init("admin1", .null),
                ], isState: false))
          ]))
    }
  }

  @Test func aChangeIsMadeThroughTheSharedReference() throws {
    var state = AppFeature.baselineState()
    try RecordDecoding.patch(
      &state,
      with: RecordedChange(
        path: [.field("settings"), .field("publicName")],
        value: .shared(.string("Ann"), readOnly: false)))
    #expect(state.settings.publicName == "Ann")
    // The header reads the same reference.
    #expect(state.userName == "Ann")
    #expect(
      throws: RecordDecodingError(
        "id is a constant", path: ["episodes", "episodes", "[id: a UUID]", "id"])
    ) {
      let id = state.episodes.episodes[0].id
      try RecordDecoding.patch(
        &state,
        with: RecordedChange(
          path: [.field("episodes"), .field("episodes"), .element(id: .uuid(id)), .field("id")],
          value: .uuid(UUID())))
    }
  }
}

/// A feature written as TCA code, with no attribute of the project: what a replay builds from a
/// record comes from `@Reducer` and `@ObservableState`, an action enum declared beside its
/// reducer from its case paths, and a plain model from `Decodable`.
@Reducer
struct PlainFeature {
  @ObservableState
  struct State: Equatable {
    var count = 0
    var forecast: Forecast? = nil
    @Presents var confirmation: ConfirmationDialogState<Choice>?
    struct Forecast: Codable, Equatable {
      var days: [Date]
      var high: Double
    }
  }
  enum Action: Equatable {
    case choice(PresentationAction<Choice>)
    case counted(by: Int)
    case forecastLoaded(State.Forecast, attempt: Int)
  }
  var body: some ReducerOf<Self> { EmptyReducer() }
}

/// The confirmation's buttons: declared outside the reducer, as TCA's examples declare
/// `FavoritingAction`, with TCA's own attribute only.
@CasePathable
enum Choice: Equatable {
  case keep
  case remove(id: Int)
  case answered(Result<Int, Refusal>)
  case moved(from: Int, to: Int)
}

struct Refusal: Error, Equatable, Codable {
  var reason: String
}

@Suite struct PlainFeatureRecordTests {
  @Test func aPlainFeaturesStateAndActionsAreBuiltAgainExactly() throws {
    let state = PlainFeature.State(
      count: 3,
      forecast: .init(days: [Date(timeIntervalSince1970: 86_400)], high: 21.5),
      confirmation: ConfirmationDialogState { TextState("Sure?") })
    let recorded = RecordedValue(reflecting: state)
    #expect(try RecordDecoding.decode(PlainFeature.State.self, from: recorded) == state)
    let actions: [PlainFeature.Action] = [
      .counted(by: 2),
      .forecastLoaded(.init(days: [], high: -3), attempt: 1),
      .choice(.presented(.keep)),
      .choice(.presented(.remove(id: 7))),
      .choice(.presented(.answered(.success(4)))),
      .choice(.presented(.answered(.failure(Refusal(reason: "no"))))),
      .choice(.dismiss),
    ]
    for action in actions {
      let built = try RecordDecoding.decode(
        PlainFeature.Action.self, from: RecordedValue(reflecting: action))
      #expect(built == action)
    }
  }

  @Test func aChangeReachesIntoAPlainFeaturesState() throws {
    var state = PlainFeature.State()
    try RecordDecoding.patch(
      &state, with: RecordedChange(path: [.field("count")], value: .integer("5")))
    #expect(state.count == 5)
  }

  @Test func aCaseWithSeveralValuesOutsideAReducerIsNamedNotGuessed() {
    #expect(
      throws: RecordDecodingError(
        "case moved of Choice has 2 values; only a @Reducer's Action is built with several")
    ) {
      try RecordDecoding.decode(
        Choice.self, from: RecordedValue(reflecting: Choice.moved(from: 1, to: 2)))
    }
    // A case the enum no longer has: named, with what each case's value said about the record.
    let error = #expect(throws: RecordDecodingError.self) {
      try RecordDecoding.decode(Choice.self, from: .enumeration(name: "vanished", payload: []))
    }
    #expect(
      error?.description.hasPrefix("Choice has no case vanished that the record's value builds")
        == true)
  }
}

/// The case names along a recorded action (`counterList`, `counters`, `element`, …).
enum RecordSessionText {
  static func caseNames(_ value: RecordedValue) -> [String] {
    guard case .enumeration(let name, let payload) = value else { return [] }
    return [name] + payload.flatMap { caseNames($0.value) }
  }
}
