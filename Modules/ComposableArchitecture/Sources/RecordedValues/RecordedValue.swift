import Foundation
import Synchronization

/// A value of a recorded session — a state, an action, a dependency's answer — as a tree a
/// person can read and a test writer can turn back into Swift source.
///
/// It is made by reflection (``init(reflecting:)``), so a feature needs no conformance to be
/// recorded: a struct becomes its type name and stored properties (an `@ObservableState` field
/// under its own name, without the macro's bookkeeping), an enum its case and payload, a
/// collection its elements. The runtime's own types say what they mean (``RecordedValueConvertible``):
/// `@Shared` is a shared value, `@Presents` the optional it presents, an `IdentifiedArray` its
/// elements in order, a `BindingAction` the field it sets. What reflection cannot show as a value
/// (a closure, an object) is ``unsupported(_:)``, and a test writer says so instead of guessing.
public indirect enum RecordedValue: Equatable, Sendable {
  case null
  case bool(Bool)
  /// An integer of any width, as its decimal digits.
  case integer(String)
  case double(Double)
  case string(String)
  case uuid(UUID)
  /// A date, as seconds since 1970.
  case date(Double)
  /// A duration, in seconds.
  case duration(Double)
  /// An array, a set, or another collection written as an array literal.
  case array([RecordedValue])
  case dictionary([Pair])
  case tuple([Field])
  /// A struct: its type (without module names; with a `?` when it is the value of an optional)
  /// and stored properties, in declaration order. `isState`: an `@ObservableState` struct, whose
  /// fields a test changes one by one (another struct, a model, is replaced whole: its fields
  /// may be constants).
  case structure(type: String, fields: [Field], isState: Bool)
  /// An enum case and its payload; an unlabeled payload value has an empty label. (Its type is
  /// what the context of the value says.)
  case enumeration(name: String, payload: [Field])
  /// `Shared` (`readOnly`: `SharedReader`): a value shared by reference.
  case shared(RecordedValue, readOnly: Bool)
  /// An `IdentifiedArray`: its elements, in order.
  case identified([RecordedValue])
  /// A `StackState`: each element with the id the stack gave it.
  case stack([StackEntry])
  /// A `BindingAction`: the field it sets and the value.
  case binding(field: String, value: RecordedValue)
  case text(String)
  /// An `AlertState` or a `ConfirmationDialogState`.
  case alert(Alert)
  /// An error where the type says only `any Error`: its type and the description the user saw.
  case error(type: String, description: String)
  /// What reflection cannot show as a value: its type.
  case unsupported(String)

  public struct Field: Equatable, Sendable {
    public var label: String
    public var value: RecordedValue
    public init(_ label: String, _ value: RecordedValue) {
      self.label = label
      self.value = value
    }
  }

  public struct Pair: Equatable, Sendable {
    public var key: RecordedValue
    public var value: RecordedValue
    public init(_ key: RecordedValue, _ value: RecordedValue) {
      self.key = key
      self.value = value
    }
  }

  public struct StackEntry: Equatable, Sendable {
    public var id: Int
    public var element: RecordedValue
    public init(id: Int, element: RecordedValue) {
      self.id = id
      self.element = element
    }
  }

  public struct Alert: Equatable, Sendable {
    /// `AlertState` or `ConfirmationDialogState`.
    public var kind: String
    /// A dialog's title visibility (`visible`, `hidden`, `automatic`); `nil` for an alert.
    public var titleVisibility: String?
    public var title: String
    public var message: String?
    public var buttons: [Button]
    public init(
      kind: String, titleVisibility: String?, title: String, message: String?, buttons: [Button]
    ) {
      self.kind = kind
      self.titleVisibility = titleVisibility
      self.title = title
      self.message = message
      self.buttons = buttons
    }
  }

  public struct Button: Equatable, Sendable {
    public var role: String?
    public var action: RecordedValue?
    public var label: String
    public init(role: String?, action: RecordedValue?, label: String) {
      self.role = role
      self.action = action
      self.label = label
    }
  }
}

