/// The result of an async operation whose error is untyped, comparable in tests when the error
/// is: what effects sent before Swift's `Result<Success, any Error>` was the norm.
///
/// ```swift
/// return .run { send in
///   await send(.factResponse(TaskResult { try await factClient.fetch(count) }))
/// }
/// ```
///
/// Two failures are equal when their errors are of the same `Equatable` type and equal. Errors of
/// the same type that is not `Equatable` cannot be compared: that is reported, and they are
/// unequal.
@available(*, deprecated, message: "Use 'Result', instead.")
public enum TaskResult<Success: Sendable>: Sendable {
  case success(Success)
  case failure(any Error)

  /// Runs `body` and keeps what it returns or throws.
  @_transparent
  public init(catching body: @Sendable () async throws -> Success) async {
    do {
      self = .success(try await body())
    } catch {
      self = .failure(error)
    }
  }

  /// A task result of a `Result`.
  @inlinable
  public init<Failure>(_ result: Result<Success, Failure>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }

  /// The value, or the error thrown.
  @inlinable
  public var value: Success {
    get throws {
      switch self {
      case .success(let value): return value
      case .failure(let error): throw error
      }
    }
  }

  /// Transforms a success.
  public func map<NewSuccess>(_ transform: (Success) -> NewSuccess) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): .success(transform(value))
    case .failure(let error): .failure(error)
    }
  }

  /// Transforms a success into another task result.
  public func flatMap<NewSuccess>(
    _ transform: (Success) -> TaskResult<NewSuccess>
  ) -> TaskResult<NewSuccess> {
    switch self {
    case .success(let value): transform(value)
    case .failure(let error): .failure(error)
    }
  }

  @available(*, unavailable, renamed: "value")
  public func get() throws -> Success { try value }
}

@available(*, deprecated)
extension TaskResult: CasePathable {
  public struct AllCasePaths: Sendable {
    public var success: AnyCasePath<TaskResult, Success> {
      AnyCasePath(
        embed: { .success($0) },
        extract: {
          guard case .success(let value) = $0 else { return nil }
          return value
        })
    }

    public var failure: AnyCasePath<TaskResult, any Error> {
      AnyCasePath(
        embed: { .failure($0) },
        extract: {
          guard case .failure(let error) = $0 else { return nil }
          return error
        })
    }
  }

  public static var allCasePaths: AllCasePaths { AllCasePaths() }
}

@available(*, deprecated)
extension Result where Success: Sendable, Failure == any Error {
  /// A result of a task result.
  @available(*, deprecated, message: "Use 'Result', instead.")
  public init(_ result: TaskResult<Success>) {
    switch result {
    case .success(let value): self = .success(value)
    case .failure(let error): self = .failure(error)
    }
  }
}

@available(*, deprecated)
extension TaskResult: Equatable where Success: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs, rhs) {
    case (.success(let lhs), .success(let rhs)):
      return lhs == rhs
    case (.failure(let lhs), .failure(let rhs)):
      if let equal = errorsAreEqual(lhs, rhs) { return equal }
      if type(of: lhs) == type(of: rhs) {
        reportIssue(
          """
          "\(typeName(type(of: lhs)))" is not equatable.

          To test two values of this type, it must conform to the "Equatable" protocol. For \
          example:

              extension \(typeName(type(of: lhs))): Equatable {}

          See the documentation of "TaskResult" for more information.
          """)
      }
      return false
    default:
      return false
    }
  }
}

@available(*, deprecated)
extension TaskResult: Hashable where Success: Hashable {
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .success(let value):
      hasher.combine(value)
      hasher.combine(0)
    case .failure(let error):
      if let error = (error as Any) as? any Hashable {
        hasher.combine(AnyHashable(error))
        hasher.combine(1)
      } else {
        reportIssue(
          """
          "\(typeName(type(of: error)))" is not hashable.

          To hash a value of this type, it must conform to the "Hashable" protocol. For example:

              extension \(typeName(type(of: error))): Hashable {}

          See the documentation of "TaskResult" for more information.
          """)
      }
    }
  }
}

/// Whether two errors are equal, or `nil` when they are not of one `Equatable` type.
private func errorsAreEqual(_ lhs: any Error, _ rhs: any Error) -> Bool? {
  func open<E: Equatable>(_ lhs: E) -> Bool? {
    guard let rhs = (rhs as Any) as? E else { return nil }
    return lhs == rhs
  }
  guard let lhs = (lhs as Any) as? any Equatable else { return nil }
  return open(lhs)
}
