import ComposableArchitecture
import JSON
/// A state kept as the changes that make it from a baseline, written as a record writes changes:
/// one string of a few hundred bytes where the value itself holds kilobytes in many small blocks
/// (an Observation registrar per `@ObservableState` value, arrays, shared boxes). A server keeps
/// the state of an idle visitor's session this way and builds the value again when the visitor
/// comes back.
///
/// A difference is made only when building the state again from it gives that state exactly:
/// ``init(_:from:)`` builds it once and compares, and answers `nil` otherwise — for a state
/// holding a value reflection cannot show (a closure, an object, an error behind `any Error`), a
/// type that cannot be built from a record (not `RecordDecodable`), or a shared value whose
/// sharing the baseline does not make.
///
/// ```swift
/// let baseline = StateDifference<AppFeature.State>.Baseline { AppFeature.baselineState() }
/// if let kept = StateDifference(state, from: baseline) {
///   // later
///   let state = try kept.state(from: baseline)
/// }
/// ```
public struct StateDifference<State>: Sendable {
  /// The changes from the baseline: the JSON array of a record's changes
  /// (`[{"path":["counterList","counters",{"id":…}],"value":…}]`).
  public let json: String

  /// The state a difference starts from: made anew for each state built (so its shared values
  /// are its own), and its recorded form, reflected once.
  public struct Baseline: Sendable {
    let make: @Sendable () -> State
    let recorded: RecordedValue

    /// The baseline `make` makes; `nil` when two of them differ (a baseline that reads the
    /// clock or a random generator cannot be started from again).
    public init?(_ make: @escaping @Sendable () -> State) {
      let recorded = RecordedValue(reflecting: make())
      guard RecordedValue(reflecting: make()) == recorded else { return nil }
      self.make = make
      self.recorded = recorded
    }
  }

  /// `state`'s difference from `baseline`, or `nil` when the state built from it would not be
  /// `state` exactly.
  public init?(_ state: State, from baseline: Baseline) {
    let recorded = RecordedValue(reflecting: state)
    guard !recorded.holdsValuesOnlyReflected else { return nil }
    let changes = RecordedValue.changes(from: baseline.recorded, to: recorded)
    self.json = JSONValue.array(changes.map(\.json)).text
    guard let built = try? self.state(from: baseline),
      RecordedValue(reflecting: built) == recorded,
      Self.isEqualIfEquatable(built, state)
    else { return nil }
  }

  /// The state: a new baseline with the changes made in it.
  public func state(from baseline: Baseline) throws -> State {
    let parsed: JSONValue
    do {
      parsed = try JSONValue.parse(Array(json.utf8), maximumDepth: RecordFile.maximumDepth)
    } catch {
      throw RecordDecodingError("the kept changes are not JSON: \(error.message)")
    }
    guard case .array(let items) = parsed else {
      throw RecordDecodingError("the kept changes are not a JSON array")
    }
    var state = baseline.make()
    for item in items {
      let change: RecordedChange
      do {
        change = try item.recordedChange(at: 1)
      } catch {
        throw RecordDecodingError("a kept change cannot be read: \(error.reason)")
      }
      // A `SharedReader` follows the value it reads, which another change sets.
      guard !change.isReadOnlyShare else { continue }
      try RecordDecoding.patch(&state, with: change)
    }
    return state
  }

  /// `==` where the state is `Equatable`: reflection writes a date in seconds since 1970, which
  /// may round a date that is not a whole number of seconds.
  private static func isEqualIfEquatable(_ built: State, _ state: State) -> Bool {
    guard let built = built as? any Equatable else { return true }
    return built.isEqual(to: state)
  }
}

extension Equatable {
  fileprivate func isEqual(to other: Any) -> Bool {
    (other as? Self) == self
  }
}

extension RecordedValue {
  /// Whether the value holds something a record shows but cannot build the same again: a value
  /// reflection cannot show (``unsupported(_:)``), or an error known only by its type's name.
  var holdsValuesOnlyReflected: Bool {
    switch self {
    case .unsupported, .error: true
    case .null, .bool, .integer, .double, .string, .uuid, .date, .duration, .text: false
    case .array(let values), .identified(let values):
      values.contains(where: \.holdsValuesOnlyReflected)
    case .dictionary(let pairs):
      pairs.contains { $0.key.holdsValuesOnlyReflected || $0.value.holdsValuesOnlyReflected }
    case .tuple(let fields), .structure(_, let fields, _), .enumeration(_, let fields):
      fields.contains { $0.value.holdsValuesOnlyReflected }
    case .shared(let value, _), .binding(_, let value): value.holdsValuesOnlyReflected
    case .stack(let entries): entries.contains { $0.element.holdsValuesOnlyReflected }
    case .alert(let alert):
      alert.buttons.contains { $0.action?.holdsValuesOnlyReflected ?? false }
    }
  }
}
