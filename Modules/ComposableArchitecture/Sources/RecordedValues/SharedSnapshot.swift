import Sharing

/// The values of some shared references at one moment, by reference.
@usableFromInline
package struct _SharedSnapshot: @unchecked Sendable {
  // Values of shared state, read only while a record is written.
  let values: [ObjectIdentifier: Any]

  @usableFromInline
  package init?(_ roots: [_SharedRootBase]) {
    guard !roots.isEmpty else { return nil }
    var values: [ObjectIdentifier: Any] = [:]
    for root in roots { values[ObjectIdentifier(root)] = root.liveValue() }
    self.values = values
  }

  /// The snapshot a record is being written from: shared values are read from it.
  @TaskLocal package static var current: _SharedSnapshot?

  /// A shared value as recorded: the value its reference had in the current snapshot, or, for a
  /// member projected from one (`$a.b`) or a reference made later, the value it has now.
  static func recordedValue<Value>(
    of box: _SharedReadableBox<Value>, now: Value, readOnly: Bool
  ) -> RecordedValue {
    let snapshotted =
      box is _SharedRootBox<Value> ? current?.values[ObjectIdentifier(box.root)] as? Value : nil
    return .shared(RecordedValue(reflecting: snapshotted ?? now), readOnly: readOnly)
  }
}
