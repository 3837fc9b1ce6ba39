#if !_runtime(_ObjC)
  import Foundation

  // XCTest on Linux has no `XCTExpectFailure`, so a test suite written for TCA that expects a
  // store's failures would not compile here. These are its block forms, built on the issues the
  // runtime reports (`reportIssue`): what the block reports and the matcher accepts is expected
  // and goes no further; anything else is reported as usual. Nothing here links XCTest.
  //
  // The form without a block (`XCTExpectFailure()`, `XCTExpectFailure { issue in … }`) expects
  // failures for the rest of the test. Where a test ends is known from Swift Testing's current
  // test, and for XCTest from the test observer swift-dependencies ships
  // (`DependenciesTestObserver`, which the test target must link on Linux); its `strict` is not
  // checked (nothing says when the test is over), and failures that XCTest's own assertions
  // (`XCTAssertEqual`) record do not pass through `reportIssue` and are never expected.

  /// An issue reported inside `XCTExpectFailure`'s block, for its `issueMatcher`.
  public struct XCTIssue: Sendable, CustomStringConvertible {
    /// What was reported.
    public var message: String
    public var fileID: String
    public var filePath: String
    public var line: UInt

    public init(message: String, fileID: String, filePath: String = "", line: UInt) {
      self.message = message
      self.fileID = fileID
      self.filePath = filePath
      self.line = line
    }

    /// The issue as XCTest describes a failure: `failed - ` and the message.
    public var compactDescription: String { "failed - \(message)" }
    public var description: String { compactDescription }

    /// Where the issue was reported, as XCTest gives it.
    public var sourceCodeContext: SourceCodeContext {
      SourceCodeContext(
        location: SourceCodeLocation(
          fileURL: URL(fileURLWithPath: filePath.isEmpty ? fileID : filePath),
          lineNumber: Int(line)))
    }

    public struct SourceCodeContext: Sendable {
      public var location: SourceCodeLocation?
    }

    public struct SourceCodeLocation: Sendable {
      public var fileURL: URL
      public var lineNumber: Int
    }
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

  /// Expects the rest of the test to report a failure: the issues reported after this call
  /// that `issueMatcher` accepts (all, without one) are expected, until the test ends.
  ///
  /// Unlike XCTest's, a test that then reports no matching issue is not a failure (`strict` is
  /// not checked: nothing tells the runtime when the test is over). Under XCTest the test target
  /// must link swift-dependencies' `DependenciesTestObserver`, which says when the next test
  /// starts; without it the call reports that and expects nothing.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public func XCTExpectFailure(
    _ failureReason: String? = nil,
    enabled: Bool? = nil,
    strict: Bool? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    issueMatcher: ((XCTIssue) -> Bool)? = nil
  ) {
    guard enabled ?? true else { return }
    let matcher = issueMatcher ?? { _ in true }
    let expectations = _RestOfTestExpectations.shared
    switch TestContext.current {
    case .swiftTesting(let testing?):
      expectations.expect(matcher, in: testing.test.id)
    case .xcTest where expectations.knowsWhenXCTestCasesStart:
      expectations.expect(matcher, in: nil)
    case .xcTest:
      reportIssue(
        """
        XCTExpectFailure without a block expects failures for the rest of the test, which on \
        Linux needs to know when the next test starts: add swift-dependencies' \
        "DependenciesTestObserver" product to the test target, or give the failing code as a \
        block: XCTExpectFailure { … }.
        """,
        fileID: fileID, filePath: filePath, line: line, column: column)
    default:
      return
    }
    expectations.installReporter()
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

  /// The expectations of `XCTExpectFailure` without a block: per Swift Testing test, and one for
  /// the XCTest case running, dropped when the next one starts.
  final class _RestOfTestExpectations: @unchecked Sendable {
    static let shared = _RestOfTestExpectations()

    typealias Matcher = (XCTIssue) -> Bool
    private let lock = NSLock()
    private var bySwiftTestingTest: [TestContext.Testing.Test.ID: Matcher] = [:]
    private var forXCTestCase: Matcher?
    private var isReporterInstalled = false

    /// Whether XCTest cases announce their start here: swift-dependencies'
    /// `DependenciesTestObserver` is linked (it is a shared library) and took our callback.
    lazy var knowsWhenXCTestCasesStart: Bool = {
      typealias Register = @convention(thin) (@convention(c) () -> Void) -> Void
      guard let library = dlopen("libDependenciesTestObserver.so", RTLD_NOW),
        let register = dlsym(library, "$s24DependenciesTestObserver08registerbC0yyyyXCF")
      else { return false }
      unsafeBitCast(register, to: Register.self)({
        _RestOfTestExpectations.shared.testCaseWillStart()
      })
      return true
    }()

    func expect(_ matcher: @escaping Matcher, in test: TestContext.Testing.Test.ID?) {
      lock.withLock {
        if let test { bySwiftTestingTest[test] = matcher } else { forXCTestCase = matcher }
      }
    }

    func testCaseWillStart() {
      lock.withLock { forXCTestCase = nil }
    }

    /// Whether the test reporting `issue` expects it.
    func expects(_ issue: XCTIssue) -> Bool {
      let matcher: Matcher? =
        switch TestContext.current {
        case .swiftTesting(let testing?): lock.withLock { bySwiftTestingTest[testing.test.id] }
        case .xcTest: lock.withLock { forXCTestCase }
        default: nil
        }
      return matcher?(issue) ?? false
    }

    /// Puts the reporter that consults the expectations in front of the process's reporters,
    /// once.
    func installReporter() {
      let install = lock.withLock {
        defer { isReporterInstalled = true }
        return !isReporterInstalled
      }
      guard install else { return }
      IssueReporters.current = [
        _ExpectingReporter(
          forwardingTo: IssueReporters.current, matcher: { Self.shared.expects($0) })
      ]
    }
  }

  /// Takes the issues reported where failures are expected (inside a block, or for the rest of
  /// a test): matched ones are counted and dropped, others go to the reporters that were current
  /// before.
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
        matcher(
          XCTIssue(message: text, fileID: "\(fileID)", filePath: "\(filePath)", line: line))
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
