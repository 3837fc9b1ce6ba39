import Foundation
import IdentifiedCollections

/// A type that a replay can build again from its recorded form (``RecordedValue``): what lets
/// `SessionReplay` send a recorded action to today's reducer and give an effect the answer a
/// dependency recorded.
///
/// Features rarely conform by hand: ``RecordDecodable()`` writes the conformance on a feature's
/// `State`, its `Action` and the enums and structs in its actions (a confirmation's action),
/// and a `@Reducer enum` writes it into the `State` and `Action` it declares:
///
/// ```swift
/// @ObservableState
/// @RecordDecodable
/// public struct State { … }
/// @RecordDecodable
/// public enum Action { … }
/// ```
///
/// Types that need nothing: the standard library's scalars and collections, `UUID`, `Date`,
/// `Duration`, the runtime's navigation, binding and sharing types, enums that are `CaseIterable`
/// and have no payload, and `Decodable` models (read through their coding keys, see
/// ``RecordDecoding/decode(_:from:)``).
public protocol RecordDecodable {
  /// The value `value` records.
  init(_$recorded value: RecordedValue) throws
}

/// Why a recorded value could not be built again: where in the value, and what was wrong.
public struct RecordDecodingError: Error, Equatable, CustomStringConvertible {
  /// Fields, cases and indices from the outermost value inward.
  public var path: [String]
  public var reason: String

  public init(_ reason: String, path: [String] = []) {
    self.reason = reason
    self.path = path
  }

  public var description: String {
    path.isEmpty ? reason : "\(path.joined(separator: ".")): \(reason)"
  }
}

/// Building values of a feature's types from a record; the code `@ObservableState`, `@Reducer`
/// and ``RecordDecodable()`` write calls these.
public enum RecordDecoding {
  /// The value of type `T` that `value` records.
  ///
  /// In order: a ``RecordDecodable`` type builds itself; `Void` is an empty tuple; a
  /// `CaseIterable` enum is the case recorded so; a `Decodable` type decodes from the recorded
  /// fields — by its coding key, the key in camel case (`daily_units` → `dailyUnits`), or else
  /// the field at the position the key was first asked for (coding keys that rename fields).
  /// What a replay builds is recorded again and compared with the original, so a model that
  /// decodes into something else is reported, not used.
  public static func decode<T>(_ type: T.Type = T.self, from value: RecordedValue) throws -> T {
    if let decodable = T.self as? any RecordDecodable.Type {
      return try decodable.init(_$recorded: value) as! T
    }
    if T.self == Void.self, case .tuple(let fields) = value, fields.isEmpty {
      return () as! T
    }
    if let iterable = T.self as? any CaseIterable.Type {
      if let match = allCases(of: iterable).first(where: { RecordedValue(reflecting: $0) == value })
      {
        return match as! T
      }
      throw RecordDecodingError(
        "\(describe(value)) is not a case of \(RecordedValue.typeName(of: T.self))")
    }
    if let decodable = T.self as? any Decodable.Type {
      do {
        return try decodable.init(from: _RecordedValueDecoder(value: value, codingPath: [])) as! T
      } catch let error as RecordDecodingError {
        throw error
      } catch {
        throw RecordDecodingError(
          "\(RecordedValue.typeName(of: T.self)) cannot be decoded from \(describe(value)): \(error)"
        )
      }
    }
    if let iterable = T.self as? any CasePathIterable.Type {
      return try caseByCasePath(iterable, from: value) as! T
    }
    throw RecordDecodingError(
      "\(RecordedValue.typeName(of: T.self)) cannot be built from a record: make it Decodable,"
        + " @CasePathable, or a State or Action of a @Reducer")
  }

