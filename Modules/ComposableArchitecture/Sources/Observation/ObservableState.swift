import Observation
import Synchronization

/// State whose fields can be observed with the toolchain's Observation module.
///
/// The ``ObservableState()`` macro conforms a state struct (or enum) and gives each stored
/// property accessors that report reads and writes to an ``ObservationStateRegistrar``, so that
/// `withObservationTracking` sees exactly the fields a front end read:
///
/// ```swift
/// withObservationTracking {
///   render(store.state.count)
/// } onChange: {
///   // called once, when `count` next changes; not when another field does
/// }
/// ```
///
/// `_$id` is the state's identity for observation: it changes whenever the state is modified in
/// place, so a parent can tell that a child changed without comparing it. Features never use it
/// directly.
public protocol ObservableState: Observable {
  /// The identity of this value for observation.
  var _$id: ObservableStateID { get }
  /// Gives the value a new identity: it is about to be modified in place.
  mutating func _$willModify()
  /// The name of the stored field `keyPath` leads to, for recorded binding actions.
  static func _$fieldName(of keyPath: AnyKeyPath) -> String?
  /// The binding action (a `BindingAction<Self>`) that sets the field named `field` to a
  /// recorded value, for a replay.
  static func _$recordedBinding(_ field: String, _ value: RecordedValue) throws -> Any
}

extension ObservableState {
  public static func _$fieldName(of keyPath: AnyKeyPath) -> String? { nil }
  public static func _$recordedBinding(_ field: String, _ value: RecordedValue) throws -> Any {
    throw RecordDecodingError(
      "\(RecordedValue.typeName(of: Self.self)) has no field \(field) that a binding can set")
  }
}

/// The identity of an ``ObservableState`` value for observation.
///
/// A copy shares its original's identity until either is modified in place. Two identities are
/// equal when they are the same location (or the same tagged case of an enum state).
public struct ObservableStateID: Hashable, Sendable {
  private var location: Location

  private enum Location: Hashable, Sendable {
    case unique(UInt64)
    indirect case tagged(Int, Location)
    case inert
  }

  /// Identities are numbers from one counter: a new one costs an atomic increment.
  private static let next = Atomic<UInt64>(0)

  /// A new, unique identity.
  public init() {
    self.location = .unique(Self.next.add(1, ordering: .relaxed).newValue)
  }

  private init(location: Location) {
    self.location = location
  }

  /// An identity that never changes: the payload of an enum case that is not observable.
  public static var _$inert: Self { Self(location: .inert) }

  /// The identity of `value` if it is observable, else a new one.
  public static func _$id<T>(for value: T) -> Self {
    (value as? any ObservableState)?._$id ?? Self()
  }

  /// The identity of an observable value.
  public static func _$id(for value: some ObservableState) -> Self {
    value._$id
  }

  /// This identity within case `tag` of an enum state.
  public func _$tag(_ tag: Int) -> Self {
    Self(location: .tagged(tag, location))
  }

  /// Gives the value a new identity.
  public mutating func _$willModify() {
    self = Self()
  }
}

/// Whether two observable values are the same for observation (a write of one over the other
/// need not notify).
public func _$isIdentityEqual<T: ObservableState>(_ lhs: T, _ rhs: T) -> Bool {
  lhs._$id == rhs._$id
}

/// Whether two identified arrays of observable values hold the same elements, by id.
public func _$isIdentityEqual<ID: Hashable, T: ObservableState>(
  _ lhs: IdentifiedArray<ID, T>, _ rhs: IdentifiedArray<ID, T>
) -> Bool {
  lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0._$id == $1._$id }
}

/// Whether two presented values are the same for observation.
public func _$isIdentityEqual<T: ObservableState>(
  _ lhs: PresentationState<T>, _ rhs: PresentationState<T>
) -> Bool {
  lhs.wrappedValue?._$id == rhs.wrappedValue?._$id
}

/// Whether two stacks hold the same observable elements.
public func _$isIdentityEqual<T: ObservableState>(
  _ lhs: StackState<T>, _ rhs: StackState<T>
) -> Bool {
  lhs.ids == rhs.ids && zip(lhs, rhs).allSatisfy { $0._$id == $1._$id }
}

/// Whether two collections of observable values hold the same elements.
public func _$isIdentityEqual<C: Collection>(_ lhs: C, _ rhs: C) -> Bool
where C.Element: ObservableState {
  lhs.count == rhs.count && zip(lhs, rhs).allSatisfy { $0._$id == $1._$id }
}

/// Strings are compared by value by whoever needs it; for observation a write always notifies.
public func _$isIdentityEqual(_ lhs: String, _ rhs: String) -> Bool {
  false
}

/// Any other value: observable values compare by identity, everything else always notifies.
public func _$isIdentityEqual<T>(_ lhs: T, _ rhs: T) -> Bool {
  guard let lhs = lhs as? any ObservableState else { return false }
  func open<Observed: ObservableState>(_ lhs: Observed) -> Bool {
    (rhs as? Observed).map { lhs._$id == $0._$id } ?? false
  }
  return open(lhs)
}

/// Gives an observable value a new identity; does nothing to other values.
public func _$willModify<T>(_: inout T) {}

/// Gives an observable value a new identity.
public func _$willModify<T: ObservableState>(_ value: inout T) {
  value._$willModify()
}

/// Whether a write of `rhs` over `lhs` is a change observers must hear of: any write of a value
/// that cannot be compared.
public func _$shouldNotifyObservers<T>(_ lhs: T, _ rhs: T) -> Bool {
  true
}

/// Writing an equal value changes nothing: observers are not told.
public func _$shouldNotifyObservers<T: Equatable>(_ lhs: T, _ rhs: T) -> Bool {
  lhs != rhs
}

/// An object: only another object is a change.
public func _$shouldNotifyObservers<T: AnyObject>(_ lhs: T, _ rhs: T) -> Bool {
  lhs !== rhs
}

/// An equatable object: an unequal one is a change.
public func _$shouldNotifyObservers<T: Equatable & AnyObject>(_ lhs: T, _ rhs: T) -> Bool {
  lhs != rhs
}
