import Synchronization

/// What one dependency endpoint answered in a recorded session, handed out again in the order it
/// was given: how a test written from a record (`record-to-test`) answers its dependencies.
///
/// ```swift
/// let factClientFetch = RecordedReplies<String>("factClient.fetch", [
///   .success("3 is the number of spatial dimensions we perceive."),
///   .failure(RecordedError("The request timed out.")),
/// ])
/// $0.factClient.fetch = { _ in try factClientFetch.next() }
/// ```
///
/// A call past the recorded answers fails the test ("called more often than in the recorded
/// session"): the feature now asks for something the session never did.
public final class RecordedReplies<Value: Sendable>: Sendable {
  private let endpoint: String
  private let replies: Mutex<[Result<Value, any Error>]>
  private let count: Int

  public init(_ endpoint: String, _ replies: [Result<Value, any Error>]) {
    self.endpoint = endpoint
    self.count = replies.count
    self.replies = Mutex(replies.reversed())
  }

  /// The next recorded answer: its value, or the error it threw.
  public func next(
    fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
    column: UInt = #column
  ) throws -> Value {
    guard let reply = replies.withLock({ $0.popLast() }) else {
      reportExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
      throw RecordedError("\(endpoint) has no more recorded answers")
    }
    return try reply.get()
  }

  /// The next recorded value of an endpoint that cannot throw (`uuid`, `date`), or `fallback`
  /// after reporting that there is none.
  public func next(
    or fallback: @autoclosure () -> Value, fileID: StaticString = #fileID,
    filePath: StaticString = #filePath, line: UInt = #line, column: UInt = #column
  ) -> Value {
    guard let reply = replies.withLock({ $0.popLast() }), case .success(let value) = reply else {
      reportExhausted(fileID: fileID, filePath: filePath, line: line, column: column)
      return fallback()
    }
    return value
  }

  /// How many recorded answers are left.
  public var remaining: Int {
    replies.withLock { $0.count }
  }

  private func reportExhausted(
    fileID: StaticString, filePath: StaticString, line: UInt, column: UInt
  ) {
    reportIssue(
      "\(endpoint) was called more often than in the recorded session (\(count) "
        + "\(count == 1 ? "time" : "times")).",
      fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