  /// A value of a `@CasePathable` enum that no attribute of ours marks — an action enum declared
  /// beside its reducer, as TCA's examples do: each case key path embeds the recorded payload,
  /// and the case that records with the recorded name is the one. A case with no value or one
  /// value is built so; a case with several values needs the enum to be a `@Reducer`'s `Action`
  /// (whose macro writes the decoding), as a tuple cannot be built from its parts.
  private static func caseByCasePath<Root: CasePathIterable>(
    _: Root.Type, from value: RecordedValue
  ) throws -> Root {
    let (name, payload) = try enumCase(of: value, type: RecordedValue.typeName(of: Root.self))
    let recordedValue: RecordedValue
    switch payload.count {
    case 0: recordedValue = .tuple([])
    case 1: recordedValue = payload[0].value
    default:
      throw RecordDecodingError(
        "case \(name) of \(RecordedValue.typeName(of: Root.self)) has \(payload.count) values;"
          + " only a @Reducer's Action is built with several")
    }
    var failures: [String] = []
    for keyPath in Root.allCasePaths {
      guard let valueType = type(of: keyPath).valueType as? any _RecordedCaseValue.Type else {
        continue
      }
      let built: Root
      do {
        built = try valueType._embed(recordedValue, at: keyPath)
      } catch {
        failures.append("\(error)")
        continue
      }
      if case .enumeration(name, _) = RecordedValue(reflecting: built) { return built }
    }
    throw RecordDecodingError(
      "\(RecordedValue.typeName(of: Root.self)) has no case \(name) that the record's value"
        + " builds" + (failures.isEmpty ? "" : " (\(failures.joined(separator: "; ")))"))
  }

  private static func allCases<C: CaseIterable>(of type: C.Type) -> [Any] {
    Array(C.allCases)
  }

  /// `body`, with an error it throws placed under `component`.
  public static func at<T>(_ component: String, _ body: () throws -> T) throws -> T {
    do {
      return try body()
    } catch var error as RecordDecodingError {
      error.path.insert(component, at: 0)
      throw error
    }
  }

  // MARK: Structs

  /// The fields of a recorded struct.
  public static func fields(of value: RecordedValue, type: String) throws -> [RecordedValue.Field] {
    guard case .structure(_, let fields, _) = value else {
      throw RecordDecodingError("expected a \(type), found \(describe(value))")
    }
    return fields
  }

  /// The field `label` of a recorded struct, as the type the assignment it is used in expects.
  /// A record made before the struct had an optional field gives `nil` for it.
  public static func field<T>(_ label: String, in fields: [RecordedValue.Field]) throws -> T {
    guard let field = fields.first(where: { $0.label == label }) else {
      if let optional = T.self as? any ExpressibleByNilLiteral.Type {
        return optional.init(nilLiteral: ()) as! T
      }
      throw RecordDecodingError("the record has no field \(label)")
    }
    return try at(label) { try decode(T.self, from: field.value) }
  }

  /// The field `label` of a recorded struct, or `initial` — the value its declaration gives it —
  /// when the record was made before the struct had the field.
  public static func field<T>(
    _ label: String, in fields: [RecordedValue.Field], default initial: @autoclosure () -> T
  ) throws -> T {
    guard let field = fields.first(where: { $0.label == label }) else { return initial() }
    return try at(label) { try decode(T.self, from: field.value) }
  }

  // MARK: Enums

  /// The case name and payload of a recorded enum value.
  public static func enumCase(of value: RecordedValue, type: String) throws -> (
    name: String, payload: [RecordedValue.Field]
  ) {
    guard case .enumeration(let name, let payload) = value else {
      throw RecordDecodingError("expected a case of \(type), found \(describe(value))")
    }
    return (name, payload)
  }

  /// The payload value at `index` (its label `label`, or none) of case `name`.
  public static func payload<T>(
    _ payload: [RecordedValue.Field], _ index: Int, label: String, of name: String
  ) throws -> T {
    guard index < payload.count else {
      throw RecordDecodingError(
        "case \(name) has \(payload.count) values in the record, not \(index + 1)")
    }
    let field = payload[index]
    guard field.label == label else {
      throw RecordDecodingError(
        "case \(name): the record labels value \(index + 1) '\(field.label)', not '\(label)'")
    }
    return try at(label.isEmpty ? "\(name).\(index)" : "\(name).\(label)") {
      try decode(T.self, from: field.value)
    }
  }

