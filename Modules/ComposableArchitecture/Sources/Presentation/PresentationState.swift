/// Holds the optional state of something presented by a feature: an alert, a sheet, a child.
///
/// Use it through the ``Presents()`` macro on an optional property of `@ObservableState` state
/// (or as the `@PresentationState` property wrapper) and integrate the child with
/// `ifLet(\.$destination, action: \.destination)`:
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// ```
///
/// The value lives in a box shared by copies until one of them writes (copy on write), so a
/// state can present a value of its own type (recursive navigation), and two copies compare equal
/// without comparing the value. When the presented value is set to `nil` or replaced by a value of
/// another identity, the effects of the old value are cancelled.
@propertyWrapper
@dynamicMemberLookup
public struct PresentationState<State> {
  // Copy on write: the box is mutated only when this value holds the only reference to it, so
  // no two values ever see one mutation — what the unchecked `Sendable` rests on.
  private final class Storage: @unchecked Sendable {
    var state: State?
    init(_ state: State?) { self.state = state }
  }

  private var storage: Storage
  /// The identity of the presentation whose lifetime effect is running: bookkeeping of the
  /// presentation reducer, not part of equality.
  @usableFromInline var presentedID: ChildIdentity?

  /// Wraps a presented value.
  public init(wrappedValue: State?) {
    self.storage = Storage(wrappedValue)
  }

  /// The presented value, or `nil` when nothing is presented.
  public var wrappedValue: State? {
    get { storage.state }
    set {
      if isKnownUniquelyReferenced(&storage) {
        storage.state = newValue
      } else {
        storage = Storage(newValue)
      }
    }
    _modify {
      if !isKnownUniquelyReferenced(&storage) {
        storage = Storage(storage.state)
      }
      yield &storage.state
    }
  }

  /// The presentation itself, which `ifLet(\.$alert, …)` uses to find the presented value.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }

  /// Whether two presentation states share their box (then they are equal without a look).
  func sharesStorage(with other: Self) -> Bool {
    storage === other.storage
  }

  /// The presentation of a property of the presented value.
  public subscript<Member>(dynamicMember keyPath: KeyPath<State, Member>) -> PresentationState<
    Member
  > {
    PresentationState<Member>(wrappedValue: wrappedValue?[keyPath: keyPath])
  }

  /// The presentation of a case of the presented enum value.
  public subscript<Case>(dynamicMember keyPath: CaseKeyPath<State, Case>) -> PresentationState<
    Case
  >
  where State: CasePathable {
    PresentationState<Case>(wrappedValue: wrappedValue.flatMap { $0[case: keyPath] })
  }

  /// The payload of a case of the presented value, or `nil`.
  ///
  /// ```swift
  /// state.$destination[case: \.detail]?.alert = AlertState { TextState("Delete?") }
  /// ```
  ///
  /// Modifying a case other than the presented one (or modifying while nothing is presented) is
  /// reported and changes nothing; setting the presented case to `nil` dismisses it.
  public subscript<Case>(case path: CaseKeyPath<State, Case>) -> Case?
  where State: CasePathable {
    _read { yield wrappedValue.flatMap { $0[case: path] } }
    _modify {
      yield &self[_extract: { $0[case: path] }, embed: { path($0) }, location: nil]
    }
  }

  /// The payload of a case of the presented value, through a type-erased case path.
  @available(
    *, deprecated,
    message:
      "Use the version of this subscript with case key paths, instead. See the following migration guide for more information: https://swiftpackageindex.com/pointfreeco/swift-composable-architecture/main/documentation/composablearchitecture/migratingto1.4#Using-case-key-paths"
  )
  public subscript<Case>(
    case path: AnyCasePath<State, Case>,
    fileID fileID: _HashableStaticString = #fileID,
    filePath filePath: _HashableStaticString = #filePath,
    line line: UInt = #line,
    column column: UInt = #column
  ) -> Case? {
    _read { yield wrappedValue.flatMap(path.extract(from:)) }
    _modify {
      yield &self[
        _extract: path.extract(from:), embed: path.embed,
        location: SourceLocation(
          fileID: fileID.rawValue, filePath: filePath.rawValue, line: line, column: column)]
    }
  }

