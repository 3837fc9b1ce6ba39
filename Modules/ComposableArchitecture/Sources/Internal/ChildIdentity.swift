/// The identity of a child state: which property holds it, which enum case it is in, and its
/// `Identifiable` id. Replacing a child with one of another identity (or removing it) cancels the
/// old child's effects; replacing it with an equal identity does not.
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

  init(keyPath: IdentifierBox, id: some Hashable & Sendable) {
    self.keyPath = keyPath
    self.caseName = nil
    self.id = IdentifierBox(id)
  }

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
