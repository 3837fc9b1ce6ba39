/// The identity of a child state: which property holds it, which enum case it is in, and its
/// `Identifiable` id. Replacing a child with one of another identity (or removing it) cancels the
/// old child's effects; replacing it with an equal identity does not.
struct ChildIdentity: Hashable, Sendable {
  let keyPath: AnyHashableSendable
  let caseName: String?
  let id: IdentifierBox?

  init<Root, Value>(keyPath: KeyPath<Root, Value>, value: Any) {
    self.keyPath = AnyHashableSendable(ObjectIdentifier(keyPath))
    self.caseName = enumCaseName(of: value)
    self.id = identifier(of: value)
  }

  init(keyPath: AnyHashableSendable, value: Any) {
    self.keyPath = keyPath
    self.caseName = enumCaseName(of: value)
    self.id = identifier(of: value)
  }

  init(keyPath: AnyHashableSendable, id: some Hashable & Sendable) {
    self.keyPath = keyPath
    self.caseName = nil
    self.id = IdentifierBox(AnyHashable(id))
  }

  var pathComponent: AnyHashableSendable { AnyHashableSendable(self) }
}

private func enumCaseName(of value: Any) -> String? {
  let mirror = Mirror(reflecting: value)
  guard mirror.displayStyle == .enum else { return nil }
  return mirror.children.first?.label ?? String(describing: value)
}

/// The `Identifiable.id` of a child state, type-erased for comparison.
///
/// It is `@unchecked Sendable` because `Identifiable.id` carries no `Sendable` constraint that
/// could be checked at run time. The box is immutable and is only hashed and compared; ids of
/// state are plain values (UUIDs, integers, strings) in every feature of this project.
struct IdentifierBox: Hashable, @unchecked Sendable {
  let value: AnyHashable
  init(_ value: AnyHashable) { self.value = value }
}

private func identifier(of value: Any) -> IdentifierBox? {
  func open<T: Identifiable>(_ value: T) -> IdentifierBox? {
    IdentifierBox(AnyHashable(value.id))
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