extension RecordedValue {
  /// Equal values — where a struct's field that one side lacks counts as `null` on that side.
  ///
  /// That is how a record outlives a new optional field: a record made before `Result` gained
  /// `matchedName: String?` has no such field, and today's reducers write `null` there; both
  /// say "none". (A field that is not optional is never `null`, so a record that lacks one still
  /// differs.)
  public static func == (lhs: RecordedValue, rhs: RecordedValue) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): true
    case (.bool(let a), .bool(let b)): a == b
    case (.integer(let a), .integer(let b)): a == b
    case (.double(let a), .double(let b)): a == b
    case (.string(let a), .string(let b)): a == b
    case (.uuid(let a), .uuid(let b)): a == b
    case (.date(let a), .date(let b)): a == b
    case (.duration(let a), .duration(let b)): a == b
    case (.array(let a), .array(let b)): a == b
    case (.dictionary(let a), .dictionary(let b)): a == b
    case (.tuple(let a), .tuple(let b)): a == b
    case (
      .structure(let typeA, let fieldsA, let stateA), .structure(let typeB, let fieldsB, let stateB)
    ):
      typeA == typeB && stateA == stateB && sameFields(fieldsA, fieldsB)
    case (.enumeration(let nameA, let payloadA), .enumeration(let nameB, let payloadB)):
      nameA == nameB && payloadA == payloadB
    case (.shared(let a, let readOnlyA), .shared(let b, let readOnlyB)):
      a == b && readOnlyA == readOnlyB
    case (.identified(let a), .identified(let b)): a == b
    case (.stack(let a), .stack(let b)): a == b
    case (.binding(let fieldA, let a), .binding(let fieldB, let b)): fieldA == fieldB && a == b
    case (.text(let a), .text(let b)): a == b
    case (.alert(let a), .alert(let b)): a == b
    case (.error(let typeA, let a), .error(let typeB, let b)): typeA == typeB && a == b
    case (.unsupported(let a), .unsupported(let b)): a == b
    default: false
    }
  }

  /// The fields of two structs are the same, a field missing on one side counting as `null`.
  private static func sameFields(_ a: [Field], _ b: [Field]) -> Bool {
    // Almost always the same labels in the same order: compare them pairwise.
    if a.count == b.count, zip(a, b).allSatisfy({ $0.label == $1.label }) {
      return zip(a, b).allSatisfy { $0.value == $1.value }
    }
    func value(of label: String, in fields: [Field]) -> RecordedValue {
      fields.first { $0.label == label }?.value ?? .null
    }
    return a.allSatisfy { $0.value == value(of: $0.label, in: b) }
      && b.allSatisfy { field in a.contains { $0.label == field.label } || field.value == .null }
  }
}

/// A value that says itself how it is recorded, instead of by reflection. The runtime's property
/// wrappers and navigation types conform; a feature's own types need not.
public protocol RecordedValueConvertible {
  var recordedValue: RecordedValue { get }
}

extension RecordedValue {
  /// The recorded form of any value.
  public init(reflecting value: Any) {
    if let convertible = value as? any RecordedValueConvertible {
      self = convertible.recordedValue
      return
    }
    switch value {
    case let value as Bool: self = .bool(value)
    case let value as any BinaryInteger: self = .integer(String(value))
    case let value as Double: self = .double(value)
    case let value as Float: self = .double(Double(value))
    case let value as String: self = .string(value)
    case let value as Substring: self = .string(String(value))
    case let value as UUID: self = .uuid(value)
    case let value as Date: self = .date(value.timeIntervalSince1970)
    case let value as Duration: self = .duration(value.seconds)
    default: self = Self.reflect(value)
    }
  }