  /// The error for a case name the type does not have.
  public static func unknownCase(_ name: String, of type: String) -> RecordDecodingError {
    RecordDecodingError("\(type) has no case \(name)")
  }

  // MARK: Bindings

  /// A binding action that sets `keyPath` to the recorded value: chosen when the field's value is
  /// not `Equatable & Sendable`, which a binding action needs.
  public static func binding<Root, Value>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: RecordedValue
  ) throws -> BindingAction<Root> {
    throw RecordDecodingError(
      "a binding action needs an Equatable and Sendable value;"
        + " \(RecordedValue.typeName(of: Value.self)) is not")
  }

  /// A binding action that sets `keyPath` to the recorded value.
  public static func binding<Root, Value: Equatable & Sendable>(
    _ keyPath: WritableKeyPath<Root, Value> & Sendable, _ value: RecordedValue
  ) throws -> BindingAction<Root> {
    .set(keyPath, try decode(Value.self, from: value))
  }

  // MARK: Patching

  /// Makes `change` in `target`: the value at a path of fields and identified elements, as a
  /// record's change lists it. A shared value is written through its reference, so what shares
  /// it sees the change.
  public static func patch<T>(_ target: inout T, with change: RecordedChange) throws {
    try patch(&target, change.path[...], change.value)
  }

  /// Sets the value at `path` in `target` to `value`.
  public static func patch<T>(
    _ target: inout T, _ path: ArraySlice<RecordedChange.Component>, _ value: RecordedValue
  ) throws {
    if var patchable = target as? any _RecordPatchable {
      try patchable._$patch(path, value)
      target = patchable as! T
      return
    }
    guard path.isEmpty else {
      throw RecordDecodingError(
        "\(RecordedValue.typeName(of: T.self)) has no fields or elements a change can reach")
    }
    target = try decode(T.self, from: value)
  }

  /// What a value looks like, for an error.
  static func describe(_ value: RecordedValue) -> String {
    switch value {
    case .null: "nil"
    case .bool(let value): "\(value)"
    case .integer(let digits): digits
    case .double(let value): "\(value)"
    case .string(let value): "\"\(value)\""
    case .uuid: "a UUID"
    case .date: "a date"
    case .duration: "a duration"
    case .array: "an array"
    case .dictionary: "a dictionary"
    case .tuple: "a tuple"
    case .structure(let type, _, _): "a \(type)"
    case .enumeration(let name, _): "case \(name)"
    case .shared: "a shared value"
    case .identified: "an identified array"
    case .stack: "a stack"
    case .binding(let field, _): "a binding of \(field)"
    case .text: "a text"
    case .alert(let alert): "an \(alert.kind)"
    case .error: "an error"
    case .unsupported(let type): "a \(type) (recorded without its value)"
    }
  }
}

/// The value type of a case key path (`Case<Value>`), opened: embeds a recorded payload.
private protocol _RecordedCaseValue {
  static func _embed<Root: CasePathable>(
    _ payload: RecordedValue, at keyPath: PartialCaseKeyPath<Root>
  ) throws -> Root
}

extension Case: _RecordedCaseValue {
  fileprivate static func _embed<Root: CasePathable>(
    _ payload: RecordedValue, at keyPath: PartialCaseKeyPath<Root>
  ) throws -> Root {
    let caseKeyPath = keyPath as! CaseKeyPath<Root, Value>
    return caseKeyPath(try RecordDecoding.decode(Value.self, from: payload))
  }
}

/// A value a recorded change can reach into; see ``RecordDecoding/patch(_:with:)``. The runtime's
/// containers and every `@ObservableState` struct conform.
public protocol _RecordPatchable {
  /// Sets the value at `path` (from this value) to `value`.
  mutating func _$patch(_ path: ArraySlice<RecordedChange.Component>, _ value: RecordedValue)
    throws
}

// MARK: - Scalars

extension Bool: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .bool(let bool) = value else { throw mismatch(value, Self.self) }
    self = bool
  }
}

extension String: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .string(let string) = value else { throw mismatch(value, Self.self) }
    self = string
  }
}

