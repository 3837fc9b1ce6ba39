import Observation
import Synchronization

/// What the ``ObservableState()`` macro stores in a state value: its identity and the
/// Observation registrar its accessors report to.
///
/// Copies of a value share the registrar, so a front end that read `store.state.count` is told
/// when the store's reducer writes `count`. It takes no part in equality, hashing or coding: two
/// states are equal when their fields are.
public struct ObservationStateRegistrar: Sendable {
  /// The identity of the state that holds this registrar.
  public private(set) var id = ObservableStateID()
  @usableFromInline let registrar = ObservationRegistrar()

  public init() {}

  /// Gives the state a new identity.
  public mutating func _$willModify() {
    id._$willModify()
  }
}

extension ObservationStateRegistrar: Equatable, Hashable, Codable {
  public static func == (_: Self, _: Self) -> Bool { true }
  public func hash(into hasher: inout Hasher) {}
  public init(from decoder: any Decoder) throws { self.init() }
  public func encode(to encoder: any Encoder) throws {}
}

extension ObservationStateRegistrar {
  /// Reports a read of a field.
  @inlinable
  public func access<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>
  ) {
    registrar.access(subject, keyPath: keyPath)
  }

  /// Writes a field, reporting the write unless the new value is the same for observation, or
  /// `shouldNotifyObservers` says the write changes nothing (an equal value).
  @inlinable
  public func mutate<Subject: Observable, Member, Value>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ value: inout Value,
    _ newValue: Value,
    _ isIdentityEqual: (Value, Value) -> Bool,
    _ shouldNotifyObservers: (Value, Value) -> Bool = { _, _ in true }
  ) {
    if isIdentityEqual(value, newValue) || !shouldNotifyObservers(value, newValue) {
      value = newValue
    } else {
      registrar.withMutation(of: subject, keyPath: keyPath) {
        value = newValue
      }
    }
  }

  /// Before a field is modified in place: gives an observable field a new identity.
  @inlinable
  public func willModify<Subject: Observable, Member>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ member: inout Member
  ) -> Member {
    member
  }

  /// Before an observable field is modified in place: gives it a new identity.
  @inlinable
  public func willModify<Subject: Observable, Member: ObservableState>(
    _ subject: Subject, keyPath: KeyPath<Subject, Member>, _ member: inout Member
  ) -> Member {
    member._$willModify()
    return member
  }

  /// After a field was modified in place: reports the write unless it left the field the same
  /// for observation.
  @inlinable
  public func didModify<Subject: Observable, Member>(
    _ subject: Subject,
    keyPath: KeyPath<Subject, Member>,
    _ member: inout Member,
    _ oldValue: Member,
    _ isIdentityEqual: (Member, Member) -> Bool,
    _ shouldNotifyObservers: (Member, Member) -> Bool = { _, _ in true }
  ) {
    if !isIdentityEqual(oldValue, member) {
      let newValue = member
      member = oldValue
      mutate(
        subject, keyPath: keyPath, &member, newValue, isIdentityEqual, shouldNotifyObservers)
    }
  }
}

/// The key path of a field of an observable state in a generic context (a generic state, or one
/// nested in a generic type), made once per state type and field and then looked up.
///
/// A key path literal whose root is generic is built again by the Swift runtime at every
/// evaluation: it resolves each generic argument by its mangled name and allocates a new object,
/// a microsecond or more. A state's accessors evaluate one at every read and write, so a view
/// reading three fields of each of fifty rows spent most of its time there. A non-generic
/// literal is made once by the compiler's own cache, so ``ObservableState()`` writes this call
/// only where the root is generic.
///
/// - Parameters:
///   - field: The field's name, as a literal: together with the root and member types, it names
///     the key path.
///   - make: Makes the key path, on the first use for this root, member and field.
public func _$observableKeyPath<Root, Member>(
  _ field: StaticString, _ make: () -> KeyPath<Root, Member>
) -> KeyPath<Root, Member> {
  let key = ObservableKeyPathKey(
    root: ObjectIdentifier(Root.self), member: ObjectIdentifier(Member.self),
    field: field.hasPointerRepresentation
      ? UInt(bitPattern: field.utf8Start)
      : UInt(field.unicodeScalar.value) | 1 << (UInt.bitWidth - 1))
  if let stored = observableKeyPaths.withLock({ $0[key] }) {
    return unsafeDowncast(stored.keyPath, to: KeyPath<Root, Member>.self)
  }
  let keyPath = make()
  let stored = StoredKeyPath(keyPath: keyPath)
  observableKeyPaths.withLock { $0[key] = stored }
  return keyPath
}

/// Names a key path of ``_$observableKeyPath(_:_:)``: the two types, and the field literal's
/// address, which is the same at every evaluation of one accessor (or, for a one-letter name,
/// which the literal holds as a scalar instead, the scalar with the top bit set).
private struct ObservableKeyPathKey: Hashable {
  let root: ObjectIdentifier
  let member: ObjectIdentifier
  let field: UInt
}

/// A key path to a stored field: immutable once made, so any thread may use it.
private struct StoredKeyPath: @unchecked Sendable {
  let keyPath: AnyKeyPath
}

private let observableKeyPaths = Mutex<[ObservableKeyPathKey: StoredKeyPath]>([:])
