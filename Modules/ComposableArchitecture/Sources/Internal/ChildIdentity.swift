@_spi(Reflection) import CasePaths

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The identity of a child state: which property holds it, which enum case it is in, and its
/// `Identifiable` id. Replacing a child with one of another identity (or removing it) cancels the
/// old child's effects; replacing it with an equal identity does not.
@usableFromInline
struct ChildIdentity: Hashable, Sendable {
  let keyPath: IdentifierBox
  let caseName: String?
  let id: IdentifierBox?

  init<Root, Value>(keyPath: KeyPath<Root, Value>, value: Any) {
    self.keyPath = IdentifierBox(keyPath)
    self.caseName = enumCaseName(of: value)
    self.id = identifier(of: value)
  }

  init(keyPath: IdentifierBox, value: Any) {
    self.keyPath = keyPath
    self.caseName = enumCaseName(of: value)
    self.id = identifier(of: value)
  }

  @usableFromInline
  init(keyPath: IdentifierBox, id: some Hashable & Sendable) {
    self.keyPath = keyPath
    self.caseName = nil
    self.id = IdentifierBox(id)
  }

  @usableFromInline
  var pathComponent: AnyHashableSendable { AnyHashableSendable(self) }
}

private func enumCaseName(of value: Any) -> String? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  return mirror.children.first?.label ?? String(describing: value)
}

/// A key path or an `Identifiable.id` of a child state, type-erased for comparison. Key paths are
/// compared by value: a key path built in `body` is a new object on every action.
///
/// It is `@unchecked Sendable` because neither `AnyKeyPath` nor `Identifiable.id` carries a
/// `Sendable` constraint that could be checked at run time. The box is immutable and is only
/// hashed and compared; key paths are immutable, and ids of state are plain values (UUIDs,
/// integers, strings) in every feature of this project.
@usableFromInline
struct IdentifierBox: Hashable, @unchecked Sendable {
  let value: AnyHashable
  @usableFromInline
  init(_ value: some Hashable) { self.value = AnyHashable(value) }
}

private func identifier(of value: Any) -> IdentifierBox? {
  func open<T: Identifiable>(_ value: T) -> IdentifierBox? {
    IdentifierBox(value.id)
  }
  if let identifiable = value as? any Identifiable {
    return open(identifiable)
  }
  // An enum whose payload is identifiable (a destination enum) is identified by its payload.
  let mirror = Mirror(reflecting: value)
  if mirror.displayStyle == .enum, let payload = mirror.children.first?.value,
    let identifiable = payload as? any Identifiable
  {
    return open(identifiable)
  }
  return nil
}

/// Decides, cheaply, whether two values of a child state are the same child: the same enum case
/// and the same `Identifiable` id (of the value, or of an enum case's payload). Operators compare
/// a child before and after the parent runs on every action that passes them, so this is on the
/// hot path: it is inlinable, and for an `Identifiable` state the optimizer turns the id
/// comparison into a direct one. A boxed ``ChildIdentity`` is made only when an effect needs one.
@usableFromInline
struct _ChildIdentification<Value> {
  @usableFromInline let keyPath: IdentifierBox
  @usableFromInline let sameID: ((Value, Value) -> Bool)?
  /// The enum case of a value, for enum states.
  @usableFromInline let caseTag: ((Value) -> UInt32)?

  @inlinable
  init(keyPath: IdentifierBox) {
    self.keyPath = keyPath
    if let identifiable = Value.self as? any Identifiable.Type {
      self.sameID = _idEquality(of: Value.self, as: identifiable)
    } else {
      self.sameID = nil
    }
    self.caseTag = _enumCaseTag(of: Value.self)
  }

  /// Whether `lhs` and `rhs` are the same child.
  @inlinable
  func isSame(_ lhs: Value, _ rhs: Value) -> Bool {
    if let caseTag {
      guard caseTag(lhs) == caseTag(rhs) else { return false }
      if let sameID { return sameID(lhs, rhs) }
      // A case whose payload may be identifiable: compare the payloads' ids.
      return identity(of: lhs) == identity(of: rhs)
    }
    if let sameID { return sameID(lhs, rhs) }
    return true
  }

  /// Whether the optional children `lhs` and `rhs` are the same (both absent counts as same).
  ///
  /// Two copies of a child the parent did not touch are bit for bit the same, which settles the
  /// common case without looking at cases or ids.
  @inlinable
  func isSame(_ lhs: Value?, _ rhs: Value?) -> Bool {
    if _areBitwiseEqual(lhs, rhs) { return true }
    guard let lhs else { return rhs == nil }
    guard let rhs else { return false }
    return isSame(lhs, rhs)
  }

  /// The boxed identity, for cancellation identifiers and effect paths.
  @usableFromInline
  func identity(of value: Value) -> ChildIdentity {
    ChildIdentity(keyPath: keyPath, value: value)
  }
}

/// Whether two values have the same bits, which means they are the same value (the converse
/// does not hold: equal values may differ in padding or storage).
@inlinable
func _areBitwiseEqual<Value>(_ lhs: Value, _ rhs: Value) -> Bool {
  withUnsafeBytes(of: lhs) { lhs in
    withUnsafeBytes(of: rhs) { rhs in
      lhs.count == 0 || memcmp(lhs.baseAddress!, rhs.baseAddress!, lhs.count) == 0
    }
  }
}

/// Compares the ids of two values of `Value`, which is the `Identifiable` type `type`.
@inlinable
func _idEquality<Value, Identified: Identifiable>(
  of _: Value.Type, as type: Identified.Type
) -> (Value, Value) -> Bool {
  { lhs, rhs in
    unsafeBitCast(lhs, to: Identified.self).id == unsafeBitCast(rhs, to: Identified.self).id
  }
}

/// The enum case of a value of `Value`, or `nil` when `Value` is not an enum.
@usableFromInline
func _enumCaseTag<Value>(of _: Value.Type) -> ((Value) -> UInt32)? {
  guard let metadata = EnumMetadata(Value.self) else { return nil }
  return { metadata.tag(of: $0) }
}