extension Substring: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    self = Substring(try String(_$recorded: value))
  }
}

extension Double: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    switch value {
    case .double(let double): self = double
    case .integer(let digits):
      guard let double = Double(digits) else { throw mismatch(value, Self.self) }
      self = double
    default: throw mismatch(value, Self.self)
    }
  }
}

extension Float: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    self = Float(try Double(_$recorded: value))
  }
}

extension UUID: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .uuid(let uuid) = value else { throw mismatch(value, Self.self) }
    self = uuid
  }
}

extension Date: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .date(let seconds) = value else { throw mismatch(value, Self.self) }
    self = Date(timeIntervalSince1970: seconds)
  }
}

extension Duration: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .duration(let seconds) = value else { throw mismatch(value, Self.self) }
    self.init(recordedSeconds: seconds)
  }
}

/// An integer of any width from its recorded digits.
extension RecordDecodable where Self: FixedWidthInteger {
  public init(_$recorded value: RecordedValue) throws {
    guard case .integer(let digits) = value else { throw mismatch(value, Self.self) }
    guard let integer = Self(digits) else {
      throw RecordDecodingError("\(digits) does not fit in \(Self.self)")
    }
    self = integer
  }
}

extension Int: RecordDecodable {}
extension Int8: RecordDecodable {}
extension Int16: RecordDecodable {}
extension Int32: RecordDecodable {}
extension Int64: RecordDecodable {}
extension UInt: RecordDecodable {}
extension UInt8: RecordDecodable {}
extension UInt16: RecordDecodable {}
extension UInt32: RecordDecodable {}
extension UInt64: RecordDecodable {}

func mismatch(_ value: RecordedValue, _ type: Any.Type) -> RecordDecodingError {
  RecordDecodingError(
    "expected \(RecordedValue.typeName(of: type)), found \(RecordDecoding.describe(value))")
}

// MARK: - Collections

extension Optional: RecordDecodable, _RecordPatchable {
  public init(_$recorded value: RecordedValue) throws {
    self = value == .null ? nil : try RecordDecoding.decode(Wrapped.self, from: value)
  }

  public mutating func _$patch(
    _ path: ArraySlice<RecordedChange.Component>, _ value: RecordedValue
  ) throws {
    guard !path.isEmpty else {
      self = try Self(_$recorded: value)
      return
    }
    guard var wrapped = self else {
      throw RecordDecodingError("a change reaches into a value that is nil")
    }
    try RecordDecoding.patch(&wrapped, path, value)
    self = wrapped
  }
}

extension Array: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .array(let elements) = value else { throw mismatch(value, Self.self) }
    self = try elements.enumerated().map { index, element in
      try RecordDecoding.at("[\(index)]") { try RecordDecoding.decode(Element.self, from: element) }
    }
  }
}

extension ContiguousArray: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    self = ContiguousArray(try [Element](_$recorded: value))
  }
}

extension Set: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    self = Set(try [Element](_$recorded: value))
  }
}

extension Dictionary: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .dictionary(let pairs) = value else { throw mismatch(value, Self.self) }
    self = [:]
    for pair in pairs {
      let key = try RecordDecoding.decode(Key.self, from: pair.key)
      self[key] = try RecordDecoding.at("[\(RecordDecoding.describe(pair.key))]") {
        try RecordDecoding.decode(Value.self, from: pair.value)
      }
    }
  }
}

