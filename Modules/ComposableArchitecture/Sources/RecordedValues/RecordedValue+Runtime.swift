import Foundation

// How the runtime's own types are recorded: as what they mean to a feature, not as their storage.

// A shared value is written as it was at the step being written (see `_SharedSnapshot`).

extension Shared: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    _SharedSnapshot.recordedValue(of: box, now: wrappedValue, readOnly: false)
  }
}

extension SharedReader: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    _SharedSnapshot.recordedValue(of: box, now: wrappedValue, readOnly: true)
  }
}

extension PresentationState: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    wrappedValue.map { RecordedValue(reflecting: $0) } ?? .null
  }
}

extension StackState: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    .stack(
      _dictionary.elements.map { id, element in
        RecordedValue.StackEntry(id: id.generation, element: RecordedValue(reflecting: element))
      })
  }
}

extension StackElementID: RecordedValueConvertible {
  public var recordedValue: RecordedValue { .integer(String(generation)) }
}

extension IdentifiedArray: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    .identified(elements.map { RecordedValue(reflecting: $0) })
  }
}

extension BindingAction: RecordedValueConvertible {
  /// The field by the name its state's `@ObservableState` gives it; a state without names (not
  /// observable) records the action as unsupported.
  public var recordedValue: RecordedValue {
    guard let name = (Root.self as? any ObservableState.Type)?._$fieldName(of: keyPath) else {
      return .unsupported("BindingAction<\(RecordedValue.typeName(of: Root.self))>")
    }
    return .binding(field: name, value: RecordedValue(reflecting: value))
  }
}

extension TextState: RecordedValueConvertible {
  public var recordedValue: RecordedValue { .text(string) }
}

extension AlertState: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    .alert(
      RecordedValue.Alert(
        kind: "AlertState", titleVisibility: nil, title: title.string, message: message?.string,
        buttons: buttons.map(\.recordedButton)))
  }
}

extension ConfirmationDialogState: RecordedValueConvertible {
  public var recordedValue: RecordedValue {
    .alert(
      RecordedValue.Alert(
        kind: "ConfirmationDialogState", titleVisibility: "\(titleVisibility)",
        title: title.string, message: message?.string, buttons: buttons.map(\.recordedButton)))
  }
}

extension ButtonState {
  var recordedButton: RecordedValue.Button {
    RecordedValue.Button(
      role: role?.rawValue, action: action.action.map { RecordedValue(reflecting: $0) },
      label: label.string)
  }
}

extension Result: RecordedValueConvertible {
  /// A failure whose type is only `any Error` is recorded as ``RecordedValue/error(type:description:)``:
  /// a test can throw an error that describes itself the same way, not the original type.
  public var recordedValue: RecordedValue {
    switch self {
    case .success(let value):
      return .enumeration(name: "success", payload: [.init("", RecordedValue(reflecting: value))])
    case .failure(let error):
      guard Failure.self == (any Error).self else {
        return .enumeration(name: "failure", payload: [.init("", RecordedValue(reflecting: error))])
      }
      return .enumeration(
        name: "failure", payload: [.init("", RecordedValue(recordingError: error))])
    }
  }
}

extension RecordedValue {
  /// A thrown error: its dynamic type and the description a user was shown.
  public init(recordingError error: any Error) {
    // An error a replay threw again records as the original did.
    let typeName =
      (error as? RecordedError)?.originalType ?? RecordedValue.typeName(of: type(of: error))
    self = .error(type: typeName, description: error.localizedDescription)
  }
}

/// An error a recorded session saw, thrown again by a test made from the record: it describes
/// itself (`localizedDescription`) as the original did.
public struct RecordedError: LocalizedError, Equatable, Sendable {
  public var description: String
  /// The type of the error recorded, when a replay throws it again (`HTTPServiceError`); it is
  /// recorded under that name. Not part of equality.
  public var originalType: String?
  public init(_ description: String) {
    self.description = description
  }
  public init(_ description: String, originalType: String?) {
    self.description = description
    self.originalType = originalType
  }
  public static func == (lhs: Self, rhs: Self) -> Bool { lhs.description == rhs.description }
  public var errorDescription: String? { description }
}