  private static func reflect(_ value: Any) -> RecordedValue {
    let mirror = Mirror(reflecting: value)
    switch mirror.displayStyle {
    case .optional:
      guard let wrapped = mirror.children.first?.value else { return .null }
      // A struct in an optional says so in its type (`Forecast?`), so that a change inside it
      // is written through `?.`.
      if case .structure(let type, let fields, let isState) = RecordedValue(reflecting: wrapped) {
        return .structure(type: type + "?", fields: fields, isState: isState)
      }
      return RecordedValue(reflecting: wrapped)
    case .collection, .set:
      return .array(mirror.children.map { RecordedValue(reflecting: $0.value) })
    case .dictionary:
      return .dictionary(
        mirror.children.map { child in
          let pair = Array(Mirror(reflecting: child.value).children)
          return Pair(
            RecordedValue(reflecting: pair.first?.value as Any),
            RecordedValue(reflecting: pair.last?.value as Any))
        })
    case .tuple:
      return .tuple(fields(of: mirror))
    case .enum:
      guard let child = mirror.children.first, let name = child.label else {
        return .enumeration(name: String(describing: value), payload: [])
      }
      let payload = Mirror(reflecting: child.value)
      if payload.displayStyle == .tuple {
        return .enumeration(name: name, payload: fields(of: payload))
      }
      return .enumeration(name: name, payload: [Field("", RecordedValue(reflecting: child.value))])
    case .struct:
      return .structure(
        type: typeName(of: type(of: value)), fields: storedFields(of: mirror),
        isState: value is any ObservableState)
    default:
      return .unsupported(typeName(of: type(of: value)))
    }
  }

  /// A tuple's elements: `.0` labels are written as no label.
  private static func fields(of mirror: Mirror) -> [Field] {
    mirror.children.map { child in
      let label = child.label ?? ""
      return Field(label.hasPrefix(".") ? "" : label, RecordedValue(reflecting: child.value))
    }
  }

  /// A struct's stored properties under the names its source gives them: a property wrapper's
  /// or an observable state's storage `_name` is `name`; the observation registrar and the
  /// state's identity are left out.
  private static func storedFields(of mirror: Mirror) -> [Field] {
    mirror.children.compactMap { child in
      guard var label = child.label, !label.hasPrefix("_$"), !label.hasPrefix("$__lazy") else {
        return nil
      }
      if label.hasPrefix("_") { label.removeFirst() }
      return Field(label, RecordedValue(reflecting: child.value))
    }
  }

  /// A type's name as Swift source outside its module writes it: without module names
  /// (`IdentifiedArray<UUID, Counter.State>`).
  public static func typeName(of type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames.withLock({ $0[key] }) { return name }
    let name = writeTypeName(of: type)
    typeNames.withLock { $0[key] = name }
    return name
  }

  /// The names written so far: a state of twenty structs is reflected at every recorded step
  /// and every time a server's idle session goes to sleep.
  private static let typeNames = Mutex<[ObjectIdentifier: String]>([:])

  private static func writeTypeName(of type: Any.Type) -> String {
    var result = ""
    var path: [Substring] = []
    var component = ""
    func endPath() {
      if !component.isEmpty { path.append(Substring(component)) }
      // The first component of a dotted path is the module.
      result += path.dropFirst(path.count > 1 ? 1 : 0).joined(separator: ".")
      path = []
      component = ""
    }
    for character in String(reflecting: type) {
      if character.isLetter || character.isNumber || character == "_" {
        component.append(character)
      } else if character == ".", !component.isEmpty {
        path.append(Substring(component))
        component = ""
      } else {
        endPath()
        result.append(character)
      }
    }
    endPath()
    return result.replacingOccurrences(of: "<Error>", with: "<any Error>")
      .replacingOccurrences(of: ", Error>", with: ", any Error>")
  }
}

extension Duration {
  /// The duration in seconds, as a `Double`.
  package var seconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// A recorded time in seconds, to the nanosecond.
  package init(recordedSeconds seconds: Double) {
    let whole = seconds.rounded(.towardZero)
    self = .seconds(Int64(whole)) + .nanoseconds(Int64(((seconds - whole) * 1e9).rounded()))
  }
}