extension IdentifiedArray: RecordDecodable, _RecordPatchable
where Element: Identifiable, ID == Element.ID {
  public init(_$recorded value: RecordedValue) throws {
    guard case .identified(let elements) = value else { throw mismatch(value, Self.self) }
    let decoded = try elements.enumerated().map { index, element in
      try RecordDecoding.at("[\(index)]") { try RecordDecoding.decode(Element.self, from: element) }
    }
    var array = Self()
    for element in decoded {
      guard array.append(element).inserted else {
        throw RecordDecodingError("two elements have the id \(element.id)")
      }
    }
    self = array
  }

  /// An element by its recorded id: changed, replaced, removed (`nil`) or appended.
  public mutating func _$patch(
    _ path: ArraySlice<RecordedChange.Component>, _ value: RecordedValue
  ) throws {
    guard let first = path.first else {
      self = try Self(_$recorded: value)
      return
    }
    guard case .element(let recordedID) = first else {
      throw RecordDecodingError("an identified array has elements, not fields")
    }
    let rest = path.dropFirst()
    let index = ids.firstIndex { RecordedValue(reflecting: $0) == recordedID }
    try RecordDecoding.at("[id: \(RecordDecoding.describe(recordedID))]") {
      switch (index, rest.isEmpty, value) {
      case (let index?, true, .null):
        remove(at: index)
      case (let index?, _, _):
        var element = self[index]
        try RecordDecoding.patch(&element, rest, value)
        guard element.id == self[index].id else {
          throw RecordDecodingError("a change would give the element another id")
        }
        self[id: element.id] = element
      case (nil, true, _):
        let element = try RecordDecoding.decode(Element.self, from: value)
        guard RecordedValue(reflecting: element.id) == recordedID else {
          throw RecordDecodingError("the element added has another id")
        }
        append(element)
      case (nil, false, _):
        throw RecordDecodingError("no element has this id")
      }
    }
  }
}

// MARK: - The runtime's types

extension Shared: RecordDecodable, _RecordPatchable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .shared(let wrapped, _) = value else { throw mismatch(value, Self.self) }
    self.init(value: try RecordDecoding.decode(Value.self, from: wrapped))
  }

  /// Writes through the reference (with its lock), so every holder of it sees the change.
  public func _$patch(_ path: ArraySlice<RecordedChange.Component>, _ value: RecordedValue)
    throws
  {
    if path.isEmpty {
      guard case .shared(let wrapped, _) = value else { throw mismatch(value, Self.self) }
      let newValue = try RecordDecoding.decode(Value.self, from: wrapped)
      withLock { $0 = newValue }
      return
    }
    var copy = wrappedValue
    try RecordDecoding.patch(&copy, path, value)
    let newValue = copy
    withLock { $0 = newValue }
  }
}

extension SharedReader: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .shared(let wrapped, _) = value else { throw mismatch(value, Self.self) }
    self.init(value: try RecordDecoding.decode(Value.self, from: wrapped))
  }
}

extension PresentationState: RecordDecodable, _RecordPatchable {
  public init(_$recorded value: RecordedValue) throws {
    self.init(wrappedValue: try State?(_$recorded: value))
  }

  public mutating func _$patch(
    _ path: ArraySlice<RecordedChange.Component>, _ value: RecordedValue
  ) throws {
    try wrappedValue._$patch(path, value)
  }
}

extension StackElementID: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    self.init(generation: try Int(_$recorded: value))
  }
}

extension StackState: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .stack(let entries) = value else { throw mismatch(value, Self.self) }
    self.init()
    for entry in entries {
      _dictionary[StackElementID(generation: entry.id)] = try RecordDecoding.at("[\(entry.id)]") {
        try RecordDecoding.decode(Element.self, from: entry.element)
      }
    }
  }
}

extension BindingAction: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .binding(let field, let fieldValue) = value else {
      throw mismatch(value, Self.self)
    }
    guard let root = Root.self as? any ObservableState.Type else {
      throw RecordDecodingError(
        "a binding of \(RecordedValue.typeName(of: Root.self)) needs an @ObservableState state")
    }
    guard
      let action = try RecordDecoding.at(field, { try root._$recordedBinding(field, fieldValue) })
        as? Self
    else {
      throw RecordDecodingError("\(root) made a binding action of another state")
    }
    self = action
  }
}

extension PresentationAction: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    let (name, payload) = try RecordDecoding.enumCase(of: value, type: "PresentationAction")
    switch name {
    case "dismiss": self = .dismiss
    case "presented":
      self = .presented(try RecordDecoding.payload(payload, 0, label: "", of: name))
    default: throw RecordDecoding.unknownCase(name, of: "PresentationAction")
    }
  }
}

