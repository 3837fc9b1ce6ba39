#if !_runtime(_ObjC)
  import Foundation

  // XCTest on Linux has no `XCTExpectFailure`, so a test suite written for TCA that expects a
  // store's failures would not compile here. These are its block forms, built on the issues the
  // runtime reports (`reportIssue`): what the block reports and the matcher accepts is expected
  // and goes no further; anything else is reported as usual. Nothing here links XCTest.
  //
  // Not provided: the form without a block (`XCTExpectFailure()`, expecting failures for the
  // rest of the test), which needs to know where a test ends; and failures that XCTest's own
  // assertions (`XCTAssertEqual`) record, which do not pass through `reportIssue`.

  /// An issue reported inside `XCTExpectFailure`'s block, for its `issueMatcher`.
  public struct XCTIssue: Sendable, CustomStringConvertible {
    /// What was reported.
    public var message: String
    public var fileID: String
    public var line: UInt

    /// The issue as XCTest describes a failure: `failed - ` and the message.
    public var compactDescription: String { "failed - \(message)" }
    public var description: String { compactDescription }
  }

  /// Runs `failingBlock`, expecting it to report a failure: the issues it reports that
  /// `issueMatcher` accepts (all, without one) are expected and not recorded as failures. When
  /// `strict` (the default) and none was, that is recorded as a failure instead.
  ///
  /// - Parameters:
  ///   - failureReason: Why the failure is expected, shown when none came.
  ///   - enabled: `false` runs the block with no expectation.
  ///   - strict: Whether a block that reports no matching issue is a failure.
  ///   - failingBlock: The code expected to fail.
  ///   - issueMatcher: Which issues are the expected ones.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @discardableResult
  public func XCTExpectFailure<R>(
    _ failureReason: String? = nil,
    enabled: Bool? = nil,
    strict: Bool? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    failingBlock: () throws -> R,
    issueMatcher: ((XCTIssue) -> Bool)? = nil
  ) rethrows -> R {
    guard enabled ?? true else { return try failingBlock() }
    let reporter = _ExpectingReporter(
      forwardingTo: IssueReporters.current, matcher: issueMatcher ?? { _ in true })
    let result = try withIssueReporters([reporter]) { try failingBlock() }
    if strict ?? true, reporter.expectedCount == 0 {
      reportIssue(
        "Expected a failure\(failureReason.map { " (\($0))" } ?? ""), but none was recorded.",
        fileID: fileID, filePath: filePath, line: line, column: column)
    }
    return result
  }

  /// `XCTExpectFailure` with options, as XCTest spells them.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  @discardableResult
  public func XCTExpectFailure<R>(
    _ failureReason: String? = nil,
    options: XCTExpectedFailureOptions,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    failingBlock: () throws -> R
  ) rethrows -> R {
    try XCTExpectFailure(
      failureReason, enabled: options.isEnabled, strict: options.isStrict, fileID: fileID,
      filePath: filePath, line: line, column: column, failingBlock: failingBlock,
      issueMatcher: options.issueMatcher)
  }

  /// What `XCTExpectFailure(_:options:failingBlock:)` expects.
  public struct XCTExpectedFailureOptions {
    public var isEnabled = true
    public var isStrict = true
    public var issueMatcher: (XCTIssue) -> Bool = { _ in true }
    public init() {}
    /// Options under which a block that reports nothing is not a failure.
    public static func nonStrict() -> Self {
      var options = Self()
      options.isStrict = false
      return options
    }
  }

  /// Takes the issues reported inside an expecting block: matched ones are counted and
  /// dropped, others go to the reporters that were current outside the block.
  final class _ExpectingReporter: IssueReporter, @unchecked Sendable {
    private let outside: [any IssueReporter]
    private let matcher: (XCTIssue) -> Bool
    private let count = LockIsolated(0)

    init(forwardingTo outside: [any IssueReporter], matcher: @escaping (XCTIssue) -> Bool) {
      self.outside = outside
      self.matcher = matcher
    }

    var expectedCount: Int { count.value }

    func reportIssue(
      _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
      filePath: StaticString, line: UInt, column: UInt
    ) {
      let text = message() ?? ""
      if severity == .error,
        matcher(XCTIssue(message: text, fileID: "\(fileID)", line: line))
      {
        count.withValue { $0 += 1 }
        return
      }
      for reporter in outside {
        reporter.reportIssue(
          text, severity: severity, fileID: fileID, filePath: filePath, line: line,
          column: column)
      }
    }

    func expectIssue(
      _ message: @autoclosure () -> String?, fileID: StaticString, filePath: StaticString,
      line: UInt, column: UInt
    ) {
      let text = message()
      for reporter in outside {
        reporter.expectIssue(
          text, fileID: fileID, filePath: filePath, line: line, column: column)
      }
    }
  }
#endif
