/// Holds the optional state of something presented by a feature: an alert, a sheet, a child.
///
/// Use it as `@Presents` (or `@PresentationState`) on an optional property and integrate the
/// child with `ifLet(\.$destination, action: \.destination)`:
///
/// ```swift
/// @ObservableState
/// struct State: Equatable {
///   @Presents var alert: AlertState<Action.Alert>?
/// }
/// ```
///
/// When the presented value is set to `nil` or replaced by a value of another identity, the
/// effects of the old value are cancelled.
@propertyWrapper
public struct PresentationState<State> {
  /// The presented value, or `nil` when nothing is presented.
  public var wrappedValue: State?

  /// Wraps a presented value.
  public init(wrappedValue: State?) {
    self.wrappedValue = wrappedValue
  }

  /// The wrapper itself, which `ifLet(\.$alert, …)` uses to find the presented value.
  public var projectedValue: Self {
    get { self }
    set { self = newValue }
  }
}

/// `@Presents var alert: AlertState<…>?` — the name features use for ``PresentationState``.
public typealias Presents = PresentationState

extension PresentationState: Equatable where State: Equatable {}
extension PresentationState: Hashable where State: Hashable {}
extension PresentationState: Sendable where State: Sendable {}

extension PresentationState: Decodable where State: Decodable {
  public init(from decoder: any Decoder) throws {
    self.wrappedValue = try decoder.singleValueContainer().decode(State?.self)
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
    switch keyPath {
    case \Self.Cases.presented as AnyKeyPath:
      return _CaseFunctions<Self, Action>(
        embed: { .presented($0) },
        extract: {
          guard case .presented(let action) = $0 else { return nil }
          return action
        }
      )
    case \Self.Cases.dismiss as AnyKeyPath:
      return _CaseFunctions<Self, Void>(
        embed: { .dismiss },
        extract: {
          guard case .dismiss = $0 else { return nil }
          return ()
        }
      )
    default: return nil
    }
  }
}
