/// How strictly a ``TestStore`` checks a feature.
public enum Exhaustivity: Equatable, Sendable {
  /// Every state change, every received action and every effect must be asserted.
  case on
  /// Only what a test asserts is checked. With `showSkippedAssertions`, what was not asserted is
  /// reported as a warning, which does not fail the test.
  case off(showSkippedAssertions: Bool)

  /// Non-exhaustive, without reporting skipped assertions.
  public static let off = Self.off(showSkippedAssertions: false)
}
