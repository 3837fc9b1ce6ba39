import Testing
import XCTest

@testable import ComposableArchitecture

/// Collects the issues reported in `body` instead of recording them.
private final class IssueCollector: IssueReporter, @unchecked Sendable {
  let messages = LockIsolated<[String]>([])

  func reportIssue(
    _ message: @autoclosure () -> String?, severity: IssueSeverity, fileID: StaticString,
    filePath: StaticString, line: UInt, column: UInt
  ) {
    let text = message() ?? ""
    messages.withValue { $0.append(text) }
  }
}

private func issues(in body: () throws -> Void) rethrows -> [String] {
  let collector = IssueCollector()
  try withIssueReporters([collector]) { try body() }
  return collector.messages.value
}

private struct Boom: Error {}

/// A test store's state assertion that fails.
@MainActor
private func failStateAssertion() {
  let store = TestStore(initialState: 1) { EmptyReducer<Int, Void>() }
  store.assert { $0 = 2 }
}

/// `XCTExpectFailure`'s block forms in an XCTest suite on Linux, where XCTest lacks them: a
/// test store's failure inside the block is expected, not recorded. (The tests are `async` and
/// hop to the main actor for the test store: XCTest on Linux cannot run a synchronous
/// `@MainActor` test method.)
final class ExpectFailureTests: XCTestCase {

  func testAFailureInsideTheBlockIsExpected() async {
    await MainActor.run {
      let reported = issues {
        XCTExpectFailure {
          failStateAssertion()
        }
      }
      XCTAssertEqual(reported, [])
    }
  }

  func testTheMatcherSeesTheFailureAsXCTestDescribesIt() async {
    await MainActor.run {
      var seen: [String] = []
      let reported = issues {
        XCTExpectFailure {
          failStateAssertion()
        } issueMatcher: {
          seen.append($0.compactDescription)
          XCTAssertEqual(
            $0.sourceCodeContext.location?.fileURL.lastPathComponent, "ExpectFailureTests.swift")
          return $0.compactDescription.hasPrefix("failed - ")
            && $0.compactDescription.contains("does not match")
        }
      }
      XCTAssertEqual(reported, [])
      XCTAssertEqual(seen.count, 1)
    }
  }

  func testAnIssueTheMatcherRejectsIsRecorded() async {
    await MainActor.run {
      let reported = issues {
        XCTExpectFailure(strict: false) {
          failStateAssertion()
        } issueMatcher: {
          $0.compactDescription.contains("something else")
        }
      }
      XCTAssertEqual(reported.count, 1)
      XCTAssertTrue(reported[0].contains("does not match"), reported[0])
    }
  }

  func testAStrictBlockWithoutAFailureIsOne() async {
    await MainActor.run {
      let reported = issues {
        XCTExpectFailure("the count is checked") {}
      }
      XCTAssertEqual(
        reported, ["Expected a failure (the count is checked), but none was recorded."])
    }
  }

  func testANonStrictOrDisabledBlockWithoutAFailureIsNot() async {
    await MainActor.run {
      XCTAssertEqual(issues { XCTExpectFailure(strict: false) {} }, [])
      XCTAssertEqual(issues { XCTExpectFailure(options: .nonStrict()) {} }, [])
      XCTAssertEqual(issues { XCTExpectFailure(enabled: false) {} }, [])
    }
  }

  func testADisabledExpectationLetsTheFailureThrough() async {
    await MainActor.run {
      let reported = issues {
        XCTExpectFailure(enabled: false) {
          failStateAssertion()
        }
      }
      XCTAssertEqual(reported.count, 1)
    }
  }

  func testTheBlocksValueAndErrorComeOut() async throws {
    try await MainActor.run {
      let value = XCTExpectFailure(strict: false) { 42 }
      XCTAssertEqual(value, 42)
      XCTAssertThrowsError(try XCTExpectFailure(strict: false) { throw Boom() }) { error in
        XCTAssertTrue(error is Boom)
      }
    }
  }

  func testWithoutABlockTheRestOfTheTestExpectsFailures() async {
    await MainActor.run {
      XCTExpectFailure()
      failStateAssertion()
    }
    // The next test's start ends it: swift-dependencies' test observer, linked by this target,
    // says when.
    XCTAssertTrue(_RestOfTestExpectations.shared.knowsWhenXCTestCasesStart)
  }

  func testWithoutABlockTheMatcherPicksTheExpectedOnes() async {
    await MainActor.run {
      XCTExpectFailure { issue in issue.compactDescription.contains("does not match") }
      failStateAssertion()
    }
  }

  func testARestOfTestExpectationEndsWhenTheNextTestStarts() {
    let expectations = _RestOfTestExpectations()
    expectations.expect({ _ in true }, in: nil)
    let collector = IssueCollector()
    let reporter = _ExpectingReporter(forwardingTo: [collector]) { expectations.expects($0) }
    reporter.reportIssue(
      "first", severity: .error, fileID: #fileID, filePath: #filePath, line: #line, column: 1)
    expectations.testCaseWillStart()
    reporter.reportIssue(
      "second", severity: .error, fileID: #fileID, filePath: #filePath, line: #line, column: 1)
    XCTAssertEqual(collector.messages.value, ["second"])
  }
}

/// The same forms in Swift Testing, where the current test says where the rest of it ends.
@MainActor
struct ExpectFailureSwiftTestingTests {
  @Test func withoutABlockTheRestOfTheTestExpectsFailures() {
    XCTExpectFailure { issue in issue.compactDescription.contains("does not match") }
    failStateAssertion()
  }

  @Test func anotherTestExpectsNothing() {
    #expect(!_RestOfTestExpectations.shared.expects(XCTIssue(message: "x", fileID: "", line: 0)))
  }

  @Test func aBlockExpectsTheFailureInsideIt() {
    XCTExpectFailure {
      failStateAssertion()
    }
  }
}
