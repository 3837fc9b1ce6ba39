/// One change between two recorded states: the value now at a path.
public struct RecordedChange: Equatable, Sendable {
  public enum Component: Equatable, Sendable {
    /// A stored property.
    case field(String)
    /// An element of an `IdentifiedArray`, by its id.
    case element(id: RecordedValue)
  }

  public var path: [Component]
  /// The new value; ``RecordedValue/null`` at an element that was removed.
  public var value: RecordedValue

  public init(path: [Component], value: RecordedValue) {
    self.path = path
    self.value = value
  }

  /// Whether the change is to a `SharedReader`, which changes with the value it reads.
  public var isReadOnlyShare: Bool {
    if case .shared(_, readOnly: true) = value { true } else { false }
  }
}

extension RecordedValue {
  /// The changes that turn `old` into `new`, as a developer asserts them: into a struct field by
  /// field, into an identified array element by element (appended and removed elements as
  /// such), a shared value as one change; anything else is replaced whole. A read-only shared
  /// value is a change too (``RecordedChange/isReadOnlyShare``): a test asserts the value it
  /// reads instead.
  public static func changes(from old: RecordedValue, to new: RecordedValue) -> [RecordedChange] {
    var changes: [RecordedChange] = []
    collect(from: old, to: new, at: [], into: &changes)
    return changes
  }

  private static func collect(
    from old: RecordedValue, to new: RecordedValue, at path: [RecordedChange.Component],
    into changes: inout [RecordedChange]
  ) {
    guard old != new else { return }
    switch (old, new) {
    case (
      .structure(let oldType, let oldFields, true), .structure(let newType, let newFields, true)
    )
    where oldType == newType
      && Set(newFields.map(\.label)).isSuperset(of: oldFields.map(\.label)):
      // Field by field; a field only the new value has is a change of its own (one its type
      // may lack: patching it says so, naming the field).
      for newField in newFields {
        if let oldField = oldFields.first(where: { $0.label == newField.label }) {
          collect(
            from: oldField.value, to: newField.value, at: path + [.field(newField.label)],
            into: &changes)
        } else {
          changes.append(
            RecordedChange(path: path + [.field(newField.label)], value: newField.value))
        }
      }
    case (.identified(let oldElements), .identified(let newElements)):
      collectElements(from: oldElements, to: newElements, at: path, into: &changes)
    default:
      changes.append(RecordedChange(path: path, value: new))
    }
  }

  /// Elements kept in the same order are compared one by one, removed ones become `nil`, new
  /// ones at the end are added; any other reordering replaces the array.
  private static func collectElements(
    from old: [RecordedValue], to new: [RecordedValue], at path: [RecordedChange.Component],
    into changes: inout [RecordedChange]
  ) {
    let oldIDs = old.map(\.identity)
    let newIDs = new.map(\.identity)
    guard !oldIDs.contains(nil), !newIDs.contains(nil) else {
      changes.append(RecordedChange(path: path, value: .identified(new)))
      return
    }
    let kept = newIDs.filter { oldIDs.contains($0) }
    let keptInOldOrder = oldIDs.filter { newIDs.contains($0) }
    let added = newIDs.dropFirst(kept.count)
    guard kept == keptInOldOrder, Array(newIDs.prefix(kept.count)) == kept,
      !added.contains(where: { kept.contains($0) })
    else {
      changes.append(RecordedChange(path: path, value: .identified(new)))
      return
    }
    for (index, id) in oldIDs.enumerated() {
      guard let id else { continue }
      if let newIndex = newIDs.firstIndex(of: id) {
        collect(from: old[index], to: new[newIndex], at: path + [.element(id: id)], into: &changes)
      } else {
        changes.append(RecordedChange(path: path + [.element(id: id)], value: .null))
      }
    }
    for (index, id) in newIDs.enumerated().dropFirst(kept.count) {
      guard let id else { continue }
      changes.append(RecordedChange(path: path + [.element(id: id)], value: new[index]))
    }
  }

  /// An element's `id` field, if it is a struct with one: how an identified array finds it.
  public var identity: RecordedValue? {
    guard case .structure(_, let fields, _) = self else { return nil }
    return fields.first { $0.label == "id" }?.value
  }

  /// This value with `change` made.
  public func applying(_ change: RecordedChange) -> RecordedValue? {
    applying(change.value, at: change.path[...])
  }

  private func applying(_ value: RecordedValue, at path: ArraySlice<RecordedChange.Component>)
    -> RecordedValue?
  {
    guard let first = path.first else { return value }
    let rest = path.dropFirst()
    switch (self, first) {
    case (.structure(let type, var fields, let isState), .field(let label)):
      guard let index = fields.firstIndex(where: { $0.label == label }),
        let changed = fields[index].value.applying(value, at: rest)
      else { return nil }
      fields[index].value = changed
      return .structure(type: type, fields: fields, isState: isState)
    case (.identified(var elements), .element(let id)):
      if let index = elements.firstIndex(where: { $0.identity == id }) {
        if rest.isEmpty, value == .null {
          elements.remove(at: index)
        } else {
          guard let changed = elements[index].applying(value, at: rest) else { return nil }
          elements[index] = changed
        }
      } else {
        guard rest.isEmpty, value.identity == id else { return nil }
        elements.append(value)
      }
      return .identified(elements)
    default:
      return nil
    }
  }
}