  /// The case's payload for modification: written back when the presented value was in the
  /// case (`nil` dismisses), otherwise reported as TCA reports it.
  private subscript<Case>(
    _extract extract: (State) -> Case?, embed embed: (Case) -> State,
    location location: SourceLocation?
  ) -> Case? {
    get { wrappedValue.flatMap(extract) }
    _modify {
      let presented = wrappedValue
      var value = presented.flatMap(extract)
      let matched = value != nil
      yield &value
      guard matched else {
        reportUnrelatedCase(presented, location: location)
        return
      }
      wrappedValue = value.map(embed)
    }
  }
}

/// Reports a write through a case subscript while the value is in another case (or `nil`).
func reportUnrelatedCase(_ value: Any?, location: SourceLocation?) {
  let message =
    "Can't modify unrelated case\(value.flatMap(caseName(of:)).map { " \"\($0)\"" } ?? "")"
  if let location {
    reportIssue(
      message, fileID: location.fileID, filePath: location.filePath, line: location.line,
      column: location.column)
  } else {
    reportIssue(message)
  }
}

extension PresentationState: Equatable where State: Equatable {
  /// Equal when they share their box, or when their values are equal.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.sharesStorage(with: rhs) || lhs.wrappedValue == rhs.wrappedValue
  }
}

extension PresentationState: Hashable where State: Hashable {
  public func hash(into hasher: inout Hasher) {
    hasher.combine(wrappedValue)
  }
}

extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(wrappedValue: try decoder.singleValueContainer().decode(State?.self))
  }
}

extension PresentationState: Encodable where State: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(wrappedValue)
  }
}

extension PresentationState: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(reflecting: wrappedValue as Any)
  }
}

/// The actions of something presented: an action of the presented feature, or its dismissal.
public enum PresentationAction<Action> {
  /// The presented feature is dismissed; the runtime sets its state to `nil`.
  case dismiss
  /// An action of the presented feature.
  indirect case presented(Action)
}

extension PresentationAction: CasePathable {
  /// The case paths of a presentation action. An action of the presented feature can be reached
  /// without naming `.presented`: `\.alert.confirmTapped`, `\.destination.counter.tapped`.
  @dynamicMemberLookup
  public struct AllCasePaths: Sendable {
    /// The case path of ``PresentationAction/dismiss``.
    public var dismiss: AnyCasePath<PresentationAction, Void> {
      AnyCasePath(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        }
      )
    }

    /// The case path of ``PresentationAction/presented(_:)``.
    public var presented: AnyCasePath<PresentationAction, Action> {
      AnyCasePath(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        }
      )
    }

    /// A case of the presented feature's action, through `.presented`.
    public subscript<AppendedAction>(
      dynamicMember keyPath: CaseKeyPath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, AppendedAction>
    where Action: CasePathable {
      let keyPath = UncheckedSendable(keyPath)
      return AnyCasePath(
        embed: { .presented(keyPath.value($0)) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action[case: keyPath.value]
        }
      )
    }

    /// A presented feature's child presentation, through `.presented`: `.dismiss` maps to
    /// `.dismiss`.
    @_disfavoredOverload
    public subscript<AppendedAction>(
      dynamicMember keyPath: CaseKeyPath<Action, AppendedAction>
    ) -> AnyCasePath<PresentationAction, PresentationAction<AppendedAction>>
    where Action: CasePathable {
      let keyPath = UncheckedSendable(keyPath)
      return AnyCasePath(
        embed: {
          switch $0 {
          case .dismiss: .dismiss
          case .presented(let action): .presented(keyPath.value(action))
          }
        },
        extract: {
          switch $0 {
          case .dismiss: return .dismiss
          case .presented(let action): return action[case: keyPath.value].map { .presented($0) }
          }
        }
      )
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

extension PresentationAction: Equatable where Action: Equatable {}
extension PresentationAction: Hashable where Action: Hashable {}
extension PresentationAction: Sendable where Action: Sendable {}
extension PresentationAction: Decodable where Action: Decodable {}
extension PresentationAction: Encodable where Action: Encodable {}

extension PresentationAction: _CasePathResolving {
  public static func _$casePath(for keyPath: AnyKeyPath) -> Any? {
    if keyPath == \Self.Cases.presented as AnyKeyPath {
      return _CaseFunctions<Self, Action>(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        }
      )
    }
    if keyPath == \Self.Cases.dismiss as AnyKeyPath {
      return _CaseFunctions<Self, Void>(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        }
      )
    }
    return nil
  }
}