extension StackAction: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    let (name, payload) = try RecordDecoding.enumCase(of: value, type: "StackAction")
    switch name {
    case "element":
      self = .element(
        id: try RecordDecoding.payload(payload, 0, label: "id", of: name),
        action: try RecordDecoding.payload(payload, 1, label: "action", of: name))
    case "popFrom":
      self = .popFrom(id: try RecordDecoding.payload(payload, 0, label: "id", of: name))
    case "push":
      self = .push(
        id: try RecordDecoding.payload(payload, 0, label: "id", of: name),
        state: try RecordDecoding.payload(payload, 1, label: "state", of: name))
    default: throw RecordDecoding.unknownCase(name, of: "StackAction")
    }
  }
}

extension IdentifiedAction: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    let (name, payload) = try RecordDecoding.enumCase(of: value, type: "IdentifiedAction")
    guard name == "element" else { throw RecordDecoding.unknownCase(name, of: "IdentifiedAction") }
    self = .element(
      id: try RecordDecoding.payload(payload, 0, label: "id", of: name),
      action: try RecordDecoding.payload(payload, 1, label: "action", of: name))
  }
}

extension Result: RecordDecodable {
  /// A failure recorded as an error the type says only `any Error` about is thrown again as a
  /// ``RecordedError``, which describes itself as the original did.
  public init(_$recorded value: RecordedValue) throws {
    let (name, payload) = try RecordDecoding.enumCase(of: value, type: "Result")
    switch name {
    case "success":
      self = .success(try RecordDecoding.payload(payload, 0, label: "", of: name))
    case "failure":
      guard let field = payload.first, payload.count == 1 else {
        throw RecordDecodingError("case failure has no error in the record")
      }
      if case .error(let type, let description) = field.value, Failure.self == (any Error).self {
        self = .failure(RecordedError(description, originalType: type) as! Failure)
      } else {
        self = .failure(
          try RecordDecoding.at("failure") {
            try RecordDecoding.decode(Failure.self, from: field.value)
          })
      }
    default: throw RecordDecoding.unknownCase(name, of: "Result")
    }
  }
}

extension RecordedError: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .error(_, let description) = value else { throw mismatch(value, Self.self) }
    self.init(description)
  }
}

extension TextState: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .text(let string) = value else { throw mismatch(value, Self.self) }
    self.init(string)
  }
}

extension ButtonState {
  init(_$recorded button: RecordedValue.Button) throws {
    var role: ButtonStateRole?
    if let name = button.role {
      guard let known = ButtonStateRole(rawValue: name) else {
        throw RecordDecodingError("\(name) is not a button role")
      }
      role = known
    }
    let action = try button.action.map { try RecordDecoding.decode(Action.self, from: $0) }
    self.init(role: role, action: .send(action)) { TextState(button.label) }
  }
}

extension AlertState: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .alert(let alert) = value, alert.kind == "AlertState" else {
      throw mismatch(value, Self.self)
    }
    let buttons = try alert.buttons.map { try ButtonState<Action>(_$recorded: $0) }
    self.init(
      title: { TextState(alert.title) }, actions: { buttons },
      message: alert.message.map { message in { TextState(message) } })
  }
}

extension ConfirmationDialogState: RecordDecodable {
  public init(_$recorded value: RecordedValue) throws {
    guard case .alert(let alert) = value, alert.kind == "ConfirmationDialogState" else {
      throw mismatch(value, Self.self)
    }
    let visibility: ConfirmationDialogStateTitleVisibility
    switch alert.titleVisibility {
    case "visible": visibility = .visible
    case "hidden": visibility = .hidden
    case "automatic", nil: visibility = .automatic
    case let other?: throw RecordDecodingError("\(other) is not a title visibility")
    }
    let buttons = try alert.buttons.map { try ButtonState<Action>(_$recorded: $0) }
    self.init(
      titleVisibility: visibility, title: { TextState(alert.title) }, actions: { buttons },
      message: alert.message.map { message in { TextState(message) } })
  }
}
