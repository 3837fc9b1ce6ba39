import ComposableArchitecture
import Foundation
import Testing

extension TestClock<Duration> {
  /// Waits until some effect sleeps on this clock.
  ///
  /// `advance(by:)` resumes only the sleeps that have begun: advanced before an effect reaches its
  /// sleep, the clock moves past it and the effect then sleeps until a time the test never
  /// reaches, so a test that awaits that effect waits forever. A test store lets each step's
  /// effects run up to their first wait before it returns; a plain `Store` or `StoreActor` does
  /// not (its effects run on the global executor, after any number of the test's own steps on a
  /// busy machine), so such a test waits for the sleep before it advances time.
  ///
  /// A test whose effect never sleeps fails here, after a generous bound of real time, instead of
  /// hanging.
  func waitForSleeper(sourceLocation: SourceLocation = #_sourceLocation) async {
    let bound = ContinuousClock.now.advanced(by: .seconds(60))
    // `checkSuspension()` throws while a sleep is pending.
    while (try? await checkSuspension()) != nil {
      guard ContinuousClock.now < bound else {
        Issue.record("No effect slept on the test clock.", sourceLocation: sourceLocation)
        return
      }
    }
  }
}
