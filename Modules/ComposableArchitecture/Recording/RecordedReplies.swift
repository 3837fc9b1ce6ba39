import ComposableArchitecture
import Synchronization

/// What one dependency endpoint answered in a recorded session, handed out again in the order it
/// was given: how a test written from a record (`record-to-test`) answers its dependencies.
///
/// ```swift
/// let factClientFetch = RecordedReplies<String>("factClient.fetch", [
///   .success("3 is the number of spatial dimensions we perceive."),
///   .failure(RecordedError("The request timed out.")),
/// ])
/// $0.factClient.fetch = { _ in try await factClientFetch.reply() }
/// …
/// factClientFetch.release(1)
/// await store.receive(\.factResponse.success, "3 is the number of spatial dimensions we perceive.")
/// ```
///
/// An effect that calls ``reply(fileID:filePath:line:column:)`` waits until the test releases
/// that call's answer (``release(_:)``). A test written from a record releases each answer just
/// before the step its effect sent with it, so that two effects that answered at nearly the same
/// moment in the session send their actions in the recorded order here too, whatever the
/// scheduling. ``next(fileID:filePath:line:column:)`` answers at once.
///
/// A call past the recorded answers fails the test ("called more often than in the recorded
/// session"): the feature now asks for something the session never did.
public final class RecordedReplies<Value: Sendable>: Sendable {
  private let endpoint: String
  private let replies: [Result<Value, any Error>]
  private let gate = Mutex(Gate())

  private enum _ReplyTurn { case now, cancelled, later }

  private struct Gate {
    var nextCall = 0
    var released: Set<Int> = []
    var cancelled: Set<Int> = []
    var waiting: [Int: CheckedContinuation<Void, any Error>] = [:]
  }

  public init(_ endpoint: String, _ replies: [Result<Value, any Error>]) {
    self.endpoint = endpoint
    self.replies = replies
  }

  /// The next call's number, from 0, or `nil` past the recorded answers.
  private func takeCall() -> Int? {
    gate.withLock { gate in
      guard gate.nextCall < replies.count else { return nil }
      defer { gate.nextCall += 1 }
      return gate.nextCall
    }
  }

  /// The next recorded answer, at once: its value, or the error it threw.
  public func next(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws -> Value {
    guard let call = takeCall() else {
      reportExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
      throw RecordedError("\(endpoint) has no more recorded answers")
    }
    return try replies[call].get()
  }

  /// The next recorded answer once the test has released it (``release(_:)``): its value, or
  /// the error it threw. Throws `CancellationError` if the waiting task is cancelled first, as
  /// the call of a cancelled effect would.
  public func reply(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) async throws -> Value {
    guard let call = takeCall() else {
      reportExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
      throw RecordedError("\(endpoint) has no more recorded answers")
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation {
        (continuation: CheckedContinuation<Void, any Error>) in
        let turn = gate.withLock { gate -> _ReplyTurn in
          if gate.released.contains(call) { return .now }
          if gate.cancelled.contains(call) { return .cancelled }
          gate.waiting[call] = continuation
          return .later
        }
        switch turn {
        case .now: continuation.resume()
        case .cancelled: continuation.resume(throwing: CancellationError())
        case .later: break
        }
      }
    } onCancel: {
      let waiting = gate.withLock { gate in
        gate.cancelled.insert(call)
        return gate.waiting.removeValue(forKey: call)
      }
      waiting?.resume(throwing: CancellationError())
    }
    return try replies[call].get()
  }

  /// Lets the `number`th call (from 1) have its answer: at once if it waits, or as soon as it
  /// is made.
  public func release(_ number: Int) {
    let waiting = gate.withLock { gate in
      gate.released.insert(number - 1)
      return gate.waiting.removeValue(forKey: number - 1)
    }
    waiting?.resume()
  }

  /// The next recorded value of an endpoint that cannot throw (`uuid`, `date`), or `fallback`
  /// after reporting that there is none.
  public func next(
    or fallback: @autoclosure () -> Value, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> Value {
    guard let call = takeCall(), case .success(let value) = replies[call] else {
      reportExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
      return fallback()
    }
    return value
  }

  /// How many recorded answers are left.
  public var remaining: Int {
    gate.withLock { replies.count - $0.nextCall }
  }

  private func reportExhausted(
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    reportIssue(
      "\(endpoint) was called more often than in the recorded session (\(replies.count) "
        + "\(replies.count == 1 ? "time" : "times")).",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
