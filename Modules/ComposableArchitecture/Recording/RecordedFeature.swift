import ComposableArchitecture
/// How a root feature's recorded sessions are made and written, for a front end that records
/// them: the feature's name, the Swift expression a test starts from, what that expression makes
/// in a test, how the feature's clients are recorded, and what a test written from a record
/// imports.
///
/// ```swift
/// extension AppFeature {
///   public static let recorded = RecordedFeature<State, Action>(
///     name: "AppFeature", initialStateExpression: "AppFeature.State()",
///     baseline: { baselineState() }, recordClients: recordClients,
///     testImports: { record in ["AppFeature", "CounterFeature", …] })
/// }
/// ```
public struct RecordedFeature<State, Action>: Sendable {
  /// The reducer's type name, as a test writes `Name()`.
  public var name: String
  /// The state a session starts from, as a test writes it (`AppFeature.State()`); `nil`: a test
  /// writes the recorded initial state out in full.
  public var initialStateExpression: String?
  /// What `initialStateExpression` makes with `uuid` counting up from zero and `date` at 1970
  /// (a test starts from it and sets what differs).
  public var baseline: @Sendable () -> State?
  /// Wraps the feature's clients so that a recording keeps their answers
  /// (`DependencyTape.record(_:arguments:_:)`).
  public var recordClients: @Sendable (inout DependencyValues, DependencyTape) -> Void
  /// The modules a test written from a record imports (`@testable`): those of the types the
  /// record's state holds, so that a feature added after the session was recorded does not change
  /// the test written from it.
  public var testImports: @Sendable (SessionRecord) -> [String]

  public init(
    name: String,
    initialStateExpression: String?,
    baseline: @escaping @Sendable () -> State?,
    recordClients: @escaping @Sendable (inout DependencyValues, DependencyTape) -> Void,
    testImports: @escaping @Sendable (SessionRecord) -> [String]
  ) {
    self.name = name
    self.initialStateExpression = initialStateExpression
    self.baseline = baseline
    self.recordClients = recordClients
    self.testImports = testImports
  }

  /// `recording` as a record of this feature.
  public func record(_ recording: SessionRecording<State, Action>) -> SessionRecord {
    recording.record(
      feature: name, initialState: initialStateExpression,
      baseline: initialStateExpression == nil ? nil : baseline())
  }
}
